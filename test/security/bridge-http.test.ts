// A direct HTTP caller of the bridge (issue 28, gate2 point 3): the agent's own shell holds the secret
// (it runs as the user), so everything it can send the bridge is the attacker's.
import { connect as tcpConnect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { bridgeGate } from '../../src/core/tools/bridge-gate.js';
import { startToolBridge, type ToolBridge } from '../../src/core/tools/tool-bridge.js';
import { tool } from '../../src/index.js';
import type { ResolvedOpts } from '../../src/options.js';

const bridges: ToolBridge[] = [];
afterEach(async () => void (await Promise.all(bridges.splice(0).map((bridge) => bridge.close()))));

const wiped: unknown[] = [];
afterEach(() => void wiped.splice(0));
const wipe = tool({ name: 'wipe', description: 'Deletes everything', input: z.object({}), handler: () => (wiped.push(1), 'wiped') });
const ticket = tool({ name: 'ticket', description: 'A ticket', input: z.object({}), handler: () => 'open' });

async function bridgeDenyingWipe(): Promise<ToolBridge> {
  const gate = bridgeGate({ permissionPolicy: { deny: ['wipe'] } } as ResolvedOpts, () => undefined);
  const bridge = await startToolBridge({ tools: [wipe, ticket], runSignal: new AbortController().signal, gate });
  bridges.push(bridge);
  return bridge;
}

const rpc = (id: number, method: string, params: unknown = {}) => ({ jsonrpc: '2.0', id, method, params });
const initialize = rpc(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } });
const callWipe = (id: number) => rpc(id, 'tools/call', { name: 'wipe', arguments: {} });

async function post(bridge: ToolBridge, body: unknown, session?: string) {
  const response = await fetch(bridge.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...bridge.headers, ...(session ? { 'mcp-session-id': session } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: response.status, session: response.headers.get('mcp-session-id') ?? undefined, text: await response.text() };
}

describe('a direct caller of the bridge', () => {
  it('a call before initialize, or a batch that carries initialize and a call, runs nothing', async () => {
    const bridge = await bridgeDenyingWipe();
    expect((await post(bridge, callWipe(2))).status).toBe(404);
    expect((await post(bridge, [initialize, callWipe(2)])).status).toBe(404);
    expect(wiped).toEqual([]);
  });

  it('a batch of calls in a session is gated call by call: the denied tool runs for none of them', async () => {
    const bridge = await bridgeDenyingWipe();
    const { session } = await post(bridge, initialize);
    await post(bridge, { jsonrpc: '2.0', method: 'notifications/initialized' }, session);
    const batch = await post(bridge, [callWipe(2), callWipe(3), rpc(4, 'tools/call', { name: 'ticket', arguments: {} })], session);
    expect(wiped).toEqual([]);
    expect(batch.text).toContain('wipe is denied by permissionPolicy.deny');
  });

  it('a body over the limit is refused (413) and runs nothing', async () => {
    const bridge = await bridgeDenyingWipe();
    const { session } = await post(bridge, initialize);
    const huge = JSON.stringify({ ...callWipe(2), params: { name: 'wipe', arguments: { pad: 'x'.repeat(9 * 1024 * 1024) } } });
    expect((await post(bridge, huge, session)).status).toBe(413);
    expect(wiped).toEqual([]);
  });

  // The attacker's step: the shell opens a request to the bridge and sends its body a byte at a time, or
  // never finishes it (slowloris), so that the run's end would wait on it.
  it('a body that never ends does not hold up the bridge\'s close', async () => {
    const bridge = await bridgeDenyingWipe();
    const { port } = new URL(bridge.url);
    const socket = tcpConnect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.on('error', () => undefined);
    socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${bridge.headers.Authorization}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"jsonrpc":`);
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await bridge.close();
    await closed;
    expect(socket.destroyed).toBe(true);
  });
});
