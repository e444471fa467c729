// End to end: the REAL codex binary (node_modules/.bin/codex, 0.171.0) through the public run() /
// createCoder(), against the fake Responses server on 127.0.0.1. Nothing leaves the machine.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { codexAdapter } from '../../src/adapters/codex/index.js';
import { createCoder, FeatureNotSupportedError, run } from '../../src/index.js';
import type { OneShotOpts, SharedStartOpts } from '../../src/index.js';
import { startFakeModel, streamClosedStep, type FakeEnvOptions, type FakeModel, type Script } from '../../src/testing/index.js';
import { isGroupAlive, killMarked, markedProcessStarts, pidsWithMarker, uniqueMarker } from '../support/processes.js';
import { expectSecretHidden, hostSecretProbe } from '../support/host-env.js';
import { ofType } from '../support/events.js';
import { abortOnceMarkedCommandRuns } from '../support/abort.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { waitFor } from '../support/wait.js';

const fakes: FakeModel[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

/** Workspaces made by this file, removed at the end. */
const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

const workspace = () => {
  const dir = mkdtempSync(join(tmpdir(), 'coderline-codex-e2e-ws-'));
  tempDirs.push(dir);
  return dir;
};

/** A fake model with `script`, and options that point the real binary at it from a fresh workspace. */
async function setup(script: Script, env: FakeEnvOptions = {}): Promise<{ fake: FakeModel; opts: SharedStartOpts; cwd: string }> {
  const fake = await startFakeModel({ api: 'openai-responses', script });
  fakes.push(fake);
  const cwd = workspace();
  return { fake, cwd, opts: { ...(await fake.env('codex', env)), workingDirectory: cwd } };
}

/** The text of everything the CLI sent the model in a request (to see tool outputs it fed back). */
const requestText = (fake: FakeModel, index: number) => JSON.stringify(fake.requests[index]?.body ?? null);

describe('codex e2e (real binary)', () => {
  it('text: answer, thread id, usage; onRawLine saw every stdout line', async () => {
    const { fake, opts } = await setup([{ text: 'Hello from the fake model.', usage: { inputTokens: 120, outputTokens: 8 } }]);
    const lines: string[] = [];
    const result = await run(codexAdapter, 'Say hello.', { ...opts, collectEvents: true, onRawLine: (line) => lines.push(line) });
    expect(result.status).toBe('success');
    expect(result.text).toBe('Hello from the fake model.');
    expect(result.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.usage).toMatchObject({ inputTokens: 120, outputTokens: 8 });
    expect(result.cliVersion).toBe('0.171.0');
    // Every non-stderr event came from a line onRawLine saw.
    const parsed = lines.filter((line) => line.trim()).map((line) => JSON.parse(line) as unknown);
    expect(parsed.map((record) => (record as { type: string }).type)).toEqual(['thread.started', 'turn.started', 'item.completed', 'turn.completed']);
    for (const event of result.events ?? []) if (event.type !== 'stderr' && event.raw !== null) expect(parsed).toContainEqual(event.raw);
    // The prompt went on stdin (the CLI put it in the request), never in argv.
    expect(requestText(fake, 0)).toContain('Say hello.');
    expect(fake.allRequests.every((request) => request.path === '/v1/responses')).toBe(true);
  });

  it('a shell command runs under workspace-write', async () => {
    const { cwd, opts } = await setup([{ toolCalls: [{ name: 'exec_command', input: { cmd: 'echo hi > made.txt && cat made.txt' } }] }, { text: 'Ran it.' }]);
    const result = await run(codexAdapter, 'Make a file.', { ...opts, codexSandbox: 'workspace-write', collectEvents: true });
    expect(result.status).toBe('success');
    const [toolResult] = ofType(result.events, 'tool_result');
    expect(toolResult).toMatchObject({ name: 'command_execution', output: 'hi\n', isError: false });
    expect(readFileSync(join(cwd, 'made.txt'), 'utf8')).toBe('hi\n');
  });

  it('the read-only sandbox (permissionPolicy plan) refuses a write', async () => {
    const { fake, cwd, opts } = await setup([{ toolCalls: [{ name: 'exec_command', input: { cmd: 'touch refused.txt' } }] }, { text: 'Could not write.' }]);
    const result = await run(codexAdapter, 'Try to write.', { ...opts, permissionPolicy: { mode: 'plan' }, collectEvents: true });
    expect(result.status).toBe('success');
    expect(existsSync(join(cwd, 'refused.txt'))).toBe(false);
    // 0.171.0 prints no command_execution item for a sandbox-refused command; the model is told.
    expect(requestText(fake, 1)).toContain('Read-only file system');
  });

  it('a failing command is a tool_result with isError', async () => {
    const { opts } = await setup([{ toolCalls: [{ name: 'exec_command', input: { cmd: 'ls /nonexistent-dir' } }] }, { text: 'It failed.' }]);
    const result = await run(codexAdapter, 'List it.', { ...opts, collectEvents: true });
    const [toolResult] = ofType(result.events, 'tool_result');
    expect(toolResult).toMatchObject({ isError: true, extra: { exitCode: 2 } });
    expect(result.status).toBe('success');
  });

  it('apply_patch changes a file', async () => {
    const patch = '*** Begin Patch\n*** Add File: hello.txt\n+hello from codex\n*** End Patch\n';
    const { cwd, opts } = await setup([{ toolCalls: [{ name: 'apply_patch', custom: true, input: patch }] }, { text: 'Patched.' }]);
    const result = await run(codexAdapter, 'Add hello.txt.', { ...opts, collectEvents: true });
    expect(result.status).toBe('success');
    expect(ofType(result.events, 'tool_use')[0]?.name).toBe('file_change');
    expect(readFileSync(join(cwd, 'hello.txt'), 'utf8')).toBe('hello from codex\n');
  });

  it('reasoning summaries arrive as reasoning events; the effort reaches the request', async () => {
    const { fake, opts } = await setup([{ thinking: 'Greeting is polite.', text: 'Hi!' }]);
    const result = await run(codexAdapter, 'Greet.', { ...opts, reasoningEffort: 'high', collectEvents: true });
    expect(ofType(result.events, 'reasoning').map((event) => event.text)).toEqual(['Greeting is polite.']);
    expect(result.text).toBe('Hi!');
    expect((fake.requests[0]?.body as { reasoning?: unknown }).reasoning).toMatchObject({ effort: 'high' });
  });

  const answer = z.object({ answer: z.string(), confidence: z.number() });

  it('structured output: a valid answer is parsed and typed', async () => {
    const { fake, opts } = await setup([{ text: '{"answer":"42","confidence":0.9}' }]);
    const result = await run(codexAdapter, 'Answer in JSON.', { ...opts, outputSchema: answer });
    expect(result.status).toBe('success');
    const output: { answer: string; confidence: number } | undefined = result.output;
    expect(output).toEqual({ answer: '42', confidence: 0.9 });
    expect((fake.requests[0]?.body as { text?: unknown }).text).toMatchObject({ format: { type: 'json_schema', strict: true } });
  });

  it('structured output: an answer that does not match is invalid_output', async () => {
    const { opts } = await setup([{ text: '{"answer":42}' }]);
    const result = await run(codexAdapter, 'Answer in JSON.', { ...opts, outputSchema: answer });
    expect(result.status).toBe('error');
    expect(result.error?.code).toBe('invalid_output');
  });

  it('resume keeps the thread id and reports per-run usage (the CLI reports thread totals)', async () => {
    const { fake, opts } = await setup([
      { text: 'First.', usage: { inputTokens: 100, outputTokens: 10 } },
      { text: 'Second.', usage: { inputTokens: 150, outputTokens: 5 } },
      { text: 'Third.', usage: { inputTokens: 70, outputTokens: 3 } },
    ]);
    const coder = createCoder(codexAdapter, opts);
    try {
      const session = coder.start();
      const first = await session.run('Remember 7.');
      const second = await session.run('What did I say?');
      expect(second.sessionId).toBe(first.sessionId);
      expect(first.usage).toMatchObject({ inputTokens: 100, outputTokens: 10 });
      expect(second.usage).toMatchObject({ inputTokens: 150, outputTokens: 5 });
      expect(requestText(fake, 1)).toContain('Remember 7.');
      // resumeLatest from the same directory finds the same thread.
      const latest = await coder.resumeLatest().run('And again?');
      expect(latest.status).toBe('success');
      expect(latest.sessionId).toBe(first.sessionId);
    } finally {
      await coder.close();
    }
  });

  it('resumeLatest from a directory with no thread fails instead of silently starting a new one', async () => {
    const { opts } = await setup([{ text: 'First.' }]);
    const first = await run(codexAdapter, 'Start.', opts);
    expect(first.status).toBe('success');
    const elsewhere = createCoder(codexAdapter, { ...opts, workingDirectory: workspace() });
    try {
      await expect(elsewhere.resumeLatest().run('Continue.')).rejects.toThrow(/silently start a new thread/);
    } finally {
      await elsewhere.close();
    }
  });

  it('resume(id) of a thread this CODEX_HOME does not have fails with a clear reason', async () => {
    const { fake, opts } = await setup([{ text: 'never' }]);
    const coder = createCoder(codexAdapter, opts);
    try {
      const result = await coder.resume('01a22c6b-0000-7000-8000-000000000000').run('Continue.');
      expect(result.status).toBe('error');
      expect(result.error?.code).toBe('session_not_found');
      expect(result.error?.message).toContain('no rollout found for thread id');
      expect(fake.requests).toHaveLength(0);
    } finally {
      await coder.close();
    }
  });

  it('fork starts a new thread that carries the history', async () => {
    const { fake, opts } = await setup([{ text: 'Original.' }, { text: 'Forked.' }]);
    const coder = createCoder(codexAdapter, opts);
    try {
      const session = coder.start();
      const first = await session.run('Remember the parrot.');
      const forked = await (await session.fork()).run('Branch off.');
      expect(forked.status).toBe('success');
      expect(forked.text).toBe('Forked.');
      expect(forked.sessionId).toBeDefined();
      expect(forked.sessionId).not.toBe(first.sessionId);
      expect(requestText(fake, 1)).toContain('Remember the parrot.');
    } finally {
      await coder.close();
    }
  });

  it('500 with retries 0 → server error', async () => {
    const { fake, opts } = await setup([{ kind: 'error', status: 500, message: 'boom' }]);
    const result = await run(codexAdapter, 'Hi.', opts);
    expect(result.status).toBe('error');
    expect(result.error?.code).toBe('server');
    expect(fake.requests).toHaveLength(1);
  });

  it('401 → auth', async () => {
    const { opts } = await setup([{ kind: 'error', status: 401, message: 'Incorrect API key provided' }]);
    const result = await run(codexAdapter, 'Hi.', opts);
    expect(result.status).toBe('error');
    expect(result.error?.code).toBe('auth');
  });

  it('a stream closed before response.completed: the partial message, then an error', async () => {
    const { opts } = await setup([streamClosedStep({ text: 'partial answer' })]);
    const result = await run(codexAdapter, 'Hi.', { ...opts, collectEvents: true });
    expect(ofType(result.events, 'message').map((event) => event.text)).toEqual(['partial answer']);
    expect(result.status).toBe('error');
    expect(result.error?.code).toBe('server');
    expect(result.error?.message).toContain('stream closed before response.completed');
  });

  it('a hung model server → stalled, and no process is left', async () => {
    const { opts } = await setup([{ kind: 'hang', after: 'headers' }], { requestTimeoutMs: 120_000 });
    const result = await run(codexAdapter, 'Hi.', { ...opts, stallTimeoutMs: 2_000 });
    expect(result.status).toBe('stalled');
    expect(result.error?.code).toBe('stalled');
    expect(result.pid).toBeDefined();
    expect(isGroupAlive(result.pid!)).toBe(false);
  });

  it('no model server at all: the CLI waits for the network silently → stalled, no process left', async () => {
    const { fake, opts } = await setup([{ text: 'never' }]);
    await fake.stopServer();
    // Long enough for a slow start on a loaded machine: the stall must come after the network wait began.
    const result = await run(codexAdapter, 'Hi.', { ...opts, stallTimeoutMs: 8_000, collectEvents: true });
    expect(ofType(result.events, 'progress').some((event) => event.kind === 'retry' && event.message?.includes('waiting for network'))).toBe(true);
    expect(result.status).toBe('stalled');
    expect(isGroupAlive(result.pid!)).toBe(false);
  });

  it('abort → cancelled, and no process is left', async () => {
    const { opts } = await setup([{ kind: 'hang', after: 'headers' }], { requestTimeoutMs: 120_000 });
    const controller = new AbortController();
    const options: OneShotOpts = {
      ...opts,
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'init') setTimeout(() => controller.abort(), 300);
      },
    };
    const result = await run(codexAdapter, 'Hi.', options);
    expect(result.status).toBe('cancelled');
    expect(result.sessionId).toBeDefined();
    expect(isGroupAlive(result.pid!)).toBe(false);
  });

  it('abort during a sandboxed command: cancelled, and the command is gone too', async () => {
    const marker = uniqueMarker('codex-abort');
    cleanupAfterTest(() => killMarked(marker));
    const { opts } = await setup([{ toolCalls: [{ name: 'exec_command', input: { cmd: `exec -a ${marker} sleep 30` } }] }, { text: 'never' }]);
    const { result, commandRan } = await abortOnceMarkedCommandRuns(marker, (hooks) => run(codexAdapter, 'Sleep.', { ...opts, ...hooks }));
    expect(result.status).toBe('cancelled');
    expect(commandRan).toBe(true);
    expect(isGroupAlive(result.pid!)).toBe(false);
    expect(pidsWithMarker(marker)).toEqual([]);
  });

  // A sandbox whose command outlives the CLI leaves an empty `.git` (and `.agents`, `.codex`) in each
  // writable root; in /tmp that would make every other CLI take a working directory there for a git
  // repository. Here the turn ends while the command it left in the background still runs.
  it('a sandboxed command that outlives codex leaves its mount targets in the testing kit\'s private TMPDIR, never in /tmp', async () => {
    const marker = uniqueMarker('codex-background');
    cleanupAfterTest(() => killMarked(marker));
    const slashTmpHadGit = existsSync('/tmp/.git');
    const command = { cmd: `exec -a ${marker} sleep 30`, yield_time_ms: 500 };
    const { opts } = await setup([{ toolCalls: [{ name: 'exec_command', input: command }] }, { text: 'Left it running.' }]);
    let commandRan: Promise<boolean> | undefined;
    const result = await run(codexAdapter, 'Sleep.', {
      ...opts,
      onEvent: (event) => {
        if (event.type === 'tool_use') commandRan ??= markedProcessStarts(marker);
      },
    });
    expect(result).toMatchObject({ status: 'success', text: 'Left it running.' });
    expect(await commandRan).toBe(true);
    await waitFor(() => pidsWithMarker(marker).length === 0);
    expect(existsSync(join(opts.extraEnv!.TMPDIR!, '.git'))).toBe(true);
    // Only where this test can tell: a /tmp/.git from before is not this run's.
    if (!slashTmpHadGit) expect(existsSync('/tmp/.git')).toBe(false);
  });

  it('maxTurns is refused up front (the CLI has no limit to pass it to)', async () => {
    const { fake, opts } = await setup([{ text: 'never' }]);
    await expect(run(codexAdapter, 'Hi.', { ...opts, maxTurns: 1 })).rejects.toThrow(FeatureNotSupportedError);
    expect(fake.allRequests).toHaveLength(0);
  });
});

describe("codex with inheritEnv: 'minimal' (real binary)", () => {
  it('hides a host variable from a shell command, and still authenticates with what extraEnv passes', async () => {
    const probe = hostSecretProbe();
    const { fake, opts } = await setup([{ toolCalls: [{ name: 'exec_command', input: { cmd: probe.command } }] }, { text: 'Printed.' }]);
    const result = await run(codexAdapter, 'Print two variables.', { ...opts, inheritEnv: 'minimal', collectEvents: true });
    const [toolResult] = ofType(result.events, 'tool_result');
    expectSecretHidden(probe, { status: result.status, toolOutput: toolResult?.output, fedBack: requestText(fake, 1) });
  });
});
