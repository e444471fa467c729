// Gemini live sessions end to end: the real `gemini` 0.61.0 in `--acp` mode (Agent Client Protocol v1)
// on the shared ACP client, one process for many turns, against the fake Gemini API on 127.0.0.1.
// One session carries most assertions: the CLI takes seconds to start.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { geminiAdapter } from '../../src/adapters/gemini/index.js';
import { createCoder, FeatureNotSupportedError, run, type PermissionRequest } from '../../src/index.js';
import type { RecordedRequest } from '../../src/testing/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { ofType } from '../support/events.js';
import { expectModelErrorsFailOnlyTheirTurn, failingModel, fakeForLive, openLive } from '../support/live.js';
import { isGroupAlive } from '../support/processes.js';
import { waitFor } from '../support/wait.js';

const shell = (command: string, id: string) => ({ name: 'run_shell_command', input: { command, description: 'live test command' }, id });
/** Every text part of a request's contents, in order. */
const texts = (request: RecordedRequest | undefined) => JSON.stringify((request?.body as { contents?: unknown } | undefined)?.contents ?? null);

describe('gemini live session over ACP (real binary, fake Gemini API)', () => {
  it('two turns in one process, canUseTool allow and deny on shell commands, interrupt, close with nothing left', async () => {
    const { model, opts, workDir } = await fakeForLive('gemini', [
      { text: 'Noted: apricot.' },
      { text: 'The word was apricot.' },
      { toolCalls: [shell('touch allowed.txt', 'call_allow')] },
      { text: 'Touched it.' },
      { toolCalls: [shell('touch denied.txt', 'call_deny')] },
      { text: 'It was refused.' },
      { kind: 'hang', after: 'first-event' },
      { text: 'Still here.' },
    ]);
    const seen: PermissionRequest[] = [];
    const live = await openLive(geminiAdapter, {
      ...opts,
      canUseTool: (request) => (seen.push(request), request.tool?.command?.includes('allowed') ? { behavior: 'allow' } : { behavior: 'deny' }),
    });
    expect(live.id).toMatch(/^[0-9a-f-]{36}$/);

    const one = await live.send('Remember the word apricot.').result;
    const two = await live.send('What was the word?').result;
    expect(one).toMatchObject({ provider: 'gemini', status: 'success', text: 'Noted: apricot.', pid: live.pid, sessionId: live.id });
    expect(two).toMatchObject({ status: 'success', text: 'The word was apricot.', pid: live.pid, sessionId: live.id });
    expect(one.usage.inputTokens).toBeGreaterThan(0);
    expect(texts(model.requests[1])).toContain('Remember the word apricot.');
    expect(texts(model.requests[1])).toContain('Noted: apricot.');

    const allowed = await live.send('Touch allowed.txt.', { collectEvents: true }).result;
    expect(allowed).toMatchObject({ status: 'success', text: 'Touched it.' });
    expect(existsSync(join(workDir, 'allowed.txt'))).toBe(true);
    expect(ofType(allowed.events, 'permission').map((event) => [event.phase, event.tool?.kind])).toEqual([['request', 'shell'], ['decision', 'shell']]);
    // Gemini announces no call (no tool_call update): its tool_use comes with the question.
    const ran = { kind: 'shell', command: 'touch allowed.txt' };
    expect(ofType(allowed.events, 'tool_use')).toEqual([expect.objectContaining({ name: 'execute', tool: expect.objectContaining(ran) })]);
    expect(ofType(allowed.events, 'tool_result')).toEqual([expect.objectContaining({ isError: false, tool: expect.objectContaining(ran) })]);

    const denied = await live.send('Touch denied.txt.', { collectEvents: true }).result;
    expect(existsSync(join(workDir, 'denied.txt'))).toBe(false);
    expect(ofType(denied.events, 'permission').find((event) => event.phase === 'decision')).toMatchObject({ decision: 'deny' });
    // A denied call has no record but its question: that is where its tool_use comes from.
    expect(ofType(denied.events, 'tool_use')).toEqual([expect.objectContaining({ name: 'execute', tool: expect.objectContaining({ kind: 'shell', command: 'touch denied.txt' }) })]);
    expect(seen.map((request) => [request.toolName, request.tool?.kind, request.tool?.command])).toEqual([
      ['execute', 'shell', expect.stringContaining('touch allowed.txt')],
      ['execute', 'shell', expect.stringContaining('touch denied.txt')],
    ]);

    const requestsBefore = model.requests.length;
    const stuck = live.send('Think forever.');
    await waitFor(() => model.requests.length > requestsBefore);
    await live.interrupt();
    expect(await stuck.result).toMatchObject({ status: 'cancelled', error: { code: 'aborted' }, pid: live.pid });
    expect(await live.send('Are you there?').result).toMatchObject({ status: 'success', text: 'Still here.', pid: live.pid });

    await live.close();
    expect(isGroupAlive(live.pid!)).toBe(false);
  });

  it('a failed model call (the prompt\'s JSON-RPC error) fails its turn with the code a one-shot run gives; the next turn answers', async () => {
    const failing = failingModel();
    const { opts } = await fakeForLive('gemini', failing.script);
    await expectModelErrorsFailOnlyTheirTurn(await openLive(geminiAdapter, opts), failing);
  });

  it('fails fast where Gemini cannot: open on a stored session (0.61.0 loses it), canUseTool one-shot', async () => {
    const { opts } = await fakeForLive('gemini', []);
    const coder = createCoder(geminiAdapter, opts);
    cleanupAfterTest(() => coder.close());
    await expect(coder.open({}, { sessionId: '85a7f08a-546a-437c-aaed-a1687b2085ae' })).rejects.toBeInstanceOf(FeatureNotSupportedError);
    await expect(run(geminiAdapter, 'Hi.', { ...opts, canUseTool: () => ({ behavior: 'allow' }) })).rejects.toMatchObject({ name: 'FeatureNotSupportedError', option: 'canUseTool' });
  });
});
