// End to end: the REAL opencode binary (node_modules/.bin/opencode, 1.18.33) through the public run() /
// createCoder(), against the fake chat-completions server on 127.0.0.1. Nothing leaves the machine.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { opencodeAdapter } from '../../src/adapters/opencode/index.js';
import { createCoder, FeatureNotSupportedError, run, tool } from '../../src/index.js';
import type { SharedStartOpts } from '../../src/index.js';
import { startFakeModel, type FakeEnvOptions, type FakeModel, type Script } from '../../src/testing/index.js';
import { OPENCODE_BIN } from '../../src/testing/opencode-env.js';
import { isGroupAlive, killMarked, markedProcessStarts, pidsWithMarker, uniqueMarker } from '../support/processes.js';
import { expectSecretHidden, hostSecretProbe } from '../support/host-env.js';
import { ofType } from '../support/events.js';
import { cleanupAfterTest } from '../support/cleanup.js';

const fakes: FakeModel[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

const tempDir = (label: string) => {
  const dir = mkdtempSync(join(tmpdir(), `coderline-opencode-e2e-${label}-`));
  tempDirs.push(dir);
  return dir;
};

async function setup(script: Script, env: FakeEnvOptions = {}): Promise<{ fake: FakeModel; opts: SharedStartOpts; cwd: string }> {
  const fake = await startFakeModel({ api: 'openai-chat', script });
  fakes.push(fake);
  const cwd = tempDir('ws');
  return { fake, cwd, opts: { ...(await fake.env('opencode', env)), executablePath: OPENCODE_BIN, workingDirectory: cwd } };
}

const requestText = (fake: FakeModel, index: number) => JSON.stringify(fake.requests[index]?.body ?? null);
/** The last user message of a request, as the CLI sent it. */
const lastUserContent = (fake: FakeModel, index: number) => {
  const messages = (fake.requests[index]?.body as { messages?: Array<{ role: string; content: unknown }> } | undefined)?.messages ?? [];
  return messages.filter((message) => message.role === 'user').at(-1)?.content;
};

describe('opencode e2e (real binary)', () => {
  it('text: the answer, a ses_ id, usage; the prompt reached the model byte-exact over stdin; every event from a raw line', async () => {
    const { fake, opts } = await setup([{ thinking: 'Greeting.', text: 'Hello from the fake model.', usage: { inputTokens: 120, cachedInputTokens: 20, outputTokens: 8, reasoningTokens: 3 } }]);
    const lines: string[] = [];
    const prompt = 'Say "hello"  in\ntwo -words';
    const result = await run(opencodeAdapter, prompt, { ...opts, collectEvents: true, onRawLine: (line) => lines.push(line) });
    expect(result.status).toBe('success');
    expect(result.text).toBe('Hello from the fake model.');
    expect(result.sessionId).toMatch(/^ses_\w+$/);
    expect(result.cliVersion).toBe('1.18.33');
    expect(result.usage).toMatchObject({ inputTokens: 120, cachedInputTokens: 20, outputTokens: 8, reasoningTokens: 3 });
    expect(ofType(result.events, 'reasoning').map((event) => event.text)).toEqual(['Greeting.']);
    expect(lastUserContent(fake, 0)).toBe(prompt);
    const parsed = lines.filter((line) => line.trim()).map((line) => JSON.parse(line) as unknown);
    for (const event of result.events ?? []) if (event.type !== 'stderr') expect(parsed).toContainEqual(event.raw);
    // One model call: the title call is off in the fake env, and `run` starts no other.
    expect(fake.requests).toHaveLength(1);
  });

  it('tools: a shell command, a todo list and a read become tool_use/tool_result with tool facts, and a plan', async () => {
    const { cwd, opts } = await setup([
      { toolCalls: [{ name: 'bash', input: { command: 'echo hi > made.txt && cat made.txt', description: 'Make a file' } }] },
      { toolCalls: [{ name: 'todowrite', input: { todos: [{ content: 'Make a file', status: 'completed', priority: 'high' }, { content: 'Read it', status: 'in_progress', priority: 'medium' }] } }] },
      { toolCalls: [{ name: 'read', input: { filePath: 'made.txt' } }, { name: 'bash', input: { command: 'exit 3', description: 'Fail' } }] },
      { text: 'Done.' },
    ]);
    const result = await run(opencodeAdapter, 'Work.', { ...opts, collectEvents: true });
    expect(result.status).toBe('success');
    expect(readFileSync(join(cwd, 'made.txt'), 'utf8')).toBe('hi\n');
    const uses = ofType(result.events, 'tool_use');
    expect(uses.map((event) => event.tool?.kind)).toEqual(['shell', 'plan', expect.any(String), expect.any(String)]);
    expect(uses[0]!.tool).toEqual({ kind: 'shell', name: 'bash', command: 'echo hi > made.txt && cat made.txt' });
    const read = uses.find((event) => event.name === 'read');
    expect(read?.tool).toEqual({ kind: 'read', name: 'read', paths: ['made.txt'] });
    const results = ofType(result.events, 'tool_result');
    expect(results[0]).toMatchObject({ id: uses[0]!.id, output: 'hi\n', isError: false });
    expect(results.find((event) => event.name === 'read')?.output).toEqual(expect.stringContaining('hi'));
    expect(ofType(result.events, 'plan')).toEqual([
      expect.objectContaining({ items: [{ content: 'Make a file', status: 'completed' }, { content: 'Read it', status: 'in_progress' }], toolUseId: uses[1]!.id }),
    ]);
  });

  it('resume keeps the session and its history; fork gives a new id with the history', async () => {
    const { fake, opts } = await setup([{ text: 'First answer.' }, { text: 'Second answer.' }, { text: 'Forked answer.' }]);
    const coder = createCoder(opencodeAdapter, opts);
    const first = await coder.start().run('First question.');
    expect(first.status).toBe('success');
    const resumed = coder.resume(first.sessionId!);
    const forking = await resumed.fork();
    const second = await resumed.run('Second question.');
    expect(second).toMatchObject({ status: 'success', text: 'Second answer.', sessionId: first.sessionId });
    expect(requestText(fake, 1)).toContain('First answer.');
    const forked = await forking.run('Forked question.');
    expect(forked.status).toBe('success');
    expect(forked.sessionId).toMatch(/^ses_/);
    expect(forked.sessionId).not.toBe(first.sessionId);
    // OpenCode copies the history when the fork runs: both earlier turns.
    expect(requestText(fake, 2)).toContain('First answer.');
    expect(requestText(fake, 2)).toContain('Second answer.');
    // The store, read through the CLI: both sessions, and the conversation of the first.
    const listed = await coder.listSessions();
    expect(listed.map((session) => session.id).sort()).toEqual([first.sessionId, forked.sessionId].sort());
    const history = await coder.readSession(first.sessionId!);
    expect(history.filter((event) => event.type === 'message').map((event) => [event.role, event.text])).toEqual([
      ['user', 'First question.'],
      ['assistant', 'First answer.'],
      ['user', 'Second question.'],
      ['assistant', 'Second answer.'],
    ]);
  });

  it('resuming a session the store lacks is session_not_found', async () => {
    const { fake, opts } = await setup([{ text: 'never' }]);
    const result = await createCoder(opencodeAdapter, opts).resume('ses_doesnotexist0000000000').run('Hi.');
    expect(result.status).toBe('error');
    expect(result.error?.code).toBe('session_not_found');
    expect(fake.requests).toHaveLength(0);
  });

  it('an auto-compaction mid-turn: a compaction event, and the turn goes on to its real answer (the summary step is no end)', async () => {
    // Usage 127 000 of the fake model's 128 000 context makes OpenCode summarize; the summary call ends
    // with reason "stop" like a last step. The answer after it comes later than the linger allows.
    const { fake, opts } = await setup([
      { toolCalls: [{ name: 'bash', input: { command: 'echo filled', description: 'Fill the context' } }], usage: { inputTokens: 127_000, outputTokens: 10 } },
      { text: 'Summary: one shell call.' },
      { text: 'Done after compaction.', delayMs: 1_500 },
    ]);
    const result = await run(opencodeAdapter, 'Work.', { ...opts, terminalGraceMs: 500, collectEvents: true });
    expect(result.status).toBe('success');
    expect(result.text).toBe('Done after compaction.');
    expect(ofType(result.events, 'compaction').map((event) => [event.phase, event.trigger])).toEqual([['completed', 'auto']]);
    expect(fake.requests).toHaveLength(3);
  });

  it('plan mode: the shell and writes are denied and not offered; the run goes on', async () => {
    const { fake, cwd, opts } = await setup([{ toolCalls: [{ name: 'bash', input: { command: 'touch refused.txt', description: 'Write' } }] }, { text: 'Could not.' }]);
    const result = await run(opencodeAdapter, 'Try.', { ...opts, permissionPolicy: { mode: 'plan' }, collectEvents: true });
    expect(result).toMatchObject({ status: 'success', text: 'Could not.' });
    expect(existsSync(join(cwd, 'refused.txt'))).toBe(false);
    const offered = (fake.requests[0]?.body as { tools?: Array<{ function: { name: string } }> }).tools?.map((t) => t.function.name) ?? [];
    expect(offered).toContain('read');
    expect(offered).not.toContain('bash');
    expect(offered).not.toContain('write');
  });

  it("the repository's opencode.json cannot allow what a gated run denies", async () => {
    const { cwd, opts } = await setup([{ toolCalls: [{ name: 'bash', input: { command: 'touch bypassed.txt', description: 'Write' } }] }, { text: 'Done.' }]);
    writeFileSync(join(cwd, 'opencode.json'), JSON.stringify({ permission: { bash: 'allow', edit: 'allow' } }));
    const result = await run(opencodeAdapter, 'Try.', { ...opts, permissionPolicy: { deny: ['bash'] } });
    expect(result.status).toBe('success');
    expect(existsSync(join(cwd, 'bypassed.txt'))).toBe(false);
  });

  it('an ask that `run` auto-rejects (reading outside the working directory) fails the run, never a silent success', async () => {
    const outside = tempDir('outside');
    writeFileSync(join(outside, 'secret.txt'), 'outside');
    const { fake, opts } = await setup([{ toolCalls: [{ name: 'read', input: { filePath: join(outside, 'secret.txt') } }] }, { text: 'never' }]);
    const result = await run(opencodeAdapter, 'Read it.', { ...opts, collectEvents: true });
    expect(result.status).toBe('error');
    expect(result.error?.code).toBe('feature_not_supported');
    expect(result.error?.message).toMatch(/rejected it/);
    expect(ofType(result.events, 'tool_result')[0]).toMatchObject({ isError: true });
    expect(fake.requests).toHaveLength(1);
  });

  it('canUseTool fails fast: `run` cannot ask', async () => {
    const { fake, opts } = await setup([{ text: 'never' }]);
    await expect(run(opencodeAdapter, 'Hi.', { ...opts, canUseTool: () => ({ behavior: 'allow' }) })).rejects.toThrow(FeatureNotSupportedError);
    expect(fake.allRequests).toHaveLength(0);
  });

  it('custom tools run through the bridge, named by the user; the secret stays out of argv and the config text', async () => {
    const { opts } = await setup([{ toolCalls: [{ name: 'coderline_lookup', input: { key: 'answer' } }] }, { text: 'It is 42.' }]);
    const lookup = tool({ name: 'lookup', description: 'Look a key up', input: z.object({ key: z.string() }), handler: ({ key }) => `${key}=42` });
    const result = await run(opencodeAdapter, 'Look it up.', { ...opts, tools: [lookup], collectEvents: true });
    expect(result.status).toBe('success');
    const [use] = ofType(result.events, 'tool_use');
    expect(use).toMatchObject({ name: 'lookup', tool: { kind: 'mcp', name: 'lookup', server: 'coderline' } });
    expect(ofType(result.events, 'tool_result')[0]?.output).toEqual(expect.stringContaining('answer=42'));
  });

  it('structured output: the answer is parsed and validated', async () => {
    const { opts } = await setup([{ text: '{"answer": 42}' }]);
    const result = await run(opencodeAdapter, 'Answer.', { ...opts, outputSchema: z.object({ answer: z.number() }) });
    expect(result.status).toBe('success');
    expect(result.output).toEqual({ answer: 42 });
  });

  it('a file attachment reaches the model', async () => {
    const { fake, cwd, opts } = await setup([{ text: 'Read.' }]);
    writeFileSync(join(cwd, 'notes.txt'), 'attached-marker-7731');
    const result = await run(opencodeAdapter, 'Summarize.', { ...opts, files: ['notes.txt'] });
    expect(result.status).toBe('success');
    expect(requestText(fake, 0)).toContain('attached-marker-7731');
    expect(requestText(fake, 0)).toContain('Summarize.');
  });

  it('401 → auth, with the status', async () => {
    const { opts } = await setup([{ kind: 'error', status: 401, message: 'Invalid API key' }]);
    const result = await run(opencodeAdapter, 'Hi.', { ...opts, collectEvents: true });
    expect(result.status).toBe('error');
    expect(result.error?.code).toBe('auth');
    expect(ofType(result.events, 'error')[0]).toMatchObject({ httpStatus: 401, fatal: true });
  });

  it('abort during a shell command: cancelled, and neither opencode nor the command is left', async () => {
    const marker = uniqueMarker('opencode-abort');
    cleanupAfterTest(() => killMarked(marker));
    const { opts } = await setup([{ toolCalls: [{ name: 'bash', input: { command: `exec -a ${marker} sleep 30`, description: 'Sleep' } }] }, { text: 'never' }]);
    const controller = new AbortController();
    const started = markedProcessStarts(marker).finally(() => controller.abort());
    const result = await run(opencodeAdapter, 'Sleep.', { ...opts, signal: controller.signal });
    expect(await started).toBe(true);
    expect(result.status).toBe('cancelled');
    expect(isGroupAlive(result.pid!)).toBe(false);
    expect(pidsWithMarker(marker)).toEqual([]);
  });

  it('strict isolation: the sessions live in the coder\'s own dirs, and resume finds them there', async () => {
    const { fake, opts } = await setup([{ text: 'One.' }, { text: 'Two.' }], { isolation: 'strict' });
    const coder = createCoder(opencodeAdapter, opts);
    const first = await coder.start().run('First.');
    expect(first.status).toBe('success');
    const second = await coder.resume(first.sessionId!).run('Second.');
    expect(second).toMatchObject({ status: 'success', sessionId: first.sessionId });
    expect(requestText(fake, 1)).toContain('One.');
    // Another coder (its own state dir) does not have the session.
    const other = await createCoder(opencodeAdapter, opts).resume(first.sessionId!).run('Third.');
    expect(other.error?.code).toBe('session_not_found');
  });
});

describe("opencode with inheritEnv: 'minimal' (real binary)", () => {
  it('hides a host variable from a shell command, and still runs with what extraEnv passes', async () => {
    const probe = hostSecretProbe();
    const { fake, opts } = await setup([{ toolCalls: [{ name: 'bash', input: { command: probe.command, description: 'Print' } }] }, { text: 'Printed.' }]);
    const result = await run(opencodeAdapter, 'Print two variables.', { ...opts, inheritEnv: 'minimal', collectEvents: true });
    const [toolResult] = ofType(result.events, 'tool_result');
    expectSecretHidden(probe, { status: result.status, toolOutput: toolResult?.output, fedBack: requestText(fake, 1) });
  });
});

describe('opencode without its platform binary', () => {
  it('the registry placeholder (postinstall not run) is platform_not_supported before any run starts', async () => {
    const dir = tempDir('placeholder');
    const placeholder = join(dir, 'opencode');
    // What the opencode-ai package ships as bin/opencode.exe until its postinstall links the binary (1.18.33).
    writeFileSync(placeholder, 'echo "Error: opencode-ai\'s postinstall script was not run." >&2\nexit 1\n', { mode: 0o755 });
    const { fake, opts } = await setup([{ text: 'never' }]);
    const result = run(opencodeAdapter, 'Hi.', { ...opts, executablePath: placeholder });
    await expect(result).rejects.toMatchObject({ code: 'platform_not_supported' });
    expect(fake.allRequests).toHaveLength(0);
  });
});
