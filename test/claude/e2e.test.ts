// End to end: the real `claude` binary (the pinned devDependency) through the public run() /
// createCoder(), against the fake Anthropic server on 127.0.0.1. Offline: private HOME and config
// dir, telemetry off, a fake key, the CLI's retries and timeouts bounded.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { claudeAdapter } from '../../src/adapters/claude/index.js';
import { createCoder, run, type CoderStreamEvent, type SharedStartOpts } from '../../src/index.js';
import { startFakeModel, type FakeEnvOptions, type FakeModel, type Script } from '../../src/testing/index.js';
import { isGroupAlive, killMarked, pidsWithMarker, uniqueMarker } from '../support/processes.js';
import { abortOnceMarkedCommandRuns } from '../support/abort.js';
import { ofType } from '../support/events.js';
import { expectSecretHidden, hostSecretProbe } from '../support/host-env.js';
import { cleanupAfterTest } from '../support/cleanup.js';


/** A fake model with `script`, and options that point claude at it from a fresh working directory. */
async function fake(script: Script, env: FakeEnvOptions = {}): Promise<{ model: FakeModel; opts: SharedStartOpts; workDir: string }> {
  const model = await startFakeModel({ api: 'anthropic', script });
  const workDir = await mkdtemp(join(tmpdir(), 'coderline-claude-e2e-'));
  cleanupAfterTest(() => model.close(), () => rm(workDir, { recursive: true, force: true }));
  return { model, opts: { ...(await model.env('claude', env)), workingDirectory: workDir }, workDir };
}

/** A variable the fake's options set for claude (HOME, CLAUDE_CONFIG_DIR). */
function envOf(opts: SharedStartOpts, name: string): string {
  const value = opts.extraEnv?.[name];
  if (!value) throw new Error(`the options set no ${name}`);
  return value;
}

const bash = (command: string) => ({ name: 'Bash', input: { command, description: 'run a command' } });

/** The text of the last user turn the CLI sent (its content blocks joined). */
function lastUserText(body: unknown): string {
  const messages = (body as { messages: Array<{ role: string; content: unknown }> }).messages;
  const last = messages.filter((m) => m.role === 'user').at(-1);
  if (typeof last?.content === 'string') return last.content;
  return (last?.content as Array<{ text?: string }>).map((block) => block.text ?? '').join('\n');
}

const messagesOf = (body: unknown) => (body as { messages: unknown[] }).messages;

describe('claude end to end (real binary, fake Anthropic server)', () => {
  it('answers with text; every stdout line reaches onRawLine; usage is this run\'s', async () => {
    const { model, opts } = await fake([{ text: 'Hello from the fake model.' }]);
    const lines: string[] = [];
    const result = await run(claudeAdapter, 'Say hello', { ...opts, onRawLine: (line) => lines.push(line), collectEvents: true });

    expect(result.error).toBeUndefined();
    expect(result).toMatchObject({ status: 'success', text: 'Hello from the fake model.', exitCode: 0 });
    expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.usage).toMatchObject({ inputTokens: 10, outputTokens: 5 });
    expect(result.usage.costUsd).toBeGreaterThan(0);
    expect(result.cliVersion).toBe('2.1.332');

    expect(model.requests).toHaveLength(1);
    expect(lastUserText(model.requests[0]?.body)).toContain('Say hello');
    expect(model.requests[0]?.headers['x-api-key']).toBe('sk-ant-fake-test-key');

    // onRawLine saw every stdout line: each is JSON, and every event's raw record is one of them.
    const parsed = lines.map((line) => JSON.parse(line) as { type: string });
    expect(parsed[0]?.type).toBe('system');
    expect(parsed.at(-1)?.type).toBe('result');
    const raws = new Set(result.events?.map((event) => JSON.stringify(event.raw)));
    expect(raws).toEqual(new Set(lines.map((line) => JSON.stringify(JSON.parse(line)))));
  });

  it('answers a prompt that begins with "--" as text (the prompt goes on stdin)', async () => {
    const { model, opts } = await fake([{ text: 'That looked like a flag.' }]);
    const result = await run(claudeAdapter, '--version please, and --help', opts);
    expect(result).toMatchObject({ status: 'success', text: 'That looked like a flag.' });
    expect(lastUserText(model.requests[0]?.body)).toContain('--version please, and --help');
  });

  it('runs an allowed Bash tool for real and reports tool_use / tool_result', async () => {
    const { model, opts, workDir } = await fake([
      { text: 'Creating the file.', toolCalls: [bash('echo made-by-claude > proof.txt && cat proof.txt')] },
      { text: 'The file is there.' },
    ]);
    const events: CoderStreamEvent[] = [];
    const result = await run(claudeAdapter, 'Create proof.txt', {
      ...opts,
      permissionPolicy: { allow: ['Bash'] },
      onEvent: (event) => events.push(event),
    });
    expect(result).toMatchObject({ status: 'success', text: 'The file is there.' });
    expect(existsSync(join(workDir, 'proof.txt'))).toBe(true);
    const use = events.find((e) => e.type === 'tool_use');
    expect(use).toMatchObject({ provider: 'claude', name: 'Bash' });
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ name: 'Bash', output: 'made-by-claude', isError: false });
    // The second model call carries the tool's result back.
    expect(JSON.stringify(messagesOf(model.requests[1]?.body))).toContain('made-by-claude');
  });

  it('a denied tool is refused and not run', async () => {
    const { opts, workDir } = await fake([{ toolCalls: [bash('touch denied.txt')] }, { text: 'Bash was refused.' }]);
    const events: CoderStreamEvent[] = [];
    const result = await run(claudeAdapter, 'Touch a file', { ...opts, permissionPolicy: { deny: ['Bash'] }, onEvent: (e) => events.push(e) });
    expect(result).toMatchObject({ status: 'success', text: 'Bash was refused.' });
    expect(existsSync(join(workDir, 'denied.txt'))).toBe(false);
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ isError: true });
  });

  it('plan mode does not change files', async () => {
    const { opts, workDir } = await fake([{ toolCalls: [bash('touch planned.txt')] }, { text: 'My plan: touch planned.txt.' }]);
    const events: CoderStreamEvent[] = [];
    const result = await run(claudeAdapter, 'Plan it', { ...opts, permissionPolicy: { mode: 'plan' }, onEvent: (e) => events.push(e) });
    expect(result).toMatchObject({ status: 'success', text: 'My plan: touch planned.txt.' });
    expect(existsSync(join(workDir, 'planned.txt'))).toBe(false);
    expect(events.find((e) => e.type === 'init')?.extra?.permissionMode).toBe('plan');
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ isError: true });
  });

  it('thinking arrives as reasoning; partial messages stream deltas before the full text', async () => {
    const { opts } = await fake([{ thinking: 'Let me think about it.', text: 'One two three four.' }]);
    const events: CoderStreamEvent[] = [];
    const result = await run(claudeAdapter, 'Count', { ...opts, streamPartialMessages: true, onEvent: (e) => events.push(e) });
    expect(result.text).toBe('One two three four.');
    const reasoning = events.filter((e) => e.type === 'reasoning');
    expect(reasoning.filter((e) => !e.delta).map((e) => e.text)).toEqual(['Let me think about it.']);
    const deltas = events.filter((e) => e.type === 'message' && e.delta);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((e) => (e.type === 'message' ? e.text : '')).join('')).toBe('One two three four.');
    const firstDelta = events.findIndex((e) => e.type === 'message' && e.delta);
    const full = events.findIndex((e) => e.type === 'message' && !e.delta);
    expect(firstDelta).toBeLessThan(full);
  });

  it('the Claude options reach the model request (system prompt, append, add-dir, agents, session id, no persistence)', async () => {
    const { model, opts } = await fake([{ text: 'Configured.' }]);
    const sessionId = '7e3f2a10-5b4c-4d8e-9f01-23456789abcd';
    const result = await run(claudeAdapter, 'Hi', {
      ...opts,
      systemPrompt: '--CUSTOM-SYSTEM-PROMPT',
      appendSystemPrompt: 'APPENDED-TEXT',
      addDirs: [envOf(opts, 'HOME')],
      agents: { reviewer: { description: 'Reviews code', prompt: 'You review code' } },
      settingSources: ['user'],
      reasoningEffort: 'low',
      maxBudgetUsd: 5,
      sessionId,
      claudeNoSessionPersistence: true,
    });
    expect(result).toMatchObject({ status: 'success', text: 'Configured.', sessionId });
    const body = JSON.stringify(model.requests[0]?.body);
    expect(body).toContain('--CUSTOM-SYSTEM-PROMPT');
    expect(body).toContain('APPENDED-TEXT');
    expect(body).toContain(envOf(opts, 'HOME'));
    expect(body).toContain('reviewer');
    expect(model.requests[0]?.headers['x-claude-code-session-id']).toBe(sessionId);
    // --no-session-persistence: no transcript to resume from.
    expect(existsSync(join(envOf(opts, 'CLAUDE_CONFIG_DIR'), 'projects'))).toBe(false);
  });

  describe('structured output', () => {
    const Answer = z.object({ answer: z.string(), confidence: z.number() });

    it('a StructuredOutput call gives a typed, validated output', async () => {
      const { model, opts } = await fake([{ toolCalls: [{ name: 'StructuredOutput', input: { answer: 'forty-two', confidence: 0.9 } }] }]);
      const result = await run(claudeAdapter, 'What is the answer?', { ...opts, outputSchema: Answer });
      expect(result.status).toBe('success');
      const output: { answer: string; confidence: number } | undefined = result.output;
      expect(output).toEqual({ answer: 'forty-two', confidence: 0.9 });
      const tools = (model.requests[0]?.body as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
      expect(tools).toContain('StructuredOutput');
    });

    it('prose instead of the tool is invalid_output', async () => {
      const { opts } = await fake([{ text: 'It is forty-two.' }]);
      const result = await run(claudeAdapter, 'What is the answer?', { ...opts, outputSchema: Answer });
      expect(result.status).toBe('error');
      expect(result.error?.code).toBe('invalid_output');
      expect(result.output).toBeUndefined();
    });
  });

  describe('sessions', () => {
    it('resume keeps the id and sends the earlier turns; fork gets a new id with the history; usage per run', async () => {
      // isolation strict: the coder's private config dir must be found again on resume.
      const { model, opts } = await fake([{ text: 'Noted: apricot.' }, { text: 'The word was apricot.' }, { text: 'Forked: apricot.' }, { text: 'Latest again.' }], { isolation: 'strict' });
      expect(opts.extraEnv?.CLAUDE_CONFIG_DIR).toBeUndefined();
      const coder = createCoder(claudeAdapter, opts);
      cleanupAfterTest(() => coder.close());

      const session = coder.start();
      const first = await session.run('Remember the word apricot.');
      expect(first.status).toBe('success');
      expect(session.id).toBe(first.sessionId);

      const resumed = await coder.resume(first.sessionId!).run('What was the word?');
      expect(resumed).toMatchObject({ status: 'success', sessionId: first.sessionId, text: 'The word was apricot.' });
      expect(JSON.stringify(messagesOf(model.requests[1]?.body))).toContain('Noted: apricot.');
      // The CLI reports the session's cost after --resume; the result is this run's alone.
      expect(resumed.usage).toMatchObject({ inputTokens: 10, outputTokens: 5 });
      expect(resumed.usage.costUsd).toBeCloseTo(first.usage.costUsd ?? 0, 9);

      const forked = await (await session.fork()).run('Repeat it in the fork.');
      expect(forked.status).toBe('success');
      expect(forked.sessionId).not.toBe(first.sessionId);
      expect(JSON.stringify(messagesOf(model.requests[2]?.body))).toContain('Noted: apricot.');
      // resumeLatest → --continue: the most recent session in this directory (the fork).
      const latest = await coder.resumeLatest().run('And now?');
      expect(latest).toMatchObject({ status: 'success', sessionId: forked.sessionId, text: 'Latest again.' });

      // The coder's own config dir was used, not the default one under HOME.
      expect(existsSync(join(await coder.stateDir(), 'projects'))).toBe(true);
      expect(existsSync(join(envOf(opts, 'HOME'), '.claude', 'projects'))).toBe(false);
    });

    it('parallel coders with isolation strict each keep their own config', async () => {
      const { opts } = await fake([{ text: 'Parallel hello.' }], { isolation: 'strict' });
      const coders = [0, 1, 2].map(() => createCoder(claudeAdapter, opts));
      cleanupAfterTest(async () => void (await Promise.all(coders.map((c) => c.close()))));
      const results = await Promise.all(coders.map((coder) => coder.start().run('Hi')));
      expect(results.map((r) => r.status)).toEqual(['success', 'success', 'success']);
      expect(new Set(results.map((r) => r.sessionId)).size).toBe(3);
    });
  });

  describe('failures', () => {
    it('maxTurns stops with max_turns', async () => {
      const { opts } = await fake([{ text: 'Tool first.', toolCalls: [bash('echo one')] }, { text: 'never' }]);
      const result = await run(claudeAdapter, 'Go', { ...opts, permissionPolicy: { allow: ['Bash'] }, maxTurns: 1 });
      expect(result.status).toBe('error');
      expect(result.error?.code).toBe('max_turns');
    });

    it('HTTP 500 with few retries → server', async () => {
      const { model, opts } = await fake([{ kind: 'error', status: 500, message: 'fake internal error' }], { retries: 1 });
      const result = await run(claudeAdapter, 'Hi', opts);
      expect(result.status).toBe('error');
      expect(result.error?.code).toBe('server');
      expect(model.requests).toHaveLength(2);
    });

    it('HTTP 401 → auth', async () => {
      const { opts } = await fake([{ kind: 'error', status: 401, message: 'invalid x-api-key' }], { retries: 0 });
      const result = await run(claudeAdapter, 'Hi', opts);
      expect(result.status).toBe('error');
      expect(result.error?.code).toBe('auth');
    });

    it('a hung model server → stalled after stallTimeoutMs, no process left', async () => {
      const { opts } = await fake([{ kind: 'hang', after: 'first-event' }]);
      const started = Date.now();
      const result = await run(claudeAdapter, 'Hi', { ...opts, stallTimeoutMs: 2500 });
      expect(result.status).toBe('stalled');
      expect(result.error?.code).toBe('stalled');
      expect(Date.now() - started).toBeLessThan(60_000);
      expect(result.pid).toBeGreaterThan(0);
      expect(isGroupAlive(result.pid!)).toBe(false);
    });

    it('abort during a running tool → cancelled, the tool\'s process is gone too', async () => {
      // The Bash tool refuses a plain long `sleep`, and -p mode rejects interpreters it would ask about.
      // The tool's process is named by a marker of this test's own, so no other test's process is seen.
      const marker = uniqueMarker('claude-abort');
      cleanupAfterTest(() => killMarked(marker));
      const { opts } = await fake([{ toolCalls: [bash(`exec -a ${marker} tail -f /dev/null`)] }, { text: 'never' }]);
      const { result, commandRan } = await abortOnceMarkedCommandRuns(marker, (hooks) => run(claudeAdapter, 'Sleep', { ...opts, permissionPolicy: { allow: ['Bash'] }, ...hooks }));
      expect(result.status).toBe('cancelled');
      expect(result.error?.code).toBe('aborted');
      expect(commandRan).toBe(true);
      expect(isGroupAlive(result.pid!)).toBe(false);
      expect(pidsWithMarker(marker)).toEqual([]);
    });
  });

  it('bypass mode: as root it needs IS_SANDBOX=1 and says so before spawning; otherwise it runs as is', async () => {
    const { model, opts, workDir } = await fake([{ toolCalls: [bash('touch bypassed.txt')] }, { text: 'Done.' }]);
    const bypass = { permissionPolicy: { mode: 'bypass' as const } };
    const saved = process.env.IS_SANDBOX;
    delete process.env.IS_SANDBOX;
    try {
      let extraEnv = opts.extraEnv;
      if (process.getuid?.() === 0) {
        await expect(run(claudeAdapter, 'Touch', { ...opts, ...bypass })).rejects.toThrow(/IS_SANDBOX/);
        expect(model.requests).toHaveLength(0);
        extraEnv = { ...extraEnv, IS_SANDBOX: '1' };
      }
      const result = await run(claudeAdapter, 'Touch', { ...opts, ...bypass, extraEnv });
      expect(result).toMatchObject({ status: 'success', text: 'Done.' });
      expect(existsSync(join(workDir, 'bypassed.txt'))).toBe(true);
    } finally {
      if (saved !== undefined) process.env.IS_SANDBOX = saved;
    }
  });
});

describe("claude with inheritEnv: 'minimal' (real binary)", () => {
  it('hides a host variable from the Bash tool, and still authenticates with what extraEnv passes', async () => {
    const probe = hostSecretProbe();
    const { model, opts } = await fake([{ toolCalls: [bash(probe.command)] }, { text: 'Printed.' }]);
    const result = await run(claudeAdapter, 'Print two variables', { ...opts, inheritEnv: 'minimal', permissionPolicy: { allow: ['Bash'] }, collectEvents: true });
    expect(model.requests[0]?.headers['x-api-key']).toBe('sk-ant-fake-test-key');
    const toolResult = ofType(result.events, 'tool_result')[0];
    expectSecretHidden(probe, { status: result.status, toolOutput: toolResult?.output, fedBack: JSON.stringify(messagesOf(model.requests[1]?.body)) });
  });
});
