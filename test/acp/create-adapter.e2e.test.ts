// createAcpAdapter() end to end: the real `copilot` 1.0.102 described only by a preset (command, args,
// env, credentials), driven by the shared ACP client as any ACP agent would be, against the fake
// chat-completions server on 127.0.0.1. One session for every assertion.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAcpAdapter, type PermissionRequest } from '../../src/index.js';
import { copilotBinary, copilotTestEnv } from '../../src/testing/copilot-env.js';
import { startFakeModel } from '../../src/testing/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { ofType } from '../support/events.js';
import { openLive } from '../support/live.js';
import { isGroupAlive } from '../support/processes.js';

const bash = (command: string, id: string) => ({ name: 'bash', input: { command, description: 'acp preset test' }, id });

describe('createAcpAdapter on a real ACP agent (copilot --acp from a preset)', () => {
  it('open, a text turn, a tool call allowed and one denied by canUseTool with tool facts, close with nothing left', async () => {
    const model = await startFakeModel({ api: 'openai-chat', script: [{ text: 'Hello over ACP.' }, { toolCalls: [bash('touch allowed.txt', 'call_allow')] }, { text: 'Touched.' }, { toolCalls: [bash('touch denied.txt', 'call_deny')] }] });
    const workDir = await mkdtemp(join(tmpdir(), 'coderline-acp-preset-'));
    cleanupAfterTest(() => model.close(), () => rm(workDir, { recursive: true, force: true }));
    const env = copilotTestEnv(model.url);
    const agent = createAcpAdapter({ name: 'my-copilot', command: copilotBinary, args: ['--acp'], env, credentials: ['COPILOT_PROVIDER_API_KEY'] });
    const seen: PermissionRequest[] = [];
    const live = await openLive(agent, {
      workingDirectory: workDir,
      unsetEnv: ['COPILOT_GITHUB_TOKEN', 'GH_TOKEN', 'GITHUB_TOKEN', 'COPILOT_ALLOW_ALL'],
      canUseTool: (request) => (seen.push(request), request.input.command === 'touch allowed.txt' ? { behavior: 'allow' } : { behavior: 'deny' }),
    });
    expect(live.id).toMatch(/^[0-9a-f-]{36}$/);

    const hello = await live.send('Say hello.', { collectEvents: true }).result;
    expect(hello).toMatchObject({ provider: 'my-copilot', status: 'success', text: 'Hello over ACP.', sessionId: live.id, pid: live.pid });
    expect(hello.events?.every((event) => event.provider === 'my-copilot')).toBe(true);

    const allowed = await live.send('Touch allowed.txt.', { collectEvents: true }).result;
    expect(allowed).toMatchObject({ status: 'success', text: 'Touched.', pid: live.pid });
    expect(existsSync(join(workDir, 'allowed.txt'))).toBe(true);
    const shell = { kind: 'shell', name: 'execute', command: 'touch allowed.txt' };
    expect(ofType(allowed.events, 'tool_use')[0]).toMatchObject({ id: 'call_allow', name: 'execute', tool: shell });
    expect(ofType(allowed.events, 'tool_result')[0]).toMatchObject({ id: 'call_allow', isError: false, tool: shell });
    expect(ofType(allowed.events, 'permission').map((event) => [event.phase, event.tool?.kind])).toEqual([['request', 'shell'], ['decision', 'shell']]);

    const denied = await live.send('Touch denied.txt.', { collectEvents: true }).result;
    expect(existsSync(join(workDir, 'denied.txt'))).toBe(false);
    expect(ofType(denied.events, 'permission').find((event) => event.phase === 'decision')).toMatchObject({ decision: 'deny', toolUseId: 'call_deny' });
    expect(ofType(denied.events, 'tool_result')[0]).toMatchObject({ id: 'call_deny', isError: true });
    expect(seen.map((request) => [request.toolUseId, request.tool?.kind, request.tool?.command])).toEqual([['call_allow', 'shell', 'touch allowed.txt'], ['call_deny', 'shell', 'touch denied.txt']]);

    await live.close();
    expect(isGroupAlive(live.pid!)).toBe(false);
  });
});
