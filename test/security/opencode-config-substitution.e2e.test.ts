// OpenCode replaces {env:NAME} and {file:PATH} in every config text it loads, OPENCODE_CONFIG_CONTENT
// included (measured on 1.18.33: `opencode debug config` prints the variable's value and the file's
// contents in their place). A live session's model goes into that config, so a model id was a way to
// make OpenCode read the worker's environment or any file it can read.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { opencodeAdapter } from '../../src/adapters/opencode/index.js';
import { createCoder, InvalidOptionsError, run } from '../../src/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { fakeForLive } from '../support/live.js';

describe('opencode (real binary): a model id cannot reach OpenCode\'s config substitution', () => {
  it('a model naming {file:…} or {env:…} is InvalidOptionsError before the CLI starts, live and one-shot', async () => {
    const { model, opts, workDir } = await fakeForLive('opencode', [{ text: 'Answered.' }]);
    const secretFile = join(workDir, 'worker-secret.txt');
    // The secret is a model name the fake serves, so a read of it would make the turn succeed.
    writeFileSync(secretFile, 'fake-model');
    const coder = createCoder(opencodeAdapter, opts);
    cleanupAfterTest(() => coder.close());
    // The attacker: a queue job (or a web form) chooses the model id of a live session on the worker.
    for (const hostile of [`fake/{file:${secretFile}}`, 'fake/{env:CODERLINE_WORKER_SECRET}']) {
      const opened = coder.open({ model: hostile, extraEnv: { ...opts.extraEnv, CODERLINE_WORKER_SECRET: 'fake-model' } }).then(async (live) => {
        try {
          return await live.send('Say hi.').result;
        } finally {
          await live.close();
        }
      });
      await expect(opened).rejects.toBeInstanceOf(InvalidOptionsError);
      await expect(run(opencodeAdapter, 'Say hi.', { ...opts, model: hostile })).rejects.toBeInstanceOf(InvalidOptionsError);
    }
    expect(model.requests).toHaveLength(0);
    // A provider/model id still runs.
    await expect(run(opencodeAdapter, 'Say hi.', { ...opts, model: 'fake/fake-model' })).resolves.toMatchObject({ status: 'success', text: 'Answered.' });
  });
});
