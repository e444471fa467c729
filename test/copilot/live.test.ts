// Copilot live sessions end to end: the real `copilot` 1.0.102 in `--acp` mode (Agent Client
// Protocol v1), one process for many turns, against the fake chat-completions server on 127.0.0.1.
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copilotAdapter } from '../../src/adapters/copilot/index.js';
import { CliVersionError, createCoder, FeatureNotSupportedError, InvalidOptionsError, run, type OneShotOpts, type PermissionRequest } from '../../src/index.js';
import { startFakeModel, type FakeModel, type RecordedRequest, type Script } from '../../src/testing/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { chatBody, contentText, expectKilledFromOutside, openLive, toolMessage } from '../support/live.js';
import { ofType } from '../support/events.js';
import { expectDeniedByFailingPolicy, failingPolicy } from '../support/permission.js';
import { isGroupAlive } from '../support/processes.js';
import { waitFor } from '../support/wait.js';

async function tempWorkDir(): Promise<string> {
  const workDir = await mkdtemp(join(tmpdir(), 'coderline-copilot-live-'));
  cleanupAfterTest(() => rm(workDir, { recursive: true, force: true }));
  return workDir;
}

/** A fake model with `script`, and options that point copilot at it from `workDir` (a fresh one by default). */
async function fake(script: Script, workDir?: string): Promise<{ model: FakeModel; opts: OneShotOpts; workDir: string }> {
  workDir ??= await tempWorkDir();
  const model = await startFakeModel({ api: 'openai-chat', script });
  cleanupAfterTest(() => model.close());
  return { model, opts: { ...(await model.env('copilot')), workingDirectory: workDir }, workDir };
}

const open = (opts: OneShotOpts) => openLive(copilotAdapter, opts);
const bash = (command: string, id = 'call_live_1') => ({ name: 'bash', input: { command, description: 'live test command' }, id });

describe('copilot live session over ACP (real binary, fake model)', () => {
  it('two turns in one process: same pid, the second request carries the first turn, usage per turn', async () => {
    const usage = { inputTokens: 20, cachedInputTokens: 4, outputTokens: 7, reasoningTokens: 0 };
    const { model, opts } = await fake([{ text: 'Noted: apricot.', usage }, { text: 'The word was apricot.', usage }]);
    const live = await open(opts);
    expect(live.id).toMatch(/^[0-9a-f-]{36}$/);
    const one = await live.send('Remember the word apricot.', { collectEvents: true }).result;
    const two = await live.send('What was the word?', { collectEvents: true }).result;
    expect(one).toMatchObject({ status: 'success', text: 'Noted: apricot.', pid: live.pid, sessionId: live.id });
    expect(two).toMatchObject({ status: 'success', text: 'The word was apricot.', pid: live.pid, sessionId: live.id });
    // The answer's token counts are session totals: each turn reports its own share.
    expect(one.usage).toEqual(usage);
    expect(two.usage).toEqual(usage);
    expect(ofType(one.events, 'init')[0]).toMatchObject({ sessionId: live.id });
    expect(model.requests).toHaveLength(2);
    expect(JSON.stringify(chatBody(model.requests[1]).messages)).toContain('Noted: apricot.');
    expect(JSON.stringify(chatBody(model.requests[1]).messages)).toContain('Remember the word apricot.');
  });

  it('interrupt() ends a turn stuck on a hung model as cancelled; the third turn runs in the same process', async () => {
    const { model, opts } = await fake((_request, index) => (index === 1 ? { kind: 'hang', after: 'first-event' } : { text: `Answer ${index}.` }));
    const live = await open(opts);
    expect((await live.send('First.').result).text).toBe('Answer 0.');
    const stuck = live.send('Think forever.');
    await waitFor(() => model.requests.length === 2);
    await live.interrupt();
    expect(await stuck.result).toMatchObject({ status: 'cancelled', error: { code: 'aborted' }, pid: live.pid });
    expect(await live.send('Are you there?').result).toMatchObject({ status: 'success', text: 'Answer 2.', pid: live.pid });
    expect(JSON.stringify(chatBody(model.requests[2]).messages)).toContain('Think forever.');
  });

  describe('a failed model call fails the turn (Copilot writes it as "Error: …" text and answers end_turn)', () => {
    /** A fake that fails with `status` until `recover()`, then answers. */
    async function failing(status: number) {
      let failingNow = true;
      const setup = await fake(() => (failingNow ? { kind: 'error', status, message: `fake ${status}` } : { text: 'Back again.' }));
      return { ...setup, recover: () => (failingNow = false) };
    }

    it('HTTP 401 → status error with code auth; the session goes on and the next turn succeeds', async () => {
      const { opts, recover } = await failing(401);
      const live = await open(opts);
      const failed = await live.send('Say hi.', { collectEvents: true }).result;
      expect(failed).toMatchObject({ status: 'error', error: { code: 'auth' }, pid: live.pid });
      expect(failed.error?.message).toContain('HTTP 401');
      // Copilot's notices are no answer: no text, and its retries are retry progress events.
      expect(failed.text ?? '').toBe('');
      recover();
      expect(await live.send('Again.').result).toMatchObject({ status: 'success', text: 'Back again.', pid: live.pid });
    });

    it('HTTP 500 after Copilot gave up retrying → status error with code server; the next turn succeeds', async () => {
      const { model, opts, recover } = await failing(500);
      const live = await open(opts);
      const failed = await live.send('Say hi.', { collectEvents: true }).result;
      expect(failed).toMatchObject({ status: 'error', error: { code: 'server' } });
      expect(failed.error?.message).toContain('Last error: 500 fake 500');
      expect(model.requests.length).toBeGreaterThan(1);
      expect(ofType(failed.events, 'progress').filter((event) => event.kind === 'retry').length).toBe(model.requests.length - 1);
      expect(failed.text ?? '').toBe('');
      recover();
      expect(await live.send('Again.').result).toMatchObject({ status: 'success', text: 'Back again.', pid: live.pid });
    });
  });

  it('close() while a turn runs: the turn is cancelled first (session/cancel), then the process group is gone', async () => {
    const { model, opts } = await fake([{ kind: 'hang', after: 'first-event' }]);
    const live = await open(opts);
    const stuck = live.send('Hang.');
    await waitFor(() => model.requests.length === 1);
    await live.close();
    expect(await stuck.result).toMatchObject({ status: 'cancelled', error: { code: 'aborted' } });
    expect(isGroupAlive(live.pid!)).toBe(false);
  });

  describe('canUseTool (session/request_permission)', () => {
    it('allow: the command runs, the callback saw it, the model reads its result', async () => {
      const { model, opts, workDir } = await fake([{ toolCalls: [bash('touch allowed.txt')] }, { text: 'Done.' }]);
      const seen: PermissionRequest[] = [];
      const live = await open({ ...opts, canUseTool: (request) => (seen.push(request), { behavior: 'allow' }) });
      const result = await live.send('Touch it.', { collectEvents: true }).result;
      expect(result).toMatchObject({ status: 'success', text: 'Done.' });
      expect(existsSync(join(workDir, 'allowed.txt'))).toBe(true);
      expect(seen).toEqual([expect.objectContaining({ toolName: 'execute', toolUseId: 'call_live_1', description: 'live test command', input: expect.objectContaining({ command: 'touch allowed.txt' }) })]);
      expect(ofType(result.events, 'permission').map((event) => event.phase)).toEqual(['request', 'decision']);
      expect(ofType(result.events, 'tool_use')[0]).toMatchObject({ id: 'call_live_1', name: 'execute' });
      expect(ofType(result.events, 'tool_result')[0]).toMatchObject({ id: 'call_live_1', name: 'execute', isError: false });
      expect(contentText(toolMessage(model.requests[1])?.content)).toContain('exit code 0');
    });

    it('deny: not run; Copilot ends the turn, and the next request tells the model the call was rejected', async () => {
      const { model, opts, workDir } = await fake([{ toolCalls: [bash('touch denied.txt')] }, { text: 'Understood.' }]);
      const live = await open({ ...opts, canUseTool: () => ({ behavior: 'deny', message: 'Copilot cannot carry this.' }) });
      const refused = await live.send('Touch it.', { collectEvents: true }).result;
      expect(refused.status).toBe('success');
      expect(ofType(refused.events, 'tool_result')[0]).toMatchObject({ isError: true, output: 'The user rejected this tool call.' });
      expect(existsSync(join(workDir, 'denied.txt'))).toBe(false);
      // The refusal ended the turn: no model request after it.
      expect(model.requests).toHaveLength(1);
      expect((await live.send('Go on.').result).text).toBe('Understood.');
      expect(contentText(toolMessage(model.requests[1])?.content)).toBe('The user rejected this tool call.');
    });

    it('a tool use the callback never saw does not run: a shell call and a write, both refused', async () => {
      const workDir = await tempWorkDir();
      const { opts } = await fake(
        [{ toolCalls: [bash('touch one.txt', 'call_a'), { name: 'create', input: { path: join(workDir, 'two.txt'), file_text: 'x' }, id: 'call_b' }] }, { text: 'Nothing ran.' }],
        workDir,
      );
      const seen: string[] = [];
      const live = await open({ ...opts, canUseTool: (request) => (seen.push(`${request.toolName}:${request.toolUseId}`), { behavior: 'deny' }) });
      expect((await live.send('Make two files.').result).status).toBe('success');
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every((entry) => ['execute:call_a', 'edit:call_b'].includes(entry))).toBe(true);
      expect(existsSync(join(workDir, 'one.txt'))).toBe(false);
      expect(existsSync(join(workDir, 'two.txt'))).toBe(false);
    });

    it('a callback that throws denies, with a non-fatal error event', async () => {
      const { opts, workDir } = await fake([{ toolCalls: [bash('touch thrown.txt')] }, { text: 'Done.' }]);
      const live = await open({ ...opts, canUseTool: failingPolicy });
      expectDeniedByFailingPolicy(await live.send('Touch it.', { collectEvents: true }).result, join(workDir, 'thrown.txt'));
    });

    it('allow with a changed input is refused: denied, with an error event saying why', async () => {
      const { opts, workDir } = await fake([{ toolCalls: [bash('touch original.txt')] }, { text: 'Done.' }]);
      const live = await open({ ...opts, canUseTool: () => ({ behavior: 'allow', updatedInput: { command: 'touch changed.txt' } }) });
      const result = await live.send('Touch it.', { collectEvents: true }).result;
      expect(existsSync(join(workDir, 'original.txt'))).toBe(false);
      expect(existsSync(join(workDir, 'changed.txt'))).toBe(false);
      expect(ofType(result.events, 'error')[0]).toMatchObject({ fatal: false, message: expect.stringContaining('cannot run a changed input') });
      expect(ofType(result.events, 'permission').at(-1)).toMatchObject({ phase: 'decision', decision: 'deny' });
    });

    it('one-shot run() with canUseTool is refused before anything spawns (Copilot asks only in a live session)', async () => {
      await expect(run(copilotAdapter, 'Hi', { executablePath: '/nonexistent/copilot', canUseTool: () => ({ behavior: 'allow' }) })).rejects.toBeInstanceOf(FeatureNotSupportedError);
    });
  });

  it('a live session is continued by another live process (session/load) and by a one-shot resume', async () => {
    const { model, opts } = await fake([{ text: 'Noted: quince.' }, { text: 'It was quince.' }, { text: 'Still quince.' }]);
    const coder = createCoder(copilotAdapter, opts);
    cleanupAfterTest(() => coder.close());
    const first = await coder.open();
    await first.send('Remember quince.').result;
    await first.close();
    const again = await coder.open({}, { sessionId: first.id! });
    cleanupAfterTest(() => again.close());
    expect(again.id).toBe(first.id);
    expect(await again.send('Which fruit?').result).toMatchObject({ status: 'success', text: 'It was quince.', sessionId: first.id });
    await again.close();
    expect(await coder.resume(first.id!).run('And now?')).toMatchObject({ status: 'success', text: 'Still quince.' });
    for (const request of model.requests.slice(1)) expect(JSON.stringify(chatBody(request).messages)).toContain('Noted: quince.');
    expect(JSON.stringify(chatBody(model.requests[2]).messages)).toContain('It was quince.');
  });

  it('setModel() between turns: the next request uses the new model', async () => {
    const { model, opts } = await fake([{ text: 'ok' }]);
    const live = await open(opts);
    await live.send('First.').result;
    await live.setModel('other-model');
    await live.send('Second.').result;
    expect(model.requests.map((request) => chatBody(request).model)).toEqual(['fake-model', 'other-model']);
  });

  describe('setPermissionMode() (ACP session/set_mode and the allow_all option)', () => {
    const userText = (request: RecordedRequest | undefined) => contentText(chatBody(request).messages.filter((message) => message.role === 'user').at(-1)?.content);
    const toolText = (request: RecordedRequest | undefined, id: string) => contentText(chatBody(request).messages.find((message) => message.role === 'tool' && message.tool_call_id === id)?.content);

    it('plan: a write the model asks for is blocked and the model is told why; bypassPermissions lets the next one run, default asks again', async () => {
      const workDir = await tempWorkDir();
      const planFile = { path: '' };
      const { model, opts } = await fake(
        (_request, index) =>
          [
            { toolCalls: [bash('touch planned.txt', 'call_plan'), { name: 'create', input: { path: planFile.path, file_text: '# plan' }, id: 'call_plan_md' }] },
            { text: 'Planned.' },
            { toolCalls: [bash('touch written.txt', 'call_bypass')] },
            { text: 'Wrote it.' },
            { toolCalls: [bash('touch asked.txt', 'call_default')] },
          ][index] ?? { text: 'Asked.' },
        workDir,
      );
      const lines: string[] = [];
      const live = await open({ ...opts, onRawLine: (line) => lines.push(line) });
      planFile.path = join(opts.extraEnv!.COPILOT_HOME!, 'session-state', live.id!, 'plan.md');
      await live.setPermissionMode('plan');
      const planned = await live.send('Touch planned.txt.', { collectEvents: true }).result;
      expect(planned.status).toBe('success');
      expect(existsSync(join(workDir, 'planned.txt'))).toBe(false);
      expect(userText(model.requests[0])).toContain('[[PLAN]] Touch planned.txt.');
      expect(toolText(model.requests[1], 'call_plan')).toContain('Plan mode does not permit changes outside the session folder');
      // Why plan is refused with canUseTool: Copilot writes the session's plan.md without asking anyone.
      expect(existsSync(planFile.path)).toBe(true);
      // It says so in a notice of its own ("Info: <path>"), which is progress, not the model's answer.
      expect(planned.text).toBe('Planned.');
      expect(planned.events?.find((event) => event.type === 'progress' && event.subtype === 'session.info')).toMatchObject({ kind: 'status', message: planFile.path });
      expect(lines.some((line) => line.includes('session/request_permission'))).toBe(false);

      await live.setPermissionMode('bypassPermissions');
      expect(await live.send('Touch written.txt.').result).toMatchObject({ status: 'success', text: 'Wrote it.' });
      expect(existsSync(join(workDir, 'written.txt'))).toBe(true);
      expect(userText(model.requests[2])).not.toContain('[[PLAN]]');

      // default: allow_all off again, so Copilot asks, and with no canUseTool the SDK denies.
      await live.setPermissionMode('default');
      expect((await live.send('Touch asked.txt.').result).status).toBe('success');
      expect(lines.filter((line) => line.includes('session/request_permission')).map((line) => /"toolCallId":"(\w+)"/.exec(line)?.[1])).toEqual(['call_default']);
      expect(existsSync(join(workDir, 'asked.txt'))).toBe(false);
    });

    it('called during a turn, it waits for that turn: the running turn keeps its mode, the next one has the new one', async () => {
      const { opts, workDir } = await fake([{ toolCalls: [bash('sleep 2; touch during.txt', 'call_during')] }, { text: 'Done.' }, { toolCalls: [bash('touch after.txt', 'call_after')] }, { text: 'Blocked.' }]);
      const live = await open(opts);
      await live.setPermissionMode('bypassPermissions');
      const turn = live.send('Run it.');
      const order: string[] = [];
      let changed: Promise<void> | undefined;
      for await (const event of turn) if (event.type === 'tool_use') changed = live.setPermissionMode('plan').then(() => void order.push('mode'));
      await turn.result.then(() => order.push('turn'));
      await changed;
      expect(order).toEqual(['turn', 'mode']);
      expect(existsSync(join(workDir, 'during.txt'))).toBe(true);
      expect((await live.send('Touch after.txt.').result).text).toBe('Blocked.');
      expect(existsSync(join(workDir, 'after.txt'))).toBe(false);
    });

    it('with canUseTool: plan and bypassPermissions are refused before anything is sent; default still asks every command', async () => {
      const { model, opts, workDir } = await fake([{ toolCalls: [bash('touch asked.txt')] }, { text: 'Done.' }]);
      const seen: string[] = [];
      const lines: string[] = [];
      const live = await open({ ...opts, onRawLine: (line) => lines.push(line), canUseTool: (request) => (seen.push(request.toolUseId ?? ''), { behavior: 'allow' }) });
      await expect(live.setPermissionMode('bypassPermissions')).rejects.toThrow(/runs tools without asking in that mode, so canUseTool would not see them/);
      await expect(live.setPermissionMode('plan')).rejects.toBeInstanceOf(InvalidOptionsError);
      await live.setPermissionMode('default');
      expect((await live.send('Touch it.').result).status).toBe('success');
      expect(seen).toEqual(['call_live_1']);
      expect(existsSync(join(workDir, 'asked.txt'))).toBe(true);
      expect(lines.filter((line) => line.includes('current_mode_update') && !line.includes('#agent'))).toEqual([]);
      expect(model.requests).toHaveLength(2);
    });

    it('a mode Copilot cannot express is an InvalidOptionsError naming the ones it can', async () => {
      const { model, opts } = await fake([{ text: 'ok' }]);
      const live = await open(opts);
      await expect(live.setPermissionMode('acceptEdits')).rejects.toThrow(/"plan", "default", "bypassPermissions"/);
      expect(model.requests).toHaveLength(0);
    });
  });

  it('controls ACP lacks and options it does not honour fail before anything is sent', async () => {
    const { model, opts } = await fake([{ text: 'ok' }]);
    await expect(createCoder(copilotAdapter).open({ ...opts, copilotMode: 'plan' })).rejects.toBeInstanceOf(FeatureNotSupportedError);
    const live = await open(opts);
    expect(() => live.steer('more')).toThrow(FeatureNotSupportedError);
    expect(() => live.send('Hi', { streamPartialMessages: true })).toThrow(/launch option/);
    expect(model.requests).toHaveLength(0);
  });

  it('a copilot older than the oldest verified live mode fails with CliVersionError before anything is sent', async () => {
    const { model, opts, workDir } = await fake([{ text: 'never' }]);
    const old = join(workDir, 'copilot-1.0.73');
    await writeFile(old, '#!/bin/sh\necho "GitHub Copilot CLI 1.0.73."\n', { mode: 0o755 });
    await expect(createCoder(copilotAdapter).open({ ...opts, executablePath: old })).rejects.toBeInstanceOf(CliVersionError);
    expect(model.requests).toHaveLength(0);
  });

  it('the process killed from outside: the running turn fails with a clear error, later sends too, nothing is left', async () => {
    const { model, opts } = await fake([{ kind: 'hang', after: 'first-event' }]);
    const live = await open(opts);
    await expectKilledFromOutside(live, model);
  });
});
