// Codex live sessions end to end: the real `codex app-server` (JSON-RPC on stdio), one process for
// many turns, against the fake Responses server on 127.0.0.1.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexAdapter } from '../../src/adapters/codex/index.js';
import { InvalidOptionsError, LiveSessionClosedError, run, type OneShotOpts, type PermissionRequest } from '../../src/index.js';
import { type RecordedRequest, type Script } from '../../src/testing/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { expectDeniedByFailingPolicy, failingPolicy } from '../support/permission.js';
import { isGroupAlive, killMarked, pidsWithMarker, uniqueMarker } from '../support/processes.js';
import { expectModelErrorsFailOnlyTheirTurn, failingModel, fakeForLive, interruptWhenToolRuns, openLive, resumeBothWays, resumeScript } from '../support/live.js';
import { waitFor } from '../support/wait.js';

const fake = (script: Script, requestTimeoutMs?: number) => fakeForLive('codex', script, requestTimeoutMs);
const open = (opts: OneShotOpts) => openLive(codexAdapter, opts);

interface ResponsesBody {
  model: string;
  input: Array<{ type?: string; role?: string; content?: unknown; call_id?: string; output?: unknown }>;
}
const body = (request: RecordedRequest | undefined) => request?.body as ResponsesBody;
/** The output the CLI sent back to the model for a tool call, in this request. */
const toolOutput = (request: RecordedRequest | undefined, callId: string) =>
  JSON.stringify(body(request).input.find((item) => item.type === 'function_call_output' && item.call_id === callId)?.output ?? null);
const shell = (cmd: string, id = 'call_live_1') => ({ toolCalls: [{ name: 'exec_command', input: { cmd }, id }] });

describe('codex live session (real binary, fake Responses server)', () => {
  it('two turns in one process: same pid, the second request carries the first turn', async () => {
    const { model, opts } = await fake([{ text: 'Noted: apricot.' }, { text: 'The word was apricot.' }]);
    const live = await open(opts);
    const one = await live.send('Remember the word apricot.', { collectEvents: true }).result;
    const two = await live.send('What was the word?').result;
    expect(one).toMatchObject({ status: 'success', text: 'Noted: apricot.', pid: live.pid });
    expect(two).toMatchObject({ status: 'success', text: 'The word was apricot.', pid: live.pid, sessionId: one.sessionId });
    expect(live.id).toBe(one.sessionId);
    expect(one.events?.map((event) => event.type)).toEqual(expect.arrayContaining(['init', 'message', 'usage', 'done']));
    expect(two.usage).toMatchObject({ inputTokens: 100, outputTokens: 10 });
    expect(model.requests).toHaveLength(2);
    expect(JSON.stringify(body(model.requests[1]).input)).toContain('Noted: apricot.');
  });

  it('interrupt() ends a turn stuck on a hung model as cancelled; the next turn runs in the same process', async () => {
    const { model, opts } = await fake((_request, index) => (index === 0 ? { kind: 'hang', after: 'headers' } : { text: 'Back again.' }), 120_000);
    const live = await open(opts);
    const stuck = live.send('Think forever.');
    await waitFor(() => model.requests.length === 1, 60_000);
    await live.interrupt();
    expect(await stuck.result).toMatchObject({ status: 'cancelled', error: { code: 'aborted' } });
    expect(await live.send('Are you there?').result).toMatchObject({ status: 'success', text: 'Back again.', pid: live.pid });
    expect(JSON.stringify(body(model.requests[1]).input)).toContain('Think forever.');
  });

  it('interrupt() during a running command stops the command (Codex would leave it running); the session goes on', async () => {
    const marker = uniqueMarker('codex-live-interrupt');
    cleanupAfterTest(() => killMarked(marker));
    const { opts, workDir } = await fake([shell(`(exec -a ${marker} sleep 47); touch after.txt`), { text: 'unused' }, { text: 'Next.' }]);
    const live = await open(opts);
    expect((await interruptWhenToolRuns(live, live.send('Run it.'), marker)).status).toBe('cancelled');
    expect(pidsWithMarker(marker)).toEqual([]);
    expect(existsSync(join(workDir, 'after.txt'))).toBe(false);
    expect(await live.send('Go on.').result).toMatchObject({ status: 'success', pid: live.pid });
  });

  it('steer() while a command runs: the message joins the running turn and the model reads it in the same turn', async () => {
    const { model, opts } = await fake([shell('sleep 3'), { text: 'Saw the steer.' }, { text: 'Next.' }]);
    const live = await open(opts);
    const turn = live.send('Run it.');
    for await (const event of turn) if (event.type === 'tool_use') live.steer('STEERED: mind the tests.');
    expect(await turn.result).toMatchObject({ status: 'success', text: 'Saw the steer.' });
    expect(JSON.stringify(body(model.requests[1]).input)).toContain('STEERED: mind the tests.');
    expect((await live.send('Again.').result).text).toBe('Next.');
  });

  describe('canUseTool (approval policy "untrusted": every command asks)', () => {
    it('allow: the command runs, the model gets its output; both permission events are in the stream', async () => {
      const { model, opts, workDir } = await fake([shell('touch allowed.txt'), { text: 'Done.' }]);
      const seen: PermissionRequest[] = [];
      const live = await open({ ...opts, canUseTool: (request) => (seen.push(request), { behavior: 'allow' }) });
      const result = await live.send('Touch it.', { collectEvents: true }).result;
      expect(result.status).toBe('success');
      expect(existsSync(join(workDir, 'allowed.txt'))).toBe(true);
      expect(seen).toEqual([expect.objectContaining({ toolName: 'command_execution', toolUseId: 'call_live_1', input: expect.objectContaining({ command: expect.stringContaining('touch allowed.txt') }) })]);
      expect(result.events?.filter((e) => e.type === 'permission')).toMatchObject([
        { phase: 'request', toolName: 'command_execution', toolUseId: 'call_live_1' },
        { phase: 'decision', decision: 'allow' },
      ]);
      expect(toolOutput(model.requests[1], 'call_live_1')).toContain('Process exited with code 0');
    });

    it('deny: the command does not run and the model is told it was rejected', async () => {
      const { model, opts, workDir } = await fake([shell('touch denied.txt'), { text: 'Refused.' }]);
      const live = await open({ ...opts, canUseTool: () => ({ behavior: 'deny', message: 'not carried by codex' }) });
      const result = await live.send('Touch it.', { collectEvents: true }).result;
      expect(result.status).toBe('success');
      expect(existsSync(join(workDir, 'denied.txt'))).toBe(false);
      expect(toolOutput(model.requests[1], 'call_live_1')).toContain('rejected by user');
      expect(result.events?.find((e) => e.type === 'tool_result')).toMatchObject({ name: 'command_execution', isError: true });
    });

    it('a command that would run without asking under the default policy (`ls`) is asked about too; none runs unseen', async () => {
      const { opts, workDir } = await fake([{ toolCalls: [{ name: 'exec_command', input: { cmd: 'ls > listed.txt' }, id: 'call_a' }] }, shell('touch two.txt', 'call_b'), { text: 'Both refused.' }]);
      const seen: string[] = [];
      const live = await open({ ...opts, canUseTool: (request) => (seen.push(request.toolUseId ?? ''), { behavior: 'deny' }) });
      expect((await live.send('Do both.').result).status).toBe('success');
      expect(seen).toEqual(['call_a', 'call_b']);
      expect(existsSync(join(workDir, 'listed.txt'))).toBe(false);
      expect(existsSync(join(workDir, 'two.txt'))).toBe(false);
    });

    it('a file change asks with its changes; a changed input is refused with a clear error and the change is not made', async () => {
      const patch = '*** Begin Patch\n*** Add File: patched.txt\n+hello\n*** End Patch\n';
      const { opts, workDir } = await fake([{ toolCalls: [{ name: 'apply_patch', custom: true, input: patch, id: 'call_patch' }] }, { text: 'Done.' }]);
      const seen: PermissionRequest[] = [];
      const live = await open({ ...opts, canUseTool: (request) => (seen.push(request), { behavior: 'allow', updatedInput: { changes: [] } }) });
      const result = await live.send('Patch it.', { collectEvents: true }).result;
      expect(result.status).toBe('success');
      expect(seen).toMatchObject([{ toolName: 'file_change', toolUseId: 'call_patch', input: { changes: [{ path: join(workDir, 'patched.txt'), kind: 'add' }] }, tool: { kind: 'edit', paths: [join(workDir, 'patched.txt')] } }]);
      expect(existsSync(join(workDir, 'patched.txt'))).toBe(false);
      expect(result.events?.find((e) => e.type === 'error')).toMatchObject({ fatal: false, message: expect.stringContaining('codex cannot run a changed input') });
      expect(result.events?.find((e) => e.type === 'permission' && e.phase === 'decision')).toMatchObject({ decision: 'deny' });
    });

    it('a callback that throws denies, with a non-fatal error event', async () => {
      const { opts, workDir } = await fake([shell('touch thrown.txt'), { text: 'Done.' }]);
      const live = await open({ ...opts, canUseTool: failingPolicy });
      expectDeniedByFailingPolicy(await live.send('Touch it.', { collectEvents: true }).result, join(workDir, 'thrown.txt'));
    });

    it('one-shot run() with canUseTool is refused before anything spawns (codex asks only in a live session)', async () => {
      await expect(run(codexAdapter, 'Hi', { executablePath: '/nonexistent/codex', canUseTool: () => ({ behavior: 'allow' }) })).rejects.toMatchObject({ code: 'feature_not_supported' });
    });
  });

  it('a live session can be resumed by a one-shot session, and a live process can continue a session', async () => {
    const { model, opts } = await fake(resumeScript);
    const { first, oneShot, reopened } = await resumeBothWays(codexAdapter, opts);
    expect(oneShot.sessionId).toBe(first.sessionId);
    expect(JSON.stringify(body(model.requests[1]).input)).toContain('Noted: quince.');
    expect(reopened).toMatchObject({ status: 'success', text: 'Still quince.', sessionId: first.sessionId });
    expect(JSON.stringify(body(model.requests[2]).input)).toContain('It was quince.');
  });

  it('setModel() between turns: the next request uses the new model', async () => {
    const { model, opts } = await fake([{ text: 'ok' }]);
    const live = await open(opts);
    await live.send('First.').result;
    await live.setModel('gpt-5.4');
    await live.send('Second.').result;
    await live.send('Third.').result;
    expect(model.requests.map((request) => body(request).model)).toEqual(['gpt-5.5', 'gpt-5.4', 'gpt-5.4']);
  });

  describe('setPermissionMode() (the next turn/start carries the sandbox policy)', () => {
    /** The developer message of this request that tells the model its sandbox (the last one, where several). */
    const sandboxNotice = (request: RecordedRequest | undefined) => JSON.stringify(body(request).input).match(/`sandbox_mode` is `[a-z-]+`/g)?.at(-1);

    it('plan: a write the model asks for does not happen and the model is told why; default lets the next one happen', async () => {
      const { model, opts, workDir } = await fake([shell('touch planned.txt', 'call_plan'), { text: 'Could not.' }, shell('touch written.txt', 'call_default'), { text: 'Wrote it.' }]);
      const live = await open(opts);
      await live.setPermissionMode('plan');
      expect(await live.send('Touch planned.txt.').result).toMatchObject({ status: 'success', text: 'Could not.' });
      expect(existsSync(join(workDir, 'planned.txt'))).toBe(false);
      expect(sandboxNotice(model.requests[0])).toBe('`sandbox_mode` is `read-only`');
      expect(toolOutput(model.requests[1], 'call_plan')).toContain('Read-only file system');
      await live.setPermissionMode('default');
      expect(await live.send('Touch written.txt.').result).toMatchObject({ status: 'success', text: 'Wrote it.' });
      expect(existsSync(join(workDir, 'written.txt'))).toBe(true);
      expect(sandboxNotice(model.requests[2])).toBe('`sandbox_mode` is `workspace-write`');
      expect(toolOutput(model.requests[3], 'call_default')).toContain('Process exited with code 0');
    });

    it('called during a turn, it applies from the next turn: the running one keeps its sandbox', async () => {
      const { model, opts, workDir } = await fake([shell('sleep 2; touch during.txt', 'call_during'), { text: 'Done.' }, shell('touch after.txt', 'call_after'), { text: 'Refused.' }]);
      const live = await open(opts);
      const turn = live.send('Run it.');
      for await (const event of turn) if (event.type === 'tool_use') await live.setPermissionMode('plan');
      expect((await turn.result).status).toBe('success');
      expect(existsSync(join(workDir, 'during.txt'))).toBe(true);
      await live.send('Touch after.txt.').result;
      expect(existsSync(join(workDir, 'after.txt'))).toBe(false);
      expect(sandboxNotice(model.requests[2])).toBe('`sandbox_mode` is `read-only`');
    });

    it('with canUseTool: plan still asks about every command; bypassPermissions is refused before anything is sent', async () => {
      const { model, opts, workDir } = await fake([shell('touch asked.txt', 'call_asked'), { text: 'Done.' }]);
      const seen: string[] = [];
      const live = await open({ ...opts, canUseTool: (request) => (seen.push(request.toolUseId ?? ''), { behavior: 'deny' }) });
      await expect(live.setPermissionMode('bypassPermissions')).rejects.toThrow(/runs tools without asking in that mode, so canUseTool would not see them/);
      await live.setPermissionMode('plan');
      expect((await live.send('Touch it.').result).status).toBe('success');
      // Asked under plan too (a command the callback allows may run outside the read-only sandbox: docs/live.md).
      expect(seen).toEqual(['call_asked']);
      expect(existsSync(join(workDir, 'asked.txt'))).toBe(false);
      expect(sandboxNotice(model.requests[0])).toBe('`sandbox_mode` is `read-only`');
      expect(toolOutput(model.requests[1], 'call_asked')).toContain('rejected by user');
    });

    it('a mode codex cannot express is an InvalidOptionsError naming the ones it can, and nothing changes', async () => {
      const { model, opts } = await fake([{ text: 'ok' }]);
      const live = await open(opts);
      await expect(live.setPermissionMode('acceptEdits')).rejects.toBeInstanceOf(InvalidOptionsError);
      await expect(live.setPermissionMode('dontAsk')).rejects.toThrow(/"plan", "default", "bypassPermissions"/);
      await live.send('Hi.').result;
      expect(sandboxNotice(model.requests[0])).toBe('`sandbox_mode` is `workspace-write`');
    });
  });

  it('a failed model call (HTTP 500 after retries, then 401) fails only its turn, with the one-shot code; the next turn succeeds', async () => {
    const failing = failingModel();
    const { opts } = await fake(failing.script);
    const live = await open(opts);
    await expectModelErrorsFailOnlyTheirTurn(live, failing);
  });

  it('the process killed from outside: the running turn fails with a clear error, later sends too, nothing is left', async () => {
    const { model, opts } = await fake([{ kind: 'hang', after: 'headers' }], 120_000);
    const live = await open(opts);
    const stuck = live.send('Hang.');
    await waitFor(() => model.requests.length === 1, 60_000);
    process.kill(live.pid!, 'SIGKILL');
    expect(await stuck.result).toMatchObject({ status: 'error', signal: 'SIGKILL', error: { code: 'exit', message: expect.stringContaining('killed by SIGKILL') } });
    await expect(live.send('Anyone?').result).rejects.toBeInstanceOf(LiveSessionClosedError);
    await waitFor(() => !isGroupAlive(live.pid!));
  });
});
