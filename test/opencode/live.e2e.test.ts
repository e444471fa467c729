// OpenCode live sessions end to end: the real `opencode acp` 1.18.33 (Agent Client Protocol v1) on
// the shared ACP client, one process for many turns, against the fake chat-completions server.
// One session carries most assertions: the CLI takes seconds to start.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { opencodeAdapter } from '../../src/adapters/opencode/index.js';
import type { PermissionRequest } from '../../src/index.js';
import { ofType } from '../support/events.js';
import { fakeForLive, openLive } from '../support/live.js';
import { isGroupAlive, processTable } from '../support/processes.js';
import { waitFor } from '../support/wait.js';

const bash = (command: string, id: string) => ({ name: 'bash', input: { command, description: 'live test command' }, id });
const requestText = (request: unknown) => JSON.stringify((request as { body?: unknown } | undefined)?.body ?? null);

describe('opencode live session over ACP (real binary, fake chat completions)', () => {
  it('two turns in one process; canUseTool sees every tool (a read too), allow and deny; interrupt; close with nothing left', async () => {
    const { model, opts, workDir } = await fakeForLive('opencode', [
      { text: 'Noted: apricot.' },
      { text: 'The word was apricot.' },
      { toolCalls: [bash('touch allowed.txt', 'call_allow')] },
      { text: 'Touched it.' },
      // A refusal ends the turn: OpenCode calls the model no more in it.
      { toolCalls: [{ name: 'read', input: { filePath: 'notes.txt' }, id: 'call_read' }] },
      { kind: 'hang', after: 'first-event' },
      { text: 'Still here.' },
    ]);
    writeFileSync(join(workDir, 'notes.txt'), 'notes');
    const seen: PermissionRequest[] = [];
    const live = await openLive(opencodeAdapter, {
      ...opts,
      canUseTool: (request) => (seen.push(request), request.tool?.kind === 'shell' ? { behavior: 'allow' } : { behavior: 'deny' }),
    });
    expect(live.id).toMatch(/^ses_\w+$/);

    const one = await live.send('Remember the word apricot.').result;
    const two = await live.send('What was the word?').result;
    expect(one).toMatchObject({ provider: 'opencode', status: 'success', text: 'Noted: apricot.', pid: live.pid, sessionId: live.id });
    expect(two).toMatchObject({ status: 'success', text: 'The word was apricot.', pid: live.pid });
    expect(requestText(model.requests[1])).toContain('Noted: apricot.');

    const allowed = await live.send('Touch allowed.txt.', { collectEvents: true }).result;
    expect(allowed).toMatchObject({ status: 'success', text: 'Touched it.' });
    expect(existsSync(join(workDir, 'allowed.txt'))).toBe(true);
    expect(ofType(allowed.events, 'permission').map((event) => event.phase)).toEqual(['request', 'decision']);

    // A read inside the working directory, which OpenCode allows by default, is asked too: the gate sees it.
    const denied = await live.send('Read notes.txt.', { collectEvents: true }).result;
    expect(ofType(denied.events, 'permission').find((event) => event.phase === 'decision')).toMatchObject({ decision: 'deny' });
    expect(ofType(denied.events, 'tool_result').at(-1)).toMatchObject({ isError: true });
    expect(seen.map((request) => request.tool?.kind)).toEqual(['shell', 'read']);

    const requestsBefore = model.requests.length;
    const stuck = live.send('Think forever.');
    await waitFor(() => model.requests.length > requestsBefore);
    await live.interrupt();
    expect(await stuck.result).toMatchObject({ status: 'cancelled', pid: live.pid });
    expect(await live.send('Are you there?').result).toMatchObject({ status: 'success', text: 'Still here.', pid: live.pid });

    // Its API server listens on loopback only, for the session's life.
    const pid = live.pid!;
    await live.close();
    expect(isGroupAlive(pid)).toBe(false);
    expect(processTable().filter((row) => row.pgid === pid)).toEqual([]);
  });

  it('a failed model call fails its turn (OpenCode sends the API\'s message, not its status), and the next turn answers', async () => {
    let failing = true;
    const { opts } = await fakeForLive('opencode', () => (failing ? { kind: 'error', status: 401, message: 'Invalid API key' } : { text: 'Back again.' }));
    const live = await openLive(opencodeAdapter, opts);
    expect(await live.send('Say hi.').result).toMatchObject({ status: 'error', error: { code: 'auth', message: expect.stringContaining('Invalid API key') }, pid: live.pid });
    failing = false;
    expect(await live.send('Are you back?').result).toMatchObject({ status: 'success', text: 'Back again.', pid: live.pid });
  });
});
