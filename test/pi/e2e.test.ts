// The real `pi` (1.6.0, on the Node 22 of test/runtime/node22) through the public run() /
// createCoder(), offline against the fake chat-completions server.
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { piAdapter } from '../../src/adapters/pi/index.js';
import { createCoder, run, type SharedStartOpts } from '../../src/index.js';
import { startFakeModel, type FakeEnvOptions, type FakeModel, type RecordedRequest, type Script } from '../../src/testing/index.js';
import { ofType } from '../support/events.js';
import { withPinnedRuntime } from '../support/pinned-clis.js';
import { isGroupAlive, killMarked, markedProcessStarts, pidsWithMarker, uniqueMarker } from '../support/processes.js';
import { abortOnceMarkedCommandRuns } from '../support/abort.js';
import { expectSecretHidden, hostSecretProbe } from '../support/host-env.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { waitFor } from '../support/wait.js';

interface Setup {
  fake: FakeModel;
  opts: SharedStartOpts;
  cwd: string;
}


/** A fake model with `script`, and options that point the pinned pi (on Node 22) at it from a fresh working directory. */
async function setup(script: Script, env: FakeEnvOptions = {}): Promise<Setup> {
  const fake = await startFakeModel({ api: 'openai-chat', script });
  const cwd = await mkdtemp(join(tmpdir(), 'coderline-pi-e2e-'));
  cleanupAfterTest(() => fake.close(), () => rm(cwd, { recursive: true, force: true }));
  return { fake, opts: withPinnedRuntime('pi', { ...(await fake.env('pi', env)), workingDirectory: cwd }), cwd };
}

interface ChatBody {
  messages: Array<{ role: string; content: unknown }>;
  tools?: Array<{ function: { name: string } }>;
  reasoning_effort?: string;
}

const body = (request: RecordedRequest | undefined) => request?.body as ChatBody;
const toolNames = (request: RecordedRequest | undefined) => (body(request).tools ?? []).map((tool) => tool.function.name).sort();
const contentText = (content: unknown) => (typeof content === 'string' ? content : JSON.stringify(content));
const conversation = (request: RecordedRequest | undefined) => body(request).messages.map((message) => `${message.role}: ${contentText(message.content)}`).join('\n');

describe('pi end to end (real binary, fake model)', () => {
  it('streams text deltas, returns the answer, usage and session id; onRawLine sees every line', async () => {
    const { fake, opts } = await setup([{ text: 'Hello from the fake model.', usage: { inputTokens: 21, outputTokens: 7 } }]);
    const lines: string[] = [];
    const result = await run(piAdapter, 'Say hello.', {
      ...opts,
      streamPartialMessages: true,
      collectEvents: true,
      onRawLine: (line) => lines.push(line),
    });
    expect(result).toMatchObject({ status: 'success', text: 'Hello from the fake model.', exitCode: 0, cliVersion: '1.6.0' });
    expect(result.usage).toMatchObject({ inputTokens: 21, outputTokens: 7 });
    const events = result.events ?? [];
    const deltas = events.filter((event) => event.type === 'message' && event.delta);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((event) => (event.type === 'message' ? event.text : '')).join('')).toBe('Hello from the fake model.');

    // The prompt travelled on stdin, whole.
    expect(conversation(fake.requests[0])).toContain('user: [{"type":"text","text":"Say hello."}]');

    // onRawLine: every stdout line, in order, from the session header to the last record.
    const records = lines.filter((line) => line.trim()).map((line) => JSON.parse(line) as { type: string; id?: string });
    expect(records[0]).toMatchObject({ type: 'session', id: result.sessionId });
    expect(records.at(-1)?.type).toBe('agent_settled');
    const rawOfEvents = events.filter((event) => event.type !== 'stderr' && event.raw !== null).map((event) => JSON.stringify(event.raw));
    const lineSet = new Set(records.map((record) => JSON.stringify(record)));
    for (const raw of rawOfEvents) expect(lineSet.has(raw)).toBe(true);
  });

  it('an answer whose usage passes the compaction threshold: pi compacts after it, and the run still succeeds with that answer (and the summary call in the usage)', async () => {
    // contextWindow 20 000: pi compacts above 18 000 (reserveTokens 2000); its summary call takes the second step.
    const { fake, opts } = await setup([{ text: 'A long answer.', usage: { inputTokens: 19_000, outputTokens: 10 } }, { text: 'Summary: one long answer.', usage: { inputTokens: 50, outputTokens: 5 } }], { contextWindow: 20_000 });
    const result = await run(piAdapter, 'Answer near the limit.', { ...opts, collectEvents: true });
    expect(result).toMatchObject({ status: 'success', text: 'A long answer.' });
    expect(ofType(result.events, 'compaction').map((event) => [event.phase, event.trigger, event.tokensBefore])).toEqual([['started', 'auto', undefined], ['completed', 'auto', expect.any(Number)]]);
    expect(result.usage).toMatchObject({ inputTokens: 19_050, outputTokens: 15 });
    expect(fake.requests).toHaveLength(2);
  });

  it('runs a bash tool call for real and reports its result', async () => {
    const { opts, cwd } = await setup([
      { toolCalls: [{ name: 'bash', input: { command: 'echo made-by-pi > proof.txt && cat proof.txt' } }] },
      { text: 'I wrote proof.txt.' },
    ]);
    const result = await run(piAdapter, 'Write a file.', { ...opts, collectEvents: true });
    expect(result).toMatchObject({ status: 'success', text: 'I wrote proof.txt.' });
    expect(readFileSync(join(cwd, 'proof.txt'), 'utf8')).toBe('made-by-pi\n');
    const use = result.events?.find((event) => event.type === 'tool_use');
    const toolResult = result.events?.find((event) => event.type === 'tool_result');
    expect(use).toMatchObject({ name: 'bash', input: { command: 'echo made-by-pi > proof.txt && cat proof.txt' } });
    expect(toolResult).toMatchObject({ id: use?.type === 'tool_use' ? use.id : '', name: 'bash', isError: false, output: 'made-by-pi\n' });
  });

  it('a failing command is an isError tool result, and the run goes on', async () => {
    const { fake, opts } = await setup([
      { toolCalls: [{ name: 'bash', input: { command: 'echo oops; exit 3' } }] },
      { text: 'It failed.' },
    ]);
    const result = await run(piAdapter, 'Fail.', { ...opts, collectEvents: true });
    expect(result.status).toBe('success');
    const toolResult = result.events?.find((event) => event.type === 'tool_result');
    expect(toolResult).toMatchObject({ isError: true });
    expect(toolResult?.type === 'tool_result' ? String(toolResult.output) : '').toContain('Command exited with code 3');
    expect(conversation(fake.requests[1])).toContain('Command exited with code 3');
  });

  it('thinking: reasoningEffort reaches the request, reasoning comes back apart from the answer', async () => {
    const { fake, opts } = await setup([{ thinking: 'Pondering quietly.', text: 'Forty-two.' }]);
    const result = await run(piAdapter, 'Think.', { ...opts, reasoningEffort: 'high', collectEvents: true });
    expect(result).toMatchObject({ status: 'success', text: 'Forty-two.' });
    expect(body(fake.requests[0]).reasoning_effort).toBe('high');
    expect(result.events?.filter((event) => event.type === 'reasoning' && !event.delta)).toEqual([
      expect.objectContaining({ text: 'Pondering quietly.' }),
    ]);

    const off = await run(piAdapter, 'Do not think.', { ...opts, reasoningEffort: 'none' });
    expect(off.status).toBe('success');
    expect(body(fake.requests[1]).reasoning_effort).toBeUndefined();
  });

  it('tool allowlist, exclude list, plan mode and system prompts change what the server receives', async () => {
    const { fake, opts } = await setup([{ text: 'ok' }]);
    await run(piAdapter, 'a', opts);
    expect(toolNames(fake.requests[0])).toEqual(['bash', 'edit', 'read', 'write']);
    await run(piAdapter, 'b', { ...opts, allowedTools: ['read', 'bash'] });
    expect(toolNames(fake.requests[1])).toEqual(['bash', 'read']);
    await run(piAdapter, 'c', { ...opts, permissionPolicy: { deny: ['bash', 'write'] } });
    expect(toolNames(fake.requests[2])).toEqual(['edit', 'read']);
    await run(piAdapter, 'd', { ...opts, permissionPolicy: { mode: 'plan' } });
    expect(toolNames(fake.requests[3])).toEqual(['find', 'grep', 'ls', 'read']);
    const prompted = await run(piAdapter, 'e', { ...opts, systemPrompt: 'You are a terse test robot.', appendSystemPrompt: 'Always say ok.' });
    expect(prompted.status).toBe('success');
    const system = body(fake.requests[4]).messages.find((message) => message.role === 'system');
    expect(contentText(system?.content)).toContain('You are a terse test robot.');
    expect(contentText(system?.content)).toContain('Always say ok.');
  });

  it('401: a typed auth error although pi exits 0', async () => {
    const { fake, opts } = await setup([{ kind: 'error', status: 401, message: 'Invalid API key' }]);
    const result = await run(piAdapter, 'Hi.', opts);
    expect(result).toMatchObject({ status: 'error', exitCode: 0 });
    expect(result.error?.code).toBe('auth');
    expect(result.error?.message).toContain('Invalid API key');
    expect(fake.requests).toHaveLength(1);
  });

  it('persistent 500: a typed server error after pi\'s bounded retries, although pi exits 0', async () => {
    const { fake, opts } = await setup([{ kind: 'error', status: 500, message: 'upstream exploded' }], { retries: 2 });
    const started = Date.now();
    const result = await run(piAdapter, 'Hi.', { ...opts, collectEvents: true });
    expect(result).toMatchObject({ status: 'error', exitCode: 0 });
    expect(result.error?.code).toBe('server');
    expect(fake.requests).toHaveLength(3);
    expect(result.events?.filter((event) => event.type === 'progress' && event.subtype === 'auto_retry_start')).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(60_000);
  });

  it('a hung server: stalled, and no process is left', async () => {
    const { fake, opts } = await setup([{ kind: 'hang', after: 'headers' }]);
    // pi on Node 22 can be silent for seconds while it starts on a loaded machine: the stall timeout
    // leaves room for that, so the stall is the hung request's.
    const result = await run(piAdapter, 'Hi.', { ...opts, stallTimeoutMs: 8_000 });
    expect(result.status).toBe('stalled');
    expect(result.error?.code).toBe('stalled');
    expect(fake.requests).toHaveLength(1);
    expect(result.pid).toBeTypeOf('number');
    expect(isGroupAlive(result.pid!)).toBe(false);
  });

  it('abort: cancelled, and no process is left', async () => {
    const { fake, opts } = await setup([{ kind: 'hang' }]);
    const controller = new AbortController();
    const pending = run(piAdapter, 'Hi.', { ...opts, signal: controller.signal });
    await waitFor(() => fake.requests.length === 1);
    controller.abort();
    const result = await pending;
    expect(result.status).toBe('cancelled');
    expect(result.error?.code).toBe('aborted');
    expect(isGroupAlive(result.pid!)).toBe(false);
  });

  // pi runs bash in a session of its own, out of reach of a group signal, and cleans it up only on
  // SIGTERM/SIGHUP; the abort's SIGINT kills pi first. The core finds the leader's descendants
  // before signalling, so the command is stopped too.
  it('abort during a running bash command: the command is stopped too', async () => {
    const marker = uniqueMarker('pi-sleep');
    cleanupAfterTest(() => killMarked(marker));
    const { opts } = await setup([{ toolCalls: [{ name: 'bash', input: { command: `exec -a ${marker} sleep 30` } }] }, { text: 'never' }]);
    const { result, commandRan } = await abortOnceMarkedCommandRuns(marker, (hooks) => run(piAdapter, 'Sleep.', { ...opts, ...hooks }));
    expect(result.status).toBe('cancelled');
    expect(commandRan).toBe(true);
    expect(isGroupAlive(result.pid!)).toBe(false);
    await waitFor(() => pidsWithMarker(marker).length === 0);
  });

  it('stall during a running bash command: pi gets SIGTERM and stops the command itself', async () => {
    const marker = uniqueMarker('pi-stall');
    cleanupAfterTest(() => killMarked(marker));
    const { opts } = await setup([{ toolCalls: [{ name: 'bash', input: { command: `exec -a ${marker} sleep 30` } }] }, { text: 'never' }]);
    let commandRan: Promise<boolean> | undefined;
    const result = await run(piAdapter, 'Sleep.', {
      ...opts,
      stallTimeoutMs: 8_000,
      onEvent: (event) => {
        if (event.type === 'tool_use') commandRan ??= markedProcessStarts(marker);
      },
    });
    expect(result.status).toBe('stalled');
    expect(await commandRan).toBe(true);
    expect(isGroupAlive(result.pid!)).toBe(false);
    await waitFor(() => pidsWithMarker(marker).length === 0);
  });

  it('sessions: a second turn resumes, resumeLatest continues, fork copies the history into a new id', async () => {
    const { fake, opts } = await setup((_request, index) => ({ text: `Answer number ${index + 1}.` }));
    const coder = createCoder(piAdapter, opts);
    cleanupAfterTest(() => coder.close());
    const session = coder.start();
    const first = await session.run('Remember the word PINEAPPLE.');
    expect(first).toMatchObject({ status: 'success', text: 'Answer number 1.' });
    expect(session.id).toBe(first.sessionId);

    const second = await session.run('What was the word?');
    expect(second).toMatchObject({ status: 'success', sessionId: first.sessionId, text: 'Answer number 2.' });
    expect(conversation(fake.requests[1])).toContain('PINEAPPLE');

    const forked = await session.fork();
    const third = await forked.run('Forked question.');
    expect(third.status).toBe('success');
    expect(third.sessionId).toBeDefined();
    expect(third.sessionId).not.toBe(first.sessionId);
    expect(conversation(fake.requests[2])).toContain('PINEAPPLE');
    expect(conversation(fake.requests[2])).toContain('What was the word?');

    // The original session did not get the fork's turn.
    const resumed = await coder.resume(first.sessionId!).run('Back on the original.');
    expect(resumed.sessionId).toBe(first.sessionId);
    expect(conversation(fake.requests[3])).not.toContain('Forked question.');

    // The latest session in this directory is the one just used.
    const latest = await coder.resumeLatest().run('And the latest?');
    expect(latest.status).toBe('success');
    expect(conversation(fake.requests[4])).toContain('Back on the original.');
  });

  it('structured output: the schema goes in the prompt and the answer is validated', async () => {
    const { fake, opts } = await setup([{ text: '{"answer": 42, "unit": "none"}' }, { text: '{"answer": "many"}' }]);
    const schema = z.object({ answer: z.number(), unit: z.string() });
    const good = await run(piAdapter, 'How many?', { ...opts, outputSchema: schema });
    expect(good).toMatchObject({ status: 'success', output: { answer: 42, unit: 'none' } });
    expect(conversation(fake.requests[0])).toContain('JSON Schema');

    const bad = await run(piAdapter, 'How many?', { ...opts, outputSchema: schema });
    expect(bad.status).toBe('error');
    expect(bad.error?.code).toBe('invalid_output');

    await expect(run(piAdapter, 'x', { ...opts, outputSchema: schema, strictSchema: true })).rejects.toMatchObject({
      code: 'feature_not_supported',
    });
  });

  it('no session: nothing is written to the agent dir', async () => {
    const { opts } = await setup([{ text: 'ephemeral' }]);
    const result = await run(piAdapter, 'Hi.', { ...opts, piNoSession: true });
    expect(result.status).toBe('success');
    expect(existsSync(join(opts.extraEnv!.PI_CODING_AGENT_DIR!, 'sessions'))).toBe(false);
  });
});

describe("pi with inheritEnv: 'minimal' (real binary)", () => {
  it('hides a host variable from a bash tool call, and still authenticates with what extraEnv passes', async () => {
    const probe = hostSecretProbe();
    const { fake, opts } = await setup([{ toolCalls: [{ name: 'bash', input: { command: probe.command } }] }, { text: 'Printed.' }]);
    const result = await run(piAdapter, 'Print two variables.', { ...opts, inheritEnv: 'minimal', collectEvents: true });
    const toolResult = result.events?.find((event) => event.type === 'tool_result');
    expectSecretHidden(probe, { status: result.status, toolOutput: JSON.stringify(toolResult?.output), fedBack: conversation(fake.requests[1]) });
  });
});
