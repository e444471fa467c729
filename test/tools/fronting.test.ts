// The bridge fronting one of the caller's MCP servers, driven by the MCP SDK's client as a CLI would:
// every page of the server's tools/list re-served unchanged at /mcp/<name>, a call forwarded with its
// result as the server gave it, a denied tool neither listed nor forwarded, and the server's path
// answering only with the bridge's secret.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { TranslatedEvent } from '../../src/events.js';
import { bridgeGate, type BridgeGate } from '../../src/core/tools/bridge-gate.js';
import { startToolBridge, type ToolBridge } from '../../src/core/tools/tool-bridge.js';
import type { ResolvedOpts } from '../../src/options.js';
import { startMcpHttpServer } from '../support/mcp-http.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => void (await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()))));

const tools = [
  { name: 'read_row', description: 'Reads a row', inputSchema: { type: 'object' as const, properties: { id: { type: 'number' } } }, annotations: { readOnlyHint: true } },
  { name: 'drop_table', description: 'Drops a table', inputSchema: { type: 'object' as const } },
];
const called: string[] = [];
afterEach(() => void called.splice(0));

/** A database-like server on streamable HTTP that lists its tools one per page and wants a header. */
function upstream(): Promise<string> {
  return startMcpHttpServer('db', (mcp) => {
    mcp.setRequestHandler(ListToolsRequestSchema, (request) => {
      const page = Number(request.params?.cursor ?? 0);
      return { tools: [tools[page]!], ...(page + 1 < tools.length ? { nextCursor: String(page + 1) } : {}) };
    });
    mcp.setRequestHandler(CallToolRequestSchema, (request) => {
      called.push(request.params.name);
      return { content: [{ type: 'text', text: `${request.params.name} done` }], structuredContent: { ok: true } };
    });
  }, (req) => req.headers['x-db-token'] === 'db-token');
}

async function fronting(opts: Partial<ResolvedOpts>): Promise<{ bridge: ToolBridge; events: TranslatedEvent[]; gate: BridgeGate }> {
  const events: TranslatedEvent[] = [];
  const gate = bridgeGate(opts as ResolvedOpts, (event) => events.push(event));
  const bridge = await startToolBridge({
    tools: [],
    runSignal: new AbortController().signal,
    mcpServers: { entries: [['db', { url: await upstream(), headers: { 'x-db-token': 'db-token' } }]], context: { env: {}, cwd: process.cwd() } },
    gate,
  });
  cleanups.push(() => bridge.close());
  return { bridge, events, gate };
}

async function connect(url: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'test-cli', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  cleanups.push(() => client.close());
  return client;
}

describe('the bridge fronting an MCP server', () => {
  it('serves every page of its tools unchanged at /mcp/<name>, and forwards a call with the result as given', async () => {
    const { bridge } = await fronting({});
    expect(bridge.servers).toEqual([{ name: 'db', url: bridge.url.replace(/\/mcp$/, '/mcp/db'), toolNames: ['read_row', 'drop_table'] }]);
    const client = await connect(bridge.servers[0]!.url, bridge.headers);
    expect((await client.listTools()).tools).toEqual(tools);
    expect(await client.callTool({ name: 'read_row', arguments: { id: 1 } })).toEqual({ content: [{ type: 'text', text: 'read_row done' }], structuredContent: { ok: true } });
    expect(called).toEqual(['read_row']);
  });

  it('a tool permissionPolicy.deny names (mcp__<server>__<tool>) is not listed and not forwarded', async () => {
    const { bridge, events, gate } = await fronting({ permissionPolicy: { deny: ['mcp__db__drop_table'] } });
    expect(bridge.servers[0]!.toolNames).toEqual(['read_row']);
    const client = await connect(bridge.servers[0]!.url, bridge.headers);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['read_row']);
    expect(await client.callTool({ name: 'drop_table', arguments: {} })).toMatchObject({ isError: true, content: [{ text: 'mcp__db__drop_table is denied by permissionPolicy.deny' }] });
    expect(called).toEqual([]);
    gate.flush();
    expect(events).toContainEqual(expect.objectContaining({ subtype: 'tool_bridge.call', extra: expect.objectContaining({ server: 'db', tool: 'drop_table', decision: 'deny' }) }));
  });

  it('the server\'s path needs the bridge\'s secret; the caller\'s header is not it', async () => {
    const { bridge } = await fronting({});
    await expect(connect(bridge.servers[0]!.url, { 'x-db-token': 'db-token' })).rejects.toThrow();
    await expect(connect(bridge.url.replace(/\/mcp$/, '/mcp/nosuch'), bridge.headers)).rejects.toThrow();
  });
});
