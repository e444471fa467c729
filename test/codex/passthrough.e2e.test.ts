// Passthrough on the real `codex` binary against the fake Responses server: a flag coderline does not
// model (extraArgs) reaches the CLI, also before `resume -- <id> -`; codexConfig values that are tables
// and arrays are read by the CLI as TOML.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { codexAdapter } from '../../src/adapters/codex/index.js';
import { createCoder, FeatureNotSupportedError, run, type SharedStartOpts } from '../../src/index.js';
import { startFakeModel, type FakeModel, type Script } from '../../src/testing/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';

async function setup(script: Script): Promise<{ model: FakeModel; opts: SharedStartOpts; cwd: string }> {
  const model = await startFakeModel({ api: 'openai-responses', script });
  const cwd = await mkdtemp(join(tmpdir(), 'coderline-codex-passthrough-'));
  cleanupAfterTest(() => model.close(), () => rm(cwd, { recursive: true, force: true }));
  return { model, cwd, opts: { ...(await model.env('codex')), workingDirectory: cwd } };
}

it('extraArgs: --output-last-message writes the answer to a file, placed before `resume -- <id> -`', async () => {
  const { cwd, opts } = await setup([{ text: 'First answer.' }, { text: 'Second answer.' }]);
  const coder = createCoder(codexAdapter, opts);
  cleanupAfterTest(() => coder.close());
  const first = await coder.start().run('One');
  expect(first.status).toBe('success');
  const file = join(cwd, 'last-message.txt');
  const resumed = await coder.resume(first.sessionId!, { extraArgs: ['--output-last-message', file] }).run('Two');
  expect(resumed).toMatchObject({ status: 'success', text: 'Second answer.', sessionId: first.sessionId });
  expect((await readFile(file, 'utf8')).trim()).toBe('Second answer.');
});

it('extraArgs: -c is refused (codexConfig sets it), and fallbackModel is not supported', async () => {
  const { model, opts } = await setup([{ text: 'never' }]);
  await expect(run(codexAdapter, 'Hi', { ...opts, extraArgs: ['-c', 'model="x"'] })).rejects.toMatchObject({ code: 'invalid_options', issues: [expect.stringContaining('-c ')] });
  // @ts-expect-error: fallbackModel is Claude's; what is checked here is the refusal a JavaScript caller gets
  await expect(run(codexAdapter, 'Hi', { ...opts, fallbackModel: 'gpt-5' })).rejects.toBeInstanceOf(FeatureNotSupportedError);
  expect(model.requests).toHaveLength(0);
});

it('codexConfig: a table value becomes request headers, an array value names the project doc files', async () => {
  const { model, cwd, opts } = await setup([{ text: 'Configured.' }]);
  await writeFile(join(cwd, 'TEAM_NOTES.md'), 'Always answer in haiku (marker 7f3a).\n');
  const result = await run(codexAdapter, 'Hi', {
    ...opts,
    codexConfig: {
      ...opts.codexConfig,
      'model_providers.fake.http_headers': { 'x-coderline-table': 'inline table', 'x-second': 'two' },
      project_doc_fallback_filenames: ['MISSING.md', 'TEAM_NOTES.md'],
    },
  });
  expect(result).toMatchObject({ status: 'success', text: 'Configured.' });
  expect(model.requests[0]!.headers).toMatchObject({ 'x-coderline-table': 'inline table', 'x-second': 'two' });
  expect(JSON.stringify(model.requests[0]!.body)).toContain('marker 7f3a');
});
