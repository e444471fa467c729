// Passthrough on the real `claude` binary against the fake Anthropic server: a flag coderline does not
// model (extraArgs) reaches the CLI and changes what it sends the model; fallbackModel takes over after
// overloaded answers, as the field notes measured.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { claudeAdapter } from '../../src/adapters/claude/index.js';
import { InvalidOptionsError, run, type SharedStartOpts } from '../../src/index.js';
import { startFakeModel, type FakeEnvOptions, type FakeModel, type Script } from '../../src/testing/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';

async function fake(script: Script, env: FakeEnvOptions = {}): Promise<{ model: FakeModel; opts: SharedStartOpts }> {
  const model = await startFakeModel({ api: 'anthropic', script });
  const workDir = await mkdtemp(join(tmpdir(), 'coderline-claude-passthrough-'));
  cleanupAfterTest(() => model.close(), () => rm(workDir, { recursive: true, force: true }));
  return { model, opts: { ...(await model.env('claude', env)), workingDirectory: workDir } };
}

const toolNames = (body: unknown) => (body as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);

it('extraArgs: --tools=Read,Grep leaves only those built-in tools in what the model is offered', async () => {
  const { model, opts } = await fake([{ text: 'plain' }, { text: 'narrowed' }]);
  expect((await run(claudeAdapter, 'Hi', opts)).status).toBe('success');
  const narrowed = await run(claudeAdapter, 'Hi', { ...opts, extraArgs: ['--tools=Read,Grep'] });
  expect(narrowed).toMatchObject({ status: 'success', text: 'narrowed' });
  expect(toolNames(model.requests[0]!.body)).toContain('Bash');
  expect(toolNames(model.requests[1]!.body).sort()).toEqual(['Grep', 'Read']);
});

it('extraArgs: a flag the adapter owns is refused by name before anything spawns', async () => {
  const { model, opts } = await fake([{ text: 'never' }]);
  const attempt = run(claudeAdapter, 'Hi', { ...opts, extraArgs: ['--output-format=text', '--tools=Read', '-r', 'x'] });
  await expect(attempt).rejects.toBeInstanceOf(InvalidOptionsError);
  await expect(attempt).rejects.toMatchObject({ issues: [expect.stringContaining('--output-format'), expect.stringContaining('-r ')] });
  expect(model.requests).toHaveLength(0);
});

it('fallbackModel: after repeated 529 overloaded answers the next request names the fallback model', async () => {
  const overloaded = { kind: 'error', status: 529, type: 'overloaded_error', message: 'Overloaded' } as const;
  const { model, opts } = await fake([overloaded, overloaded, overloaded, { text: 'From the fallback.' }], { retries: 5 });
  const result = await run(claudeAdapter, 'Hi', { ...opts, model: 'claude-sonnet-4-5', fallbackModel: 'claude-haiku-4-5', collectEvents: true });
  expect(result).toMatchObject({ status: 'success', text: 'From the fallback.' });
  const models = model.requests.map((request) => (request.body as { model: string }).model);
  expect(models[0]).toBe('claude-sonnet-4-5');
  expect(models.at(-1)).toBe('claude-haiku-4-5');
  expect(result.events?.some((e) => e.type === 'progress' && e.subtype === 'system/model_fallback')).toBe(true);
});
