// End to end: the real `claude` binary (the pinned devDependency) through the public run() /
// createCoder(), against the fake Anthropic server on 127.0.0.1. Offline: private HOME and config
// dir, telemetry off, a fake key, the CLI's retries and timeouts bounded.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { claudeAdapter } from '../../src/adapters/claude/index.js';
import { createCoder, run, type CoderStreamEvent } from '../../src/index.js';
import { createFakeClaudeSandbox, startFakeAnthropic, type FakeClaudeSandbox } from '../../src/testing/anthropic.js';
import type { Script } from '../../src/testing/script.js';
import type { FakeServer } from '../../src/testing/server.js';
import { isGroupAlive, pidsMatching } from '../support/processes.js';

let cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  cleanups = [];
});

async function fake(script: Script, options: Parameters<typeof createFakeClaudeSandbox>[1] = {}): Promise<{ server: FakeServer; sandbox: FakeClaudeSandbox }> {
  const server = await startFakeAnthropic(script);
  const sandbox = await createFakeClaudeSandbox(server, options);
  cleanups.push(() => server.close(), () => sandbox.cleanup());
  return { server, sandbox };
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
    const { server, sandbox } = await fake([{ text: 'Hello from the fake model.' }]);
    const lines: string[] = [];
    const result = await run(claudeAdapter, 'Say hello', { ...sandbox.opts, onRawLine: (line) => lines.push(line), collectEvents: true });

    expect(result.error).toBeUndefined();
    expect(result).toMatchObject({ status: 'success', text: 'Hello from the fake model.', exitCode: 0 });
    expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.usage).toMatchObject({ inputTokens: 10, outputTokens: 5 });
    expect(result.usage.costUsd).toBeGreaterThan(0);
    expect(result.cliVersion).toBe('2.1.332');

    expect(server.modelRequests).toHaveLength(1);
    expect(lastUserText(server.modelRequests[0]?.body)).toContain('Say hello');
    expect(server.modelRequests[0]?.headers['x-api-key']).toBe('sk-ant-fake-test-key');

    // onRawLine saw every stdout line: each is JSON, and every event's raw record is one of them.
    const parsed = lines.map((line) => JSON.parse(line) as { type: string });
    expect(parsed[0]?.type).toBe('system');
    expect(parsed.at(-1)?.type).toBe('result');
    const raws = new Set(result.events?.map((event) => JSON.stringify(event.raw)));
    expect(raws).toEqual(new Set(lines.map((line) => JSON.stringify(JSON.parse(line)))));
  });

  it('answers a prompt that begins with "--" as text (the prompt goes on stdin)', async () => {
    const { server, sandbox } = await fake([{ text: 'That looked like a flag.' }]);
    const result = await run(claudeAdapter, '--version please, and --help', sandbox.opts);
    expect(result).toMatchObject({ status: 'success', text: 'That looked like a flag.' });
    expect(lastUserText(server.modelRequests[0]?.body)).toContain('--version please, and --help');
  });

  it('runs an allowed Bash tool for real and reports tool_use / tool_result', async () => {
    const { server, sandbox } = await fake([
      { text: 'Creating the file.', toolCalls: [bash('echo made-by-claude > proof.txt && cat proof.txt')] },
      { text: 'The file is there.' },
    ]);
    const events: CoderStreamEvent[] = [];
    const result = await run(claudeAdapter, 'Create proof.txt', {
      ...sandbox.opts,
      permissionPolicy: { allow: ['Bash'] },
      onEvent: (event) => events.push(event),
    });
    expect(result).toMatchObject({ status: 'success', text: 'The file is there.' });
    expect(existsSync(join(sandbox.workDir, 'proof.txt'))).toBe(true);
    const use = events.find((e) => e.type === 'tool_use');
    expect(use).toMatchObject({ provider: 'claude', name: 'Bash' });
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ name: 'Bash', output: 'made-by-claude', isError: false });
    // The second model call carries the tool's result back.
    expect(JSON.stringify(messagesOf(server.modelRequests[1]?.body))).toContain('made-by-claude');
  });

  it('a denied tool is refused and not run', async () => {
    const { sandbox } = await fake([{ toolCalls: [bash('touch denied.txt')] }, { text: 'Bash was refused.' }]);
    const events: CoderStreamEvent[] = [];
    const result = await run(claudeAdapter, 'Touch a file', { ...sandbox.opts, permissionPolicy: { deny: ['Bash'] }, onEvent: (e) => events.push(e) });
    expect(result).toMatchObject({ status: 'success', text: 'Bash was refused.' });
    expect(existsSync(join(sandbox.workDir, 'denied.txt'))).toBe(false);
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ isError: true });
  });

  it('plan mode does not change files', async () => {
    const { sandbox } = await fake([{ toolCalls: [bash('touch planned.txt')] }, { text: 'My plan: touch planned.txt.' }]);
    const events: CoderStreamEvent[] = [];
    const result = await run(claudeAdapter, 'Plan it', { ...sandbox.opts, permissionPolicy: { mode: 'plan' }, onEvent: (e) => events.push(e) });
    expect(result).toMatchObject({ status: 'success', text: 'My plan: touch planned.txt.' });
    expect(existsSync(join(sandbox.workDir, 'planned.txt'))).toBe(false);
    expect(events.find((e) => e.type === 'init')?.extra?.permissionMode).toBe('plan');
    expect(events.find((e) => e.type === 'tool_result')).toMatchObject({ isError: true });
  });

  it('thinking arrives as reasoning; partial messages stream deltas before the full text', async () => {
    const { sandbox } = await fake([{ thinking: 'Let me think about it.', text: 'One two three four.' }]);
    const events: CoderStreamEvent[] = [];
    const result = await run(claudeAdapter, 'Count', { ...sandbox.opts, streamPartialMessages: true, onEvent: (e) => events.push(e) });
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
    const { server, sandbox } = await fake([{ text: 'Configured.' }]);
    const sessionId = '7e3f2a10-5b4c-4d8e-9f01-23456789abcd';
    const result = await run(claudeAdapter, 'Hi', {
      ...sandbox.opts,
      systemPrompt: '--CUSTOM-SYSTEM-PROMPT',
      appendSystemPrompt: 'APPENDED-TEXT',
      addDirs: [sandbox.home],
      agents: { reviewer: { description: 'Reviews code', prompt: 'You review code' } },
      settingSources: ['user'],
      reasoningEffort: 'low',
      maxBudgetUsd: 5,
      sessionId,
      claudeNoSessionPersistence: true,
    });
    expect(result).toMatchObject({ status: 'success', text: 'Configured.', sessionId });
    const body = JSON.stringify(server.modelRequests[0]?.body);
    expect(body).toContain('--CUSTOM-SYSTEM-PROMPT');
    expect(body).toContain('APPENDED-TEXT');
    expect(body).toContain(sandbox.home);
    expect(body).toContain('reviewer');
    expect(server.modelRequests[0]?.headers['x-claude-code-session-id']).toBe(sessionId);
    // --no-session-persistence: no transcript to resume from.
    expect(existsSync(join(sandbox.configDir, 'projects'))).toBe(false);
  });

  describe('structured output', () => {
    const Answer = z.object({ answer: z.string(), confidence: z.number() });

    it('a StructuredOutput call gives a typed, validated output', async () => {
      const { server, sandbox } = await fake([{ toolCalls: [{ name: 'StructuredOutput', input: { answer: 'forty-two', confidence: 0.9 } }] }]);
      const result = await run(claudeAdapter, 'What is the answer?', { ...sandbox.opts, outputSchema: Answer });
      expect(result.status).toBe('success');
      const output: { answer: string; confidence: number } | undefined = result.output;
      expect(output).toEqual({ answer: 'forty-two', confidence: 0.9 });
      const tools = (server.modelRequests[0]?.body as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
      expect(tools).toContain('StructuredOutput');
    });

    it('prose instead of the tool is invalid_output', async () => {
      const { sandbox } = await fake([{ text: 'It is forty-two.' }]);
      const result = await run(claudeAdapter, 'What is the answer?', { ...sandbox.opts, outputSchema: Answer });
      expect(result.status).toBe('error');
      expect(result.error?.code).toBe('invalid_output');
      expect(result.output).toBeUndefined();
    });
  });

  describe('sessions', () => {
    it('resume keeps the id and sends the earlier turns; fork gets a new id with the history; usage per run', async () => {
      const { server, sandbox } = await fake([{ text: 'Noted: apricot.' }, { text: 'The word was apricot.' }, { text: 'Forked: apricot.' }, { text: 'Latest again.' }]);
      // isolation strict: the coder's private config dir must be found again on resume.
      const { CLAUDE_CONFIG_DIR: _shared, ...env } = sandbox.opts.extraEnv ?? {};
      const coder = createCoder(claudeAdapter, { ...sandbox.opts, extraEnv: env, isolation: 'strict' });
      cleanups.push(() => coder.close());

      const session = coder.start();
      const first = await session.run('Remember the word apricot.');
      expect(first.status).toBe('success');
      expect(session.id).toBe(first.sessionId);

      const resumed = await coder.resume(first.sessionId!).run('What was the word?');
      expect(resumed).toMatchObject({ status: 'success', sessionId: first.sessionId, text: 'The word was apricot.' });
      expect(JSON.stringify(messagesOf(server.modelRequests[1]?.body))).toContain('Noted: apricot.');
      // The CLI reports the session's cost after --resume; the result is this run's alone.
      expect(resumed.usage).toMatchObject({ inputTokens: 10, outputTokens: 5 });
      expect(resumed.usage.costUsd).toBeCloseTo(first.usage.costUsd ?? 0, 9);

      const forked = await (await session.fork()).run('Repeat it in the fork.');
      expect(forked.status).toBe('success');
      expect(forked.sessionId).not.toBe(first.sessionId);
      expect(JSON.stringify(messagesOf(server.modelRequests[2]?.body))).toContain('Noted: apricot.');
      // resumeLatest → --continue: the most recent session in this directory (the fork).
      const latest = await coder.resumeLatest().run('And now?');
      expect(latest).toMatchObject({ status: 'success', sessionId: forked.sessionId, text: 'Latest again.' });

      // Nothing went to the shared config dir: the coder's own one was used.
      expect(existsSync(join(sandbox.configDir, 'projects'))).toBe(false);
    });

    it('parallel coders with isolation strict each keep their own config', async () => {
      const { sandbox } = await fake([{ text: 'Parallel hello.' }]);
      const { CLAUDE_CONFIG_DIR: _shared, ...env } = sandbox.opts.extraEnv ?? {};
      const coders = [0, 1, 2].map(() => createCoder(claudeAdapter, { ...sandbox.opts, extraEnv: env, isolation: 'strict' }));
      cleanups.push(async () => void (await Promise.all(coders.map((c) => c.close()))));
      const results = await Promise.all(coders.map((coder) => coder.start().run('Hi')));
      expect(results.map((r) => r.status)).toEqual(['success', 'success', 'success']);
      expect(new Set(results.map((r) => r.sessionId)).size).toBe(3);
    });
  });

  describe('failures', () => {
    it('maxTurns stops with max_turns', async () => {
      const { sandbox } = await fake([{ text: 'Tool first.', toolCalls: [bash('echo one')] }, { text: 'never' }]);
      const result = await run(claudeAdapter, 'Go', { ...sandbox.opts, permissionPolicy: { allow: ['Bash'] }, maxTurns: 1 });
      expect(result.status).toBe('error');
      expect(result.error?.code).toBe('max_turns');
    });

    it('HTTP 500 with few retries → server', async () => {
      const { server, sandbox } = await fake([{ kind: 'error', status: 500, message: 'fake internal error' }], { maxRetries: 1 });
      const result = await run(claudeAdapter, 'Hi', sandbox.opts);
      expect(result.status).toBe('error');
      expect(result.error?.code).toBe('server');
      expect(server.modelRequests).toHaveLength(2);
    });

    it('HTTP 401 → auth', async () => {
      const { sandbox } = await fake([{ kind: 'error', status: 401, message: 'invalid x-api-key' }], { maxRetries: 0 });
      const result = await run(claudeAdapter, 'Hi', sandbox.opts);
      expect(result.status).toBe('error');
      expect(result.error?.code).toBe('auth');
    });

    it('a hung model server → stalled after stallTimeoutMs, no process left', async () => {
      const { sandbox } = await fake([{ kind: 'hang', after: 'first-event' }]);
      const started = Date.now();
      const result = await run(claudeAdapter, 'Hi', { ...sandbox.opts, stallTimeoutMs: 2500 });
      expect(result.status).toBe('stalled');
      expect(result.error?.code).toBe('stalled');
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(result.pid).toBeGreaterThan(0);
      expect(isGroupAlive(result.pid!)).toBe(false);
    });

    it('abort during a running tool → cancelled, the tool\'s process is gone too', async () => {
      // The Bash tool refuses a plain long `sleep`, and -p mode rejects interpreters it would ask about.
      const { sandbox } = await fake([{ toolCalls: [bash('timeout 41 tail -f /dev/null')] }, { text: 'never' }]);
      const controller = new AbortController();
      let toolWasRunning = false;
      const result = await run(claudeAdapter, 'Sleep', {
        ...sandbox.opts,
        permissionPolicy: { allow: ['Bash'] },
        signal: controller.signal,
        onEvent: (event) => {
          if (event.type !== 'tool_use') return;
          setTimeout(() => {
            toolWasRunning = pidsMatching('tail -f /dev/null').length > 0;
            controller.abort();
          }, 1000);
        },
      });
      expect(result.status).toBe('cancelled');
      expect(result.error?.code).toBe('aborted');
      expect(toolWasRunning).toBe(true);
      expect(isGroupAlive(result.pid!)).toBe(false);
      expect(pidsMatching('tail -f /dev/null')).toEqual([]);
    });
  });

  it('bypass mode: as root it needs IS_SANDBOX=1 and says so before spawning; otherwise it runs as is', async () => {
    const { server, sandbox } = await fake([{ toolCalls: [bash('touch bypassed.txt')] }, { text: 'Done.' }]);
    const bypass = { permissionPolicy: { mode: 'bypass' as const } };
    const saved = process.env.IS_SANDBOX;
    delete process.env.IS_SANDBOX;
    try {
      let extraEnv = sandbox.opts.extraEnv;
      if (process.getuid?.() === 0) {
        await expect(run(claudeAdapter, 'Touch', { ...sandbox.opts, ...bypass })).rejects.toThrow(/IS_SANDBOX/);
        expect(server.modelRequests).toHaveLength(0);
        extraEnv = { ...extraEnv, IS_SANDBOX: '1' };
      }
      const result = await run(claudeAdapter, 'Touch', { ...sandbox.opts, ...bypass, extraEnv });
      expect(result).toMatchObject({ status: 'success', text: 'Done.' });
      expect(existsSync(join(sandbox.workDir, 'bypassed.txt'))).toBe(true);
    } finally {
      if (saved !== undefined) process.env.IS_SANDBOX = saved;
    }
  });
});
