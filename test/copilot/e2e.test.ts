// The real `copilot` (1.0.102, the pinned devDependency) through the public run() / createCoder(),
// offline against the fake chat-completions server (BYOK mode: no GitHub token, no network).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { copilotAdapter } from '../../src/adapters/copilot/index.js';
import { createCoder, FeatureNotSupportedError, run } from '../../src/index.js';
import type { SharedStartOpts } from '../../src/options.js';
import { startFakeModel, type FakeEnvOptions, type FakeModel, type FakeModelOptions, type RecordedRequest, type Script } from '../../src/testing/index.js';
import { isGroupAlive } from '../support/processes.js';
import { assembledDeltas } from './replay.js';
import { expectSecretHidden, hostSecretProbe } from '../support/host-env.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { waitFor } from '../support/wait.js';
import { ofType } from '../support/events.js';

interface Setup {
  fake: FakeModel;
  opts: SharedStartOpts;
  cwd: string;
}


/** A fake model with `script`, and options that point copilot at it from a fresh working directory. */
async function setup(script: Script, options: Pick<FakeModelOptions, 'cutWith'> & { env?: FakeEnvOptions } = {}): Promise<Setup> {
  const fake = await startFakeModel({ api: 'openai-chat', script, cutWith: options.cutWith });
  const cwd = await mkdtemp(join(tmpdir(), 'coderline-copilot-e2e-'));
  cleanupAfterTest(() => fake.close(), () => rm(cwd, { recursive: true, force: true }));
  return { fake, opts: { ...(await fake.env('copilot', options.env)), workingDirectory: cwd }, cwd };
}

interface ChatBody {
  messages: Array<{ role: string; content: unknown }>;
  tools?: Array<{ function: { name: string } }>;
  reasoning_effort?: string;
}
const body = (request: RecordedRequest | undefined) => request?.body as ChatBody;
const conversation = (request: RecordedRequest | undefined) =>
  body(request).messages.map((message) => `${message.role}: ${typeof message.content === 'string' ? message.content : JSON.stringify(message.content)}`).join('\n');
const toolNames = (request: RecordedRequest | undefined) => (body(request).tools ?? []).map((tool) => tool.function.name).sort();

const bash = (command: string, description = 'run it') => ({ name: 'bash', input: { command, description } });
describe('copilot end to end (real binary, fake model)', () => {
  it('streams text deltas, returns the answer and session id; the prompt went on stdin; onRawLine saw every line', async () => {
    const { fake, opts } = await setup([{ text: 'Hello from the fake model.', usage: { inputTokens: 123, cachedInputTokens: 7, outputTokens: 45, reasoningTokens: 3 } }]);
    const lines: string[] = [];
    const result = await run(copilotAdapter, 'Say hello, -p --yolo', {
      ...opts,
      streamPartialMessages: true,
      collectEvents: true,
      onRawLine: (line) => lines.push(line),
    });
    expect(result).toMatchObject({ status: 'success', text: 'Hello from the fake model.', exitCode: 0, cliVersion: '1.0.102' });
    expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    // Token counts come from the file the CLI writes at exit (stdout has none): after `done`.
    expect(result.usage).toEqual({ inputTokens: 123, cachedInputTokens: 7, outputTokens: 45, reasoningTokens: 3 });
    const usageFromFile = result.events!.at(-1)!;
    expect(usageFromFile).toMatchObject({ type: 'usage', raw: { modelMetrics: { 'fake-model': expect.anything() } } });
    expect(result.events!.findIndex((event) => event.type === 'done')).toBeLessThan(result.events!.length - 1);

    const deltas = ofType(result.events, 'message').filter((event) => event.delta);
    expect(deltas.length).toBeGreaterThan(1);
    expect(assembledDeltas(result.events ?? [])).toBe('Hello from the fake model.');
    expect(ofType(result.events, 'init')[0]).toMatchObject({ model: 'fake-model' });

    // The prompt reached the model whole, from stdin (flag-like text stayed text).
    expect(conversation(fake.requests[0])).toContain('Say hello, -p --yolo');

    // onRawLine: every stdout line; the events' raw records are exactly those lines.
    const records = lines.filter((line) => line.trim()).map((line) => JSON.parse(line) as { type: string; sessionId?: string });
    expect(records.at(-1)).toMatchObject({ type: 'result', sessionId: result.sessionId });
    const lineSet = new Set(records.map((record) => JSON.stringify(record)));
    const raws = (result.events ?? []).filter((event) => event.type !== 'stderr' && event !== usageFromFile).map((event) => JSON.stringify(event.raw));
    expect(raws.every((raw) => lineSet.has(raw))).toBe(true);
    // Every record shows up in the events (deltas included, since they were asked for).
    expect(new Set(raws).size).toBe(lineSet.size);
  });

  it('runs a bash tool call: tool_use and its tool_result joined by id, with the output', async () => {
    const { fake, opts } = await setup([{ toolCalls: [bash('echo hi-from-bash')] }, { text: 'It printed hi.' }]);
    const result = await run(copilotAdapter, 'Run echo', { ...opts, permissionPolicy: { mode: 'bypass' }, collectEvents: true });
    expect(result).toMatchObject({ status: 'success', text: 'It printed hi.' });
    const [use] = ofType(result.events, 'tool_use');
    const [toolResult] = ofType(result.events, 'tool_result');
    expect(use).toMatchObject({ name: 'bash', input: { command: 'echo hi-from-bash' } });
    expect(toolResult).toMatchObject({ id: use!.id, name: 'bash', isError: false });
    expect(String(toolResult!.output)).toContain('hi-from-bash');
    // The tool's output went back to the model.
    expect(conversation(fake.requests[1])).toContain('hi-from-bash');
  });

  it('reports a tool denied by permissionPolicy.deny as a refused, failed tool result; the run goes on', async () => {
    const { fake, opts, cwd } = await setup([{ toolCalls: [bash('echo should-not-run > ran.txt')] }, { text: 'Not allowed.' }]);
    const result = await run(copilotAdapter, 'Run echo', { ...opts, permissionPolicy: { deny: ['shell(echo)'] }, collectEvents: true });
    expect(result).toMatchObject({ status: 'success', text: 'Not allowed.' });
    const [toolResult] = ofType(result.events, 'tool_result');
    expect(toolResult).toMatchObject({ name: 'bash', isError: true, extra: { refused: true, errorCode: 'denied' } });
    expect(String(toolResult!.output)).toContain('shell(echo)');
    const { existsSync } = await import('node:fs');
    expect(existsSync(join(cwd, 'ran.txt'))).toBe(false);
    expect(fake.requests).toHaveLength(2);
  });

  it('reports a failing command as an error result with its exit code', async () => {
    const { opts } = await setup([{ toolCalls: [bash('echo oops >&2; exit 3')] }, { text: 'It failed.' }]);
    const result = await run(copilotAdapter, 'Run it', { ...opts, permissionPolicy: { mode: 'bypass' }, collectEvents: true });
    expect(result.status).toBe('success');
    expect(ofType(result.events, 'tool_result')[0]).toMatchObject({ isError: true, extra: { exitCode: 3 } });
  });

  it('streams reasoning and passes reasoningEffort', async () => {
    const { fake, opts } = await setup([{ thinking: 'Let me think about it.', text: 'Done thinking.' }]);
    const result = await run(copilotAdapter, 'Think', { ...opts, reasoningEffort: 'high', streamPartialMessages: true, collectEvents: true });
    expect(result).toMatchObject({ status: 'success', text: 'Done thinking.' });
    const reasoning = ofType(result.events, 'reasoning');
    expect(reasoning.filter((event) => event.delta).map((event) => event.text).join('')).toBe('Let me think about it.');
    expect(reasoning.filter((event) => !event.delta).map((event) => event.text)).toEqual(['Let me think about it.']);
    expect(body(fake.requests[0]).reasoning_effort).toBe('high');
  });

  it('retries 500 twice, then succeeds without duplicating text (also when a stream broke mid-answer)', async () => {
    const { fake, opts } = await setup([{ kind: 'error', status: 500 }, { kind: 'error', status: 500 }, { text: 'Third time lucky.' }]);
    const result = await run(copilotAdapter, 'Say it', { ...opts, streamPartialMessages: true, collectEvents: true });
    expect(result).toMatchObject({ status: 'success', text: 'Third time lucky.' });
    expect(fake.requests).toHaveLength(3);
    expect(ofType(result.events, 'progress').filter((event) => event.kind === 'retry').length).toBeGreaterThanOrEqual(2);
    expect(assembledDeltas(result.events ?? [])).toBe('Third time lucky.');

    const broken = await setup([{ text: 'Lost words here', cutAfterEvents: 3 }, { text: 'Kept words.' }], { cutWith: 'error' });
    const second = await run(copilotAdapter, 'Say it', { ...broken.opts, streamPartialMessages: true, collectEvents: true });
    expect(second).toMatchObject({ status: 'success', text: 'Kept words.' });
    expect(ofType(second.events, 'message').some((event) => event.reset)).toBe(true);
    expect(assembledDeltas(second.events ?? [])).toBe('Kept words.');
  });

  it('fails with auth on 401', async () => {
    const { opts } = await setup([{ kind: 'error', status: 401, message: 'bad key' }]);
    const result = await run(copilotAdapter, 'Say hello', opts);
    expect(result).toMatchObject({ status: 'error', exitCode: 1 });
    expect(result.error?.code).toBe('auth');
  });

  it('fails with rate_limit on 429 after the CLI gave up retrying', async () => {
    const { fake, opts } = await setup([{ kind: 'error', status: 429, retryAfterSeconds: 0, message: 'slow down' }]);
    const result = await run(copilotAdapter, 'Say hello', opts);
    expect(result).toMatchObject({ status: 'error', exitCode: 1 });
    expect(result.error?.code).toBe('rate_limit');
    expect(fake.requests.length).toBeGreaterThan(1);
  });

  it('stalls on a hung server and leaves no process behind', async () => {
    const { opts } = await setup([{ kind: 'hang', after: 'headers' }]);
    const started = Date.now();
    const result = await run(copilotAdapter, 'Say hello', { ...opts, stallTimeoutMs: 2_500 });
    expect(result.status).toBe('stalled');
    expect(result.error?.code).toBe('stalled');
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(result.pid).toBeGreaterThan(0);
    await waitFor(() => !isGroupAlive(result.pid!));
  });

  it('is cancelled by an AbortSignal and leaves no process behind', async () => {
    const { fake, opts } = await setup([{ kind: 'hang', after: 'first-event' }]);
    const controller = new AbortController();
    const pending = run(copilotAdapter, 'Say hello', { ...opts, signal: controller.signal });
    await waitFor(() => fake.requests.length > 0);
    controller.abort();
    const result = await pending;
    expect(result.status).toBe('cancelled');
    expect(result.error?.code).toBe('aborted');
    await waitFor(() => !isGroupAlive(result.pid!));
  });

  it('resumes a session by id and the latest one; a caller-chosen id names a new session; fork is refused', async () => {
    const { fake, opts } = await setup([
      { text: 'Noted: banana.', usage: { inputTokens: 100, outputTokens: 10 } },
      { text: 'The word was banana.', usage: { inputTokens: 200, outputTokens: 20 } },
      { text: 'Still banana.' },
      { text: 'Fresh session.' },
    ]);
    const coder = createCoder(copilotAdapter, opts);
    cleanupAfterTest(() => coder.close());
    const session = coder.start();
    const first = await session.run('Remember the word banana.');
    expect(first.status).toBe('success');
    const id = first.sessionId!;

    const resumed = await coder.resume(id).run('Which word?');
    expect(resumed).toMatchObject({ status: 'success', text: 'The word was banana.', sessionId: id });
    // The CLI's counts are the session's (300 input tokens by now); each result has its own run's.
    expect([first.usage, resumed.usage]).toMatchObject([{ inputTokens: 100, outputTokens: 10 }, { inputTokens: 200, outputTokens: 20 }]);
    expect(conversation(fake.requests[1])).toContain('Remember the word banana.');
    expect(conversation(fake.requests[1])).toContain('Noted: banana.');

    const latest = await coder.resumeLatest().run('And now?');
    expect(latest).toMatchObject({ status: 'success', sessionId: id });
    expect(conversation(fake.requests[2])).toContain('Which word?');

    const chosen = '0cb916db-26aa-40f2-86b5-1ba81b225fd2';
    const fresh = await coder.start({ sessionId: chosen }).run('New topic.');
    expect(fresh).toMatchObject({ status: 'success', sessionId: chosen });
    expect(conversation(fake.requests[3])).not.toContain('banana');

    await expect(session.fork()).rejects.toBeInstanceOf(FeatureNotSupportedError);
  });

  it('validates structured output given by prompt (best effort); strictSchema and maxTurns fail fast', async () => {
    const { fake, opts } = await setup([{ text: '{"answer": 42}' }, { text: 'not json at all' }]);
    const schema = z.object({ answer: z.number() });
    const good = await run(copilotAdapter, 'What is the answer?', { ...opts, outputSchema: schema });
    expect(good).toMatchObject({ status: 'success', output: { answer: 42 } });
    expect(conversation(fake.requests[0])).toContain('"answer"');

    const bad = await run(copilotAdapter, 'What is the answer?', { ...opts, outputSchema: schema });
    expect(bad.status).toBe('error');
    expect(bad.error?.code).toBe('invalid_output');

    await expect(run(copilotAdapter, 'x', { ...opts, outputSchema: schema, strictSchema: true })).rejects.toBeInstanceOf(FeatureNotSupportedError);
    await expect(run(copilotAdapter, 'x', { ...opts, maxTurns: 2 })).rejects.toBeInstanceOf(FeatureNotSupportedError);
    expect(fake.requests).toHaveLength(2);
  });

  it('accepts every mapped flag on the real binary (tools filtered, MCP config loaded)', async () => {
    const { fake, opts, cwd } = await setup([{ text: 'ok' }]);
    const result = await run(copilotAdapter, 'Hello', {
      ...opts,
      model: 'fake-model',
      reasoningEffort: 'low',
      addDirs: [tmpdir()],
      allowedTools: ['shell(git:*)'],
      permissionPolicy: { allow: ['write'], deny: ['shell(rm)'] },
      copilotMode: 'interactive',
      copilotAllowUrls: ['github.com'],
      copilotDenyUrls: ['example.com'],
      copilotAvailableTools: ['bash', 'view'],
      copilotAdditionalMcpConfig: { mcpServers: {} },
      isolation: 'strict',
    });
    expect(result).toMatchObject({ status: 'success', text: 'ok' });
    expect(toolNames(fake.requests[0])).toEqual(['bash', 'view']);
    expect(body(fake.requests[0]).reasoning_effort).toBe('low');

    // Excluded tools are not offered (when no available-tools list is given: that list wins).
    const excluded = await run(copilotAdapter, 'Hello', { ...opts, copilotExcludedTools: ['view', 'grep'] });
    expect(excluded.status).toBe('success');
    const offered = toolNames(fake.requests[1]);
    expect(offered).toContain('bash');
    expect(offered).not.toContain('view');
    expect(offered).not.toContain('grep');
    expect(cwd).toBeTruthy();
  });

  it("isolation 'strict' keeps the coder's sessions in its own COPILOT_HOME, which resume finds", async () => {
    const { fake, opts } = await setup([{ text: 'First.' }, { text: 'Second.' }], { env: { isolation: 'strict' } });
    expect(opts.extraEnv?.COPILOT_HOME).toBeUndefined();
    const coder = createCoder(copilotAdapter, opts);
    cleanupAfterTest(() => coder.close());
    const first = await coder.start().run('One');
    expect(first.status).toBe('success');
    const { existsSync } = await import('node:fs');
    expect(existsSync(join(await coder.stateDir(), 'session-state', first.sessionId!))).toBe(true);
    const second = await coder.resume(first.sessionId!).run('Two');
    expect(second).toMatchObject({ status: 'success', sessionId: first.sessionId });
    expect(conversation(fake.requests[1])).toContain('First.');
  });

  it('plan and autopilot modes run; an unknown agent fails with a clear error', async () => {
    const { fake, opts } = await setup([{ text: 'Here is a plan.' }]);
    const plan = await run(copilotAdapter, 'Plan it', { ...opts, permissionPolicy: { mode: 'plan' } });
    expect(plan).toMatchObject({ status: 'success', text: 'Here is a plan.' });
    expect(fake.requests).toHaveLength(1);

    // Autopilot keeps prompting itself to continue (up to its own limit of continuations).
    const autopilot = await run(copilotAdapter, 'Do it', { ...opts, copilotMode: 'autopilot' });
    expect(autopilot).toMatchObject({ status: 'success', text: 'Here is a plan.' });
    expect(fake.requests.length).toBeGreaterThan(2);

    const agent = await run(copilotAdapter, 'Hello', { ...opts, copilotAgent: 'no-such-agent' });
    expect(agent.status).toBe('error');
    expect(agent.error?.code).toBe('invalid_options');
    expect(agent.error?.message).toMatch(/no-such-agent/);
  });
});

describe("copilot with inheritEnv: 'minimal' (real binary)", () => {
  it('hides a host variable from a bash tool call, and still authenticates with what extraEnv passes', async () => {
    const probe = hostSecretProbe();
    const { fake, opts } = await setup([{ toolCalls: [bash(probe.command)] }, { text: 'Printed.' }]);
    const result = await run(copilotAdapter, 'Print two variables', { ...opts, inheritEnv: 'minimal', permissionPolicy: { mode: 'bypass' }, collectEvents: true });
    const [toolResult] = ofType(result.events, 'tool_result');
    expectSecretHidden(probe, { status: result.status, toolOutput: toolResult?.output, fedBack: conversation(fake.requests[1]) });
  });
});
