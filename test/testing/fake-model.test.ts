// coderline/testing as a user sees it: start a fake model, point a real CLI at it, run, assert.
import { readFileSync } from 'node:fs';
import { access, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidOptionsError, run, type ProviderName } from '../../src/index.js';
import { fakeApiOf, offeredTool, startFakeModel, type FakeModel } from '../../src/testing/index.js';
import { withPinnedRuntime } from '../support/pinned-clis.js';

const open: FakeModel[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((fake) => fake.close()));
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function workDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'coderline-testing-'));
  dirs.push(dir);
  return dir;
}

const clis: ProviderName[] = ['claude', 'codex', 'copilot', 'pi', 'gemini', 'opencode'];

describe('startFakeModel()', () => {
  it.each(clis)('answers %s with a scripted reply and records what the CLI sent', async (cli) => {
    const fake = await startFakeModel({ api: fakeApiOf[cli], script: [{ text: 'All tests pass.' }] });
    open.push(fake);
    const opts = withPinnedRuntime(cli, await fake.env(cli));
    const result = await run(cli, 'Did the tests pass?', { ...opts, workingDirectory: await workDir() });
    expect(result.status).toBe('success');
    expect(result.text).toBe('All tests pass.');
    expect(fake.requests.length).toBeGreaterThan(0);
    expect(JSON.stringify(fake.requests[0]!.body)).toContain('Did the tests pass?');
  });

  it.each(['claude', 'pi'] as const)('lets %s call the shell tool found by a matcher on the offered tools', async (cli) => {
    const cwd = await workDir();
    const fake = await startFakeModel({
      api: fakeApiOf[cli],
      script: (request, index) =>
        index === 0
          ? { toolCalls: [{ name: offeredTool(request, /^bash$/i), input: { command: 'echo made-by-tool > out.txt' } }] }
          : { text: 'Done.' },
    });
    open.push(fake);
    const opts = withPinnedRuntime(cli, await fake.env(cli));
    const result = await run(cli, 'Write the file.', { ...opts, workingDirectory: cwd, permissionPolicy: { allow: [cli === 'claude' ? 'Bash' : 'bash'] } });
    expect(result.status).toBe('success');
    expect((await readFile(join(cwd, 'out.txt'), 'utf8')).trim()).toBe('made-by-tool');
    expect(fake.requests).toHaveLength(2);
  });

  it('scripts an error status: the run fails with a typed error', async () => {
    const fake = await startFakeModel({ api: 'openai-responses', script: [{ kind: 'error', status: 401, message: 'bad key' }] });
    open.push(fake);
    const result = await run('codex', 'hi', { ...(await fake.env('codex')), workingDirectory: await workDir() });
    expect(result.status).toBe('error');
    expect(result.error?.code).toBe('auth');
  });

  it('refuses env() for a CLI that speaks another API', async () => {
    const fake = await startFakeModel({ api: 'anthropic', script: [{ text: 'x' }] });
    open.push(fake);
    await expect(fake.env('codex')).rejects.toBeInstanceOf(InvalidOptionsError);
  });

  it('refuses env options a CLI cannot honour, and a cut that an API cannot send', async () => {
    const responses = await startFakeModel({ api: 'openai-responses', script: [{ text: 'x' }] });
    const chat = await startFakeModel({ api: 'openai-chat', script: [{ text: 'x' }] });
    open.push(responses, chat);
    await expect(responses.env('codex', { isolation: 'strict' })).rejects.toThrow(/codex has no strict isolation/);
    await expect(chat.env('pi', { isolation: 'strict' })).rejects.toThrow(/pi has no strict isolation/);
    await expect(chat.env('copilot', { requestTimeoutMs: 1000 })).rejects.toThrow(/copilot has no setting for requestTimeoutMs/);
    await expect(startFakeModel({ api: 'anthropic', script: [], cutWith: 'error' })).rejects.toBeInstanceOf(InvalidOptionsError);
    expect(await chat.env('copilot', { isolation: 'strict' })).toMatchObject({ isolation: 'strict' });
  });

  it('contextWindow: the setting each CLI compacts by (the CLIs that have one), refused for the others and for a window OpenCode cannot hold', async () => {
    const anthropic = await startFakeModel({ api: 'anthropic', script: [{ text: 'x' }] });
    const responses = await startFakeModel({ api: 'openai-responses', script: [{ text: 'x' }] });
    const chat = await startFakeModel({ api: 'openai-chat', script: [{ text: 'x' }] });
    open.push(anthropic, responses, chat);
    await expect(anthropic.env('claude', { contextWindow: 20_000 })).rejects.toThrow(/claude has no setting for contextWindow/);
    await expect(chat.env('opencode', { contextWindow: 4096 })).rejects.toThrow(/at least 8192/);
    await expect(chat.env('pi', { contextWindow: 15_000.5 })).rejects.toThrow(/integer/);
    expect((await chat.env('copilot', { contextWindow: 20_000 })).extraEnv).toMatchObject({ COPILOT_PROVIDER_MAX_PROMPT_TOKENS: '20000' });
    expect((await responses.env('codex', { contextWindow: 20_000 })).codexConfig).toMatchObject({ model_auto_compact_token_limit: 20_000 });
    const opencode = await chat.env('opencode', { contextWindow: 20_000 });
    const config = JSON.parse(readFileSync(opencode.extraEnv!.OPENCODE_CONFIG!, 'utf8')) as { provider: { fake: { models: Record<string, { limit: { context: number } }> } } };
    expect(Object.values(config.provider.fake.models).map((model) => model.limit.context)).toEqual([20_000, 20_000]);
    const pi = await chat.env('pi', { contextWindow: 20_000 });
    const agentDir = pi.extraEnv!.PI_CODING_AGENT_DIR!;
    const models = JSON.parse(readFileSync(join(agentDir, 'models.json'), 'utf8')) as { providers: { fake: { models: Array<{ contextWindow: number }> } } };
    expect(models.providers.fake.models.map((model) => model.contextWindow)).toEqual([20_000, 20_000]);
    expect(JSON.parse(readFileSync(join(agentDir, 'settings.json'), 'utf8'))).toMatchObject({ compaction: { enabled: true, reserveTokens: 2000, keepRecentTokens: 1 } });
  });

  it('stopServer() releases the port but keeps the dirs env() made', async () => {
    const fake = await startFakeModel({ api: 'openai-chat', script: [{ text: 'x' }] });
    open.push(fake);
    const opts = await fake.env('copilot');
    await fake.stopServer();
    await expect(fetch(`${fake.url}/v1/chat/completions`, { method: 'POST' })).rejects.toThrow();
    await expect(access(opts.extraEnv!.COPILOT_HOME!)).resolves.toBeUndefined();
  });

  it('close() releases the port and removes the temp dirs', async () => {
    const fake = await startFakeModel({ api: 'openai-chat', script: [{ text: 'x' }] });
    const opts = await fake.env('copilot');
    await fake.close();
    await expect(fetch(`${fake.url}/v1/chat/completions`, { method: 'POST' })).rejects.toThrow();
    await expect(access(opts.extraEnv!.COPILOT_HOME!)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
