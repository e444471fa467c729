// pi live sessions end to end: the real `pi` 1.6.0 (on the pinned Node 22) in `--mode rpc`, one
// process for many turns, against the fake chat-completions server on 127.0.0.1.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { piAdapter } from '../../src/adapters/pi/index.js';
import { run, type OneShotOpts, type PermissionRequest } from '../../src/index.js';
import { startFakeModel, type FakeModel, type Script } from '../../src/testing/index.js';
import { PI_FAKE_PLAIN_MODEL, PI_FAKE_PROVIDER } from '../../src/testing/pi-env.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { chatBody, contentText, expectKilledFromOutside, expectModelErrorsFailOnlyTheirTurn, failingModel, openLive, resumeBothWays, resumeScript, toolMessage } from '../support/live.js';
import { expectDeniedByFailingPolicy, failingPolicy } from '../support/permission.js';
import { withPinnedRuntime } from '../support/pinned-clis.js';
import { waitFor } from '../support/wait.js';

async function fake(script: Script): Promise<{ model: FakeModel; opts: OneShotOpts; workDir: string }> {
  const model = await startFakeModel({ api: 'openai-chat', script });
  const workDir = await mkdtemp(join(tmpdir(), 'coderline-pi-live-'));
  cleanupAfterTest(() => model.close(), () => rm(workDir, { recursive: true, force: true }));
  return { model, opts: withPinnedRuntime('pi', { ...(await model.env('pi', { requestTimeoutMs: 120_000 })), workingDirectory: workDir }), workDir };
}

const open = (opts: OneShotOpts) => openLive(piAdapter, opts);
const bash = (command: string) => ({ toolCalls: [{ name: 'bash', input: { command }, id: 'call_live_1' }] });

describe('pi live session (real binary, fake model)', () => {
  it('two turns in one process: same pid, the second request carries the first turn', async () => {
    const { model, opts } = await fake([{ text: 'Noted: apricot.' }, { text: 'The word was apricot.' }]);
    const live = await open(opts);
    const one = await live.send('Remember the word apricot.').result;
    const two = await live.send('What was the word?').result;
    expect(one).toMatchObject({ status: 'success', text: 'Noted: apricot.', pid: live.pid });
    expect(two).toMatchObject({ status: 'success', text: 'The word was apricot.', pid: live.pid });
    expect(model.requests).toHaveLength(2);
    expect(JSON.stringify(chatBody(model.requests[1]).messages)).toContain('Noted: apricot.');
  });

  it('a live session has its id before a turn (rpc mode prints none: get_state names it), resumes one-shot, and a live process can continue it', async () => {
    const { model, opts } = await fake(resumeScript);
    const { first, oneShot, reopened } = await resumeBothWays(piAdapter, opts);
    expect(first.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(oneShot).toMatchObject({ status: 'success', sessionId: first.sessionId });
    expect(JSON.stringify(chatBody(model.requests[1]).messages)).toContain('Noted: quince.');
    expect(reopened).toMatchObject({ status: 'success', text: 'Still quince.', sessionId: first.sessionId });
    expect(JSON.stringify(chatBody(model.requests[2]).messages)).toContain('It was quince.');
  });

  it('interrupt() ends a turn stuck on a hung model as cancelled; the next turn runs in the same process', async () => {
    const { model, opts } = await fake((_request, index) => (index === 0 ? { kind: 'hang', after: 'first-event' } : { text: 'Back again.' }));
    const live = await open(opts);
    const stuck = live.send('Think forever.');
    await waitFor(() => model.requests.length === 1);
    await live.interrupt();
    expect(await stuck.result).toMatchObject({ status: 'cancelled', error: { code: 'aborted' } });
    expect(await live.send('Are you there?').result).toMatchObject({ status: 'success', text: 'Back again.', pid: live.pid });
  });

  it('steer() while a tool runs: the message reaches the model in the same turn', async () => {
    const { model, opts } = await fake([bash('sleep 3'), { text: 'Saw the steer.' }, { text: 'Next.' }]);
    const live = await open(opts);
    const turn = live.send('Run it.');
    for await (const event of turn) if (event.type === 'tool_use') live.steer('STEERED: mind the tests.');
    expect(await turn.result).toMatchObject({ status: 'success', text: 'Saw the steer.' });
    expect(JSON.stringify(chatBody(model.requests[1]).messages)).toContain('STEERED: mind the tests.');
    expect((await live.send('Again.').result).text).toBe('Next.');
  });

  describe('canUseTool (through the extension the SDK installs)', () => {
    it('every tool call is asked about: a denying callback saw both calls and neither ran', async () => {
      const { opts, workDir } = await fake([
        { toolCalls: [{ name: 'bash', input: { command: 'touch one.txt' }, id: 'call_a' }, { name: 'write', input: { path: 'two.txt', content: 'x' }, id: 'call_b' }] },
        { text: 'Both refused.' },
      ]);
      const seen: string[] = [];
      const live = await open({ ...opts, canUseTool: (request) => (seen.push(`${request.toolName}:${request.toolUseId}`), { behavior: 'deny' }) });
      expect((await live.send('Make two files.').result).status).toBe('success');
      expect(seen.sort()).toEqual(['bash:call_a', 'write:call_b']);
      expect(existsSync(join(workDir, 'one.txt'))).toBe(false);
      expect(existsSync(join(workDir, 'two.txt'))).toBe(false);
    });

    it('allow: the command runs and the callback saw it', async () => {
      const { opts, workDir } = await fake([bash('touch allowed.txt'), { text: 'Done.' }]);
      const seen: PermissionRequest[] = [];
      const live = await open({ ...opts, canUseTool: (request) => (seen.push(request), { behavior: 'allow' }) });
      const result = await live.send('Touch it.', { collectEvents: true }).result;
      expect(result.status).toBe('success');
      expect(existsSync(join(workDir, 'allowed.txt'))).toBe(true);
      expect(seen).toEqual([expect.objectContaining({ toolName: 'bash', toolUseId: 'call_live_1', input: { command: 'touch allowed.txt' } })]);
      expect(result.events?.filter((e) => e.type === 'permission').map((e) => (e.type === 'permission' ? e.phase : ''))).toEqual(['request', 'decision']);
    });

    it('deny with a message: not run, the model is told the message', async () => {
      const { model, opts, workDir } = await fake([bash('touch denied.txt'), { text: 'Refused.' }]);
      const live = await open({ ...opts, canUseTool: () => ({ behavior: 'deny', message: 'No files today, says the host.' }) });
      expect((await live.send('Touch it.').result).status).toBe('success');
      expect(existsSync(join(workDir, 'denied.txt'))).toBe(false);
      expect(contentText(toolMessage(model.requests[1])?.content)).toContain('No files today, says the host.');
    });

    it('allow with changed input runs the changed command', async () => {
      const { opts, workDir } = await fake([bash('touch original.txt'), { text: 'Done.' }]);
      const live = await open({ ...opts, canUseTool: () => ({ behavior: 'allow', updatedInput: { command: 'touch changed.txt' } }) });
      expect((await live.send('Touch it.').result).status).toBe('success');
      expect(existsSync(join(workDir, 'changed.txt'))).toBe(true);
      expect(existsSync(join(workDir, 'original.txt'))).toBe(false);
    });

    it('a callback that throws denies, with a non-fatal error event', async () => {
      const { opts, workDir } = await fake([bash('touch thrown.txt'), { text: 'Done.' }]);
      const live = await open({ ...opts, canUseTool: failingPolicy });
      expectDeniedByFailingPolicy(await live.send('Touch it.', { collectEvents: true }).result, join(workDir, 'thrown.txt'));
    });

    it('one-shot run() with canUseTool is refused before anything spawns (pi asks only in a live session)', async () => {
      await expect(run(piAdapter, 'Hi', { executablePath: '/nonexistent/pi', canUseTool: () => ({ behavior: 'allow' }) })).rejects.toMatchObject({ code: 'feature_not_supported' });
    });
  });

  it('setModel() between turns: the next request uses the new model', async () => {
    const { model, opts } = await fake([{ text: 'ok' }]);
    const live = await open(opts);
    await live.send('First.').result;
    await live.setModel(`${PI_FAKE_PROVIDER}/${PI_FAKE_PLAIN_MODEL}`);
    await live.send('Second.').result;
    expect(model.requests.map((request) => chatBody(request).model)).toEqual(['fake-model', PI_FAKE_PLAIN_MODEL]);
  });

  it('a failed model call (HTTP 500 after retries, then 401) fails only its turn, with the one-shot code; the next turn succeeds', async () => {
    const failing = failingModel();
    const { opts } = await fake(failing.script);
    const live = await open(opts);
    await expectModelErrorsFailOnlyTheirTurn(live, failing);
  });

  it('the process killed from outside: the running turn fails with a clear error, later sends too, nothing is left', async () => {
    const { model, opts } = await fake([{ kind: 'hang', after: 'first-event' }]);
    const live = await open(opts);
    await expectKilledFromOutside(live, model);
  });
});
