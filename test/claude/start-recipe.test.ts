// The "Hold one conversation, then clean up" recipe of docs/recipes.md, run as written against the
// real `claude` binary and the fake Anthropic server: both turns share one conversation, and when the
// function returns, the private config dir the CLI ran with is gone.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { start, type SharedStartOpts } from '../../src/index.js';
import { startFakeModel } from '../../src/testing/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';

async function fixAndExplain(repoDir: string, options: SharedStartOpts = {}) {
  await using session = start('claude', {
    ...options,
    workingDirectory: repoDir,
    isolation: 'strict',
    permissionPolicy: { allow: ['Bash', 'Edit', 'Read'] },
  });
  const fix = await session.run('Make the failing test pass');
  if (fix.status !== 'success') throw fix.error;
  const note = await session.run('Explain the fix in one sentence for the changelog');
  if (note.status !== 'success') throw note.error;
  return note.text;
}

it('docs/recipes.md: one conversation over two turns, and the coder\'s config dir removed after', async () => {
  const model = await startFakeModel({
    api: 'anthropic',
    script: [
      // The "fix": the model asks where the CLI keeps its config, so the test learns the private dir.
      { text: 'Checking.', toolCalls: [{ name: 'Bash', input: { command: 'printenv CLAUDE_CONFIG_DIR', description: 'show the config dir' } }] },
      { text: 'Fixed the off-by-one.' },
      { text: 'Fixed an off-by-one in the loop bound.' },
    ],
  });
  const repoDir = await mkdtemp(join(tmpdir(), 'coderline-start-recipe-'));
  cleanupAfterTest(() => model.close(), () => rm(repoDir, { recursive: true, force: true }));

  expect(await fixAndExplain(repoDir, await model.env('claude', { isolation: 'strict' }))).toBe('Fixed an off-by-one in the loop bound.');

  expect(model.requests).toHaveLength(3);
  const second = JSON.stringify(model.requests[2]!.body);
  expect(second).toContain('Fixed the off-by-one.');
  const configDir = /(\/[^"\\\s]*coderline-coder-[^"\\\s]*)/.exec(JSON.stringify(model.requests[1]!.body))?.[1];
  expect(configDir).toBeDefined();
  expect(existsSync(configDir!)).toBe(false);
});
