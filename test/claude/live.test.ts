// Claude live sessions end to end: the real `claude` binary in its stream-json input mode, one
// process for many turns, against the fake Anthropic server on 127.0.0.1.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeAdapter } from '../../src/adapters/claude/index.js';
import { codexAdapter } from '../../src/adapters/codex/index.js';
import {
  createCoder,
  FeatureNotSupportedError,
  InvalidOptionsError,
  LiveSessionClosedError,
  type CoderStreamEvent,
  type OneShotOpts,
  type PermissionRequest,
} from '../../src/index.js';
import { type FakeModel, type RecordedRequest, type Script } from '../../src/testing/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { expectDeniedByFailingPolicy, failingPolicy } from '../support/permission.js';
import { builtMarker, isGroupAlive, killMarked, pidsWithMarker, uniqueMarker } from '../support/processes.js';
import { expectModelErrorsFailOnlyTheirTurn, failingModel, fakeForLive, interruptWhenToolRuns, openLive, resumeBothWays, resumeScript } from '../support/live.js';
import { waitFor } from '../support/wait.js';

const fake = (script: Script, requestTimeoutMs?: number) => fakeForLive('claude', script, requestTimeoutMs);
const open = (opts: OneShotOpts) => openLive(claudeAdapter, opts);

const bash = (command: string, id?: string) => ({ name: 'Bash', input: { command, description: 'run a command' }, ...(id ? { id } : {}) });
const messagesOf = (request: RecordedRequest | undefined) => (request?.body as { messages: Array<{ role: string; content: unknown }> }).messages;
/** The tool_result blocks the CLI sent back to the model in this request. */
function toolResultsIn(request: RecordedRequest | undefined): Array<{ tool_use_id: string; is_error?: boolean; content: unknown }> {
  return messagesOf(request).flatMap((message) =>
    Array.isArray(message.content) ? (message.content as Array<{ type: string }>).filter((block) => block.type === 'tool_result') : [],
  ) as never;
}
const textOf = (content: unknown): string => (typeof content === 'string' ? content : JSON.stringify(content));
/** Model calls only: 2.1.332 checks a new model with a one-token request of its own. */
const turnRequests = (model: FakeModel) => model.requests.filter((request) => (request.body as { max_tokens?: number }).max_tokens !== 1);

describe('claude live session (real binary, fake Anthropic server)', () => {
  it('two turns in one process: same pid, the second request carries the first turn, events and raw lines per turn', async () => {
    const { model, opts } = await fake([{ text: 'Noted: apricot.' }, { text: 'The word was apricot.' }]);
    const raw: string[] = [];
    const live = await open({ ...opts, onRawLine: (line) => raw.push(line) });
    const first = live.send('Remember the word apricot.');
    const events: CoderStreamEvent[] = [];
    for await (const event of first) events.push(event);
    const one = await first.result;
    const two = await live.send('What was the word?').result;

    expect(one).toMatchObject({ status: 'success', text: 'Noted: apricot.', pid: live.pid });
    expect(two).toMatchObject({ status: 'success', text: 'The word was apricot.', pid: live.pid, sessionId: one.sessionId });
    expect(live.id).toBe(one.sessionId);
    expect(events.map((e) => e.type)).toContain('done');
    expect(two.usage).toMatchObject({ inputTokens: 10, outputTokens: 5 });
    expect(model.requests).toHaveLength(2);
    expect(JSON.stringify(messagesOf(model.requests[1]))).toContain('Noted: apricot.');
    expect(raw.filter((line) => JSON.parse(line).type === 'result')).toHaveLength(2);
  });

  it('interrupt() ends a turn stuck on a hung model as cancelled; the next turn runs in the same process', async () => {
    const { model, opts } = await fake((_request, index) => (index === 0 ? { kind: 'hang', after: 'first-event' } : { text: 'Back again.' }), 120_000);
    const live = await open(opts);
    const stuck = live.send('Think forever.');
    await waitFor(() => model.requests.length === 1);
    await live.interrupt();
    const cancelled = await stuck.result;
    expect(cancelled).toMatchObject({ status: 'cancelled', error: { code: 'aborted' } });
    const next = await live.send('Are you there?').result;
    expect(next).toMatchObject({ status: 'success', text: 'Back again.', pid: live.pid });
    expect(JSON.stringify(messagesOf(model.requests[1]))).toContain('Think forever.');
  });

  it('interrupt() during a running shell command stops the command; the session goes on', async () => {
    const marker = uniqueMarker('claude-live-interrupt');
    cleanupAfterTest(() => killMarked(marker));
    // The Bash tool refuses a plain long `sleep`; `timeout … tail -f` is a long command it runs. The
    // interrupt waits for `tail`, whose file name the shell builds, so that it comes while the command
    // runs, not while the shell may still be forking it: one of two clones at load ~8 found the
    // command still running 20 s after an interrupt that came as the shell started.
    const running = builtMarker(marker, '.run');
    const { opts, workDir } = await fake([{ toolCalls: [bash(`f=${marker} && touch "$f".run && timeout 47 tail -f "$f".run; touch after.txt`)] }, { text: 'Next.' }]);
    const live = await open({ ...opts, permissionPolicy: { allow: ['Bash'] } });
    expect((await interruptWhenToolRuns(live, live.send('Run it.'), running)).status).toBe('cancelled');
    // claude runs each Bash command in a process group of its own: found by the test's marker.
    await waitFor(() => pidsWithMarker(marker).length === 0);
    expect(existsSync(join(workDir, 'after.txt'))).toBe(false);
    expect((await live.send('Go on.').result)).toMatchObject({ status: 'success', text: 'Next.', pid: live.pid });
  });

  it('aborting a turn\'s signal interrupts that turn only', async () => {
    const { model, opts } = await fake((_request, index) => (index === 0 ? { kind: 'hang', after: 'first-event' } : { text: 'Still here.' }), 120_000);
    const live = await open(opts);
    const controller = new AbortController();
    const stuck = live.send('Hang.', { signal: controller.signal });
    await waitFor(() => model.requests.length === 1);
    controller.abort();
    expect((await stuck.result).status).toBe('cancelled');
    expect((await live.send('Next.').result).text).toBe('Still here.');
  });

  it('a live session can be resumed by a one-shot session, and a live process can continue a session', async () => {
    const { model, opts } = await fake(resumeScript);
    const { first, oneShot, reopened } = await resumeBothWays(claudeAdapter, opts);
    expect(oneShot.sessionId).toBe(first.sessionId);
    expect(JSON.stringify(messagesOf(model.requests[1]))).toContain('Noted: quince.');
    expect(reopened).toMatchObject({ status: 'success', text: 'Still quince.', sessionId: first.sessionId });
    expect(JSON.stringify(messagesOf(model.requests[2]))).toContain('It was quince.');
  });

  describe('steer()', () => {
    it('a message pushed while a tool runs joins the turn: the model sees it with the tool result, one RunResult', async () => {
      const { model, opts } = await fake([{ toolCalls: [bash('sleep 3')] }, { text: 'Saw the steer.' }, { text: 'Next turn.' }]);
      const live = await open({ ...opts, permissionPolicy: { allow: ['Bash'] } });
      const turn = live.send('Run the tool.');
      for await (const event of turn) if (event.type === 'tool_use') live.steer('STEERED: also mind the tests.');
      // (One tool_use in this script, so one steer.)
      expect(await turn.result).toMatchObject({ status: 'success', text: 'Saw the steer.' });
      expect(JSON.stringify(messagesOf(model.requests[1]))).toContain('STEERED: also mind the tests.');
      expect((await live.send('Again.').result).text).toBe('Next turn.');
    });

    it('a message pushed while the model writes runs right after, inside the same turn; the next send() is its own', async () => {
      const { model, opts } = await fake([{ text: 'a slow answer streamed word by word', delayMs: 300 }, { text: 'Answer to the steer.' }, { text: 'Third.' }]);
      const live = await open(opts);
      const turn = live.send('Write slowly.');
      let steered = false;
      for await (const event of turn) {
        if (event.type !== 'init' || steered) continue;
        steered = true;
        live.steer('STEERED while writing.');
      }
      expect(await turn.result).toMatchObject({ status: 'success', text: 'Answer to the steer.' });
      expect(model.requests.some((request) => JSON.stringify(request.body).includes('STEERED while writing.'))).toBe(true);
      expect(await live.send('And now?').result).toMatchObject({ status: 'success', text: 'Third.' });
    });

    it('steer() without a running turn is not taken (false)', async () => {
      const { opts } = await fake([{ text: 'ok' }]);
      const live = await open(opts);
      expect(await live.steer('nobody listens')).toBe(false);
    });
  });

  describe('canUseTool', () => {
    /** A turn whose model runs one Bash command, then answers with what it was told. */
    const toolTurn = (command: string) => fake([{ toolCalls: [bash(command, 'toolu_live_1')] }, { text: 'Done with the tool.' }]);

    it('allow: the command runs and its result goes back to the model; both events are in the stream', async () => {
      const { model, opts, workDir } = await toolTurn('touch allowed.txt');
      const seen: PermissionRequest[] = [];
      const live = await open({ ...opts, canUseTool: (request) => (seen.push(request), { behavior: 'allow' }) });
      const result = await live.send('Touch it.', { collectEvents: true }).result;
      expect(result.status).toBe('success');
      expect(existsSync(join(workDir, 'allowed.txt'))).toBe(true);
      expect(seen).toEqual([expect.objectContaining({ toolName: 'Bash', toolUseId: 'toolu_live_1', input: expect.objectContaining({ command: 'touch allowed.txt' }) })]);
      expect(result.events?.filter((e) => e.type === 'permission')).toMatchObject([
        { phase: 'request', toolName: 'Bash', toolUseId: 'toolu_live_1' },
        { phase: 'decision', decision: 'allow' },
      ]);
      expect(toolResultsIn(model.requests[1])).toMatchObject([{ tool_use_id: 'toolu_live_1' }]);
      expect(toolResultsIn(model.requests[1])[0]?.is_error ?? false).toBe(false);
    });

    it('deny with a message: the command does not run and the model is told the message', async () => {
      const { model, opts, workDir } = await toolTurn('touch denied.txt');
      const live = await open({ ...opts, canUseTool: () => ({ behavior: 'deny', message: 'No files today, says the host.' }) });
      const result = await live.send('Touch it.').result;
      expect(result.status).toBe('success');
      expect(existsSync(join(workDir, 'denied.txt'))).toBe(false);
      const [told] = toolResultsIn(model.requests[1]);
      expect(told).toMatchObject({ tool_use_id: 'toolu_live_1', is_error: true });
      expect(textOf(told?.content)).toContain('No files today, says the host.');
    });

    it('allow with changed input: the changed command runs instead of the original', async () => {
      const { opts, workDir } = await toolTurn('touch original.txt');
      const live = await open({
        ...opts,
        canUseTool: (request) => ({ behavior: 'allow', updatedInput: { ...request.input, command: 'touch changed.txt' } }),
      });
      const result = await live.send('Touch it.', { collectEvents: true }).result;
      expect(result.status).toBe('success');
      expect(existsSync(join(workDir, 'changed.txt'))).toBe(true);
      expect(existsSync(join(workDir, 'original.txt'))).toBe(false);
      expect(result.events?.find((e) => e.type === 'permission' && e.phase === 'decision')).toMatchObject({ updatedInput: { command: 'touch changed.txt' } });
    });

    it('a callback that throws denies the tool use and reports a non-fatal error; the turn goes on', async () => {
      const { model, opts, workDir } = await toolTurn('touch thrown.txt');
      const live = await open({ ...opts, canUseTool: failingPolicy });
      expectDeniedByFailingPolicy(await live.send('Touch it.', { collectEvents: true }).result, join(workDir, 'thrown.txt'));
      expect(toolResultsIn(model.requests[1])[0]).toMatchObject({ is_error: true });
    });

    it('a callback that does not answer in time denies', async () => {
      const { opts, workDir } = await toolTurn('touch late.txt');
      const live = await open({ ...opts, permissionTimeoutMs: 3_000, canUseTool: () => new Promise(() => {}) });
      const result = await live.send('Touch it.', { collectEvents: true }).result;
      expect(result.status).toBe('success');
      expect(existsSync(join(workDir, 'late.txt'))).toBe(false);
      expect(result.events?.find((e) => e.type === 'error')).toMatchObject({ fatal: false, message: expect.stringContaining('did not answer within 3000 ms') });
      expect(result.events?.find((e) => e.type === 'permission' && e.phase === 'decision')).toMatchObject({ decision: 'deny' });
    });

    it('time spent waiting for the callback is no stall', async () => {
      // The first turn warms the process up (the CLI's start-up is not what is measured here).
      const { opts, workDir } = await fake([{ text: 'Warm.' }, { toolCalls: [bash('touch slow.txt')] }, { text: 'Done.' }]);
      const stallTimeoutMs = 4_000;
      const live = await open({
        ...opts,
        canUseTool: async () => {
          await new Promise((resolve) => setTimeout(resolve, 2 * stallTimeoutMs));
          return { behavior: 'allow' };
        },
      });
      await live.send('Warm up.').result;
      const result = await live.send('Touch it.', { stallTimeoutMs }).result;
      expect(result.status).toBe('success');
      expect(existsSync(join(workDir, 'slow.txt'))).toBe(true);
    });

    it('with a callback set, every shell call the model makes is asked about; none runs unseen', async () => {
      const { opts, workDir } = await fake([{ toolCalls: [bash('touch one.txt', 'toolu_a'), bash('touch two.txt', 'toolu_b')] }, { text: 'Both refused.' }]);
      const seen: string[] = [];
      const live = await open({ ...opts, canUseTool: (request) => (seen.push(request.toolUseId ?? ''), { behavior: 'deny' }) });
      const result = await live.send('Touch both.', { collectEvents: true }).result;
      expect(result.status).toBe('success');
      expect(seen.sort()).toEqual(['toolu_a', 'toolu_b']);
      expect(existsSync(join(workDir, 'one.txt'))).toBe(false);
      expect(existsSync(join(workDir, 'two.txt'))).toBe(false);
      const used = result.events?.filter((e) => e.type === 'tool_use').map((e) => (e.type === 'tool_use' ? e.id : ''));
      expect(used?.sort()).toEqual(['toolu_a', 'toolu_b']);
    });
  });

  it('setModel() between turns: the next request uses the new model', async () => {
    const { model, opts } = await fake([{ text: 'ok' }]);
    const live = await open(opts);
    await live.send('First.').result;
    await live.setModel('claude-haiku-4-5');
    const second = await live.send('Second.').result;
    expect(second.status).toBe('success');
    const models = turnRequests(model).map((request) => (request.body as { model: string }).model);
    expect(models).toEqual(['claude-sonnet-4-5', 'claude-haiku-4-5']);
  });

  it('setPermissionMode() between turns: the next turn runs in that mode', async () => {
    const { opts, workDir } = await fake([{ text: 'ok' }, { toolCalls: [bash('touch planned.txt')] }, { text: 'Planned only.' }]);
    const live = await open(opts);
    await live.send('First.').result;
    await live.setPermissionMode('plan');
    const second = await live.send('Touch it.', { collectEvents: true }).result;
    expect(second.events?.find((e) => e.type === 'init')?.extra?.permissionMode).toBe('plan');
    expect(existsSync(join(workDir, 'planned.txt'))).toBe(false);
  });

  it('setPermissionMode() with canUseTool: modes that run tools unasked are refused before anything is sent; the callback still sees the write', async () => {
    const target = { path: '' };
    const { model, opts, workDir } = await fake((_request, index) => (index === 0 ? { toolCalls: [{ name: 'Write', input: { file_path: target.path, content: 'x' }, id: 'toolu_write' }] } : { text: 'Not written.' }));
    target.path = join(workDir, 'written.txt');
    const seen: string[] = [];
    const live = await open({ ...opts, canUseTool: (request) => (seen.push(request.toolName), { behavior: 'deny', message: 'No writes.' }) });
    // Under acceptEdits 2.1.332 writes the file without asking the callback.
    for (const mode of ['acceptEdits', 'bypassPermissions', 'auto'] as const) {
      await expect(live.setPermissionMode(mode)).rejects.toThrow(/runs tools without asking in that mode, so canUseTool would not see them/);
    }
    await live.setPermissionMode('default');
    expect((await live.send('Write it.').result).status).toBe('success');
    expect(seen).toEqual(['Write']);
    expect(existsSync(target.path)).toBe(false);
    expect(model.requests).toHaveLength(2);
  });

  it('a failed model call (HTTP 500 after retries, then 401) fails only its turn, with the one-shot code; the next turn succeeds', async () => {
    const failing = failingModel();
    const { opts } = await fake(failing.script);
    const live = await open(opts);
    await expectModelErrorsFailOnlyTheirTurn(live, failing);
  });

  it('the process killed from outside: the running turn fails with a clear error, later sends too, nothing is left', async () => {
    const { model, opts } = await fake([{ kind: 'hang', after: 'first-event' }], 120_000);
    const live = await open(opts);
    const stuck = live.send('Hang.');
    await waitFor(() => model.requests.length === 1);
    process.kill(live.pid!, 'SIGKILL');
    const result = await stuck.result;
    expect(result).toMatchObject({ status: 'error', signal: 'SIGKILL', error: { code: 'exit', message: expect.stringContaining('killed by SIGKILL') } });
    expect(live.isOpen).toBe(false);
    await expect(live.send('Anyone?').result).rejects.toBeInstanceOf(LiveSessionClosedError);
    expect(isGroupAlive(live.pid!)).toBe(false);
  });

  it('close() ends the process group; send() after it fails clearly', async () => {
    const { opts } = await fake([{ text: 'ok' }]);
    const live = await open(opts);
    await live.send('Hi.').result;
    await live.close();
    expect(isGroupAlive(live.pid!)).toBe(false);
    await expect(live.send('Again?').result).rejects.toThrow(/live session is closed: close\(\) was called/);
  });

  it('launch options given to send() are refused, saying to pass them to open()', async () => {
    const { opts } = await fake([{ text: 'ok' }]);
    const live = await open(opts);
    expect(() => live.send('Hi.', { maxTurns: 2 })).toThrow(InvalidOptionsError);
    expect(() => live.send('Hi.', { streamPartialMessages: true })).toThrow(/streamPartialMessages is a launch option of a claude live session: pass it to open\(\)/);
  });

  it('a CLI without a live mode, or canUseTool where the CLI has none, fails before anything spawns', async () => {
    // An adapter without a live mode and without canUseTool (every built-in CLI may gain them).
    const capabilities = Object.fromEntries(Object.entries(codexAdapter.capabilities).filter(([feature]) => feature !== 'canUseTool'));
    const coder = createCoder({ ...codexAdapter, capabilities, live: undefined }, { executablePath: '/nonexistent/codex' });
    cleanupAfterTest(() => coder.close());
    await expect(coder.open()).rejects.toBeInstanceOf(FeatureNotSupportedError);
    await expect(coder.open({ canUseTool: () => ({ behavior: 'allow' }) })).rejects.toMatchObject({ code: 'feature_not_supported', option: 'canUseTool' });
  });
});
