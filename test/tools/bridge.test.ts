// The tool bridge on its own, driven by the MCP SDK's client as a CLI would: what the CLI sees,
// validation, results, errors, the secret, abort and shutdown.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startToolBridge, type ToolBridge } from '../../src/core/tools/tool-bridge.js';
import { InvalidOptionsError, tool, type Tool } from '../../src/index.js';
import { deferred } from './support.js';

const bridges: ToolBridge[] = [];
const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await Promise.all(bridges.splice(0).map((bridge) => bridge.close()));
});

async function bridgeFor(tools: Tool[], runSignal = new AbortController().signal): Promise<ToolBridge> {
  const bridge = await startToolBridge({ tools, runSignal });
  bridges.push(bridge);
  return bridge;
}

async function connect(bridge: ToolBridge, headers: Record<string, string> = bridge.headers): Promise<Client> {
  const client = new Client({ name: 'test-cli', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(bridge.url), { requestInit: { headers } }));
  clients.push(client);
  return client;
}

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
const post = (url: string, headers: Record<string, string>) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(initialize) });

describe('tool()', () => {
  it('refuses a name the model APIs would not accept, and a non-object input', () => {
    const handler = () => 'x';
    expect(() => tool({ name: 'has space', description: '', input: z.object({}), handler })).toThrow(InvalidOptionsError);
    expect(() => tool({ name: 'n', description: '', input: z.string(), handler })).toThrow(/object schema/);
  });
});

describe('tool bridge', () => {
  const calls: unknown[] = [];
  const lookup = tool({
    name: 'lookup_ticket',
    description: 'Looks a ticket up',
    input: z.object({ id: z.string(), verbose: z.boolean().default(false) }),
    handler: ({ id, verbose }) => {
      calls.push({ id, verbose });
      return { text: `ticket ${id}: open` };
    },
  });
  afterEach(() => void calls.splice(0));

  it('lists each tool with its JSON Schema; a call gets the parsed input and its text back', async () => {
    const client = await connect(await bridgeFor([lookup]));
    const { tools } = await client.listTools();
    expect(tools).toEqual([
      expect.objectContaining({
        name: 'lookup_ticket',
        description: 'Looks a ticket up',
        inputSchema: expect.objectContaining({ type: 'object', required: ['id'], properties: { id: { type: 'string' }, verbose: { type: 'boolean', default: false } } }),
      }),
    ]);
    const result = await client.callTool({ name: 'lookup_ticket', arguments: { id: '42' } });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'ticket 42: open' }] });
    expect(result.isError).toBeFalsy();
    expect(calls).toEqual([{ id: '42', verbose: false }]);
  });

  it('invalid input is a tool error naming the problem, and the handler is not called', async () => {
    const client = await connect(await bridgeFor([lookup]));
    const result = await client.callTool({ name: 'lookup_ticket', arguments: { id: 42 } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/Invalid input for lookup_ticket: id: .*string/);
    expect(calls).toEqual([]);
  });

  it('text, JSON and MCP content results; a thrown error and isError become error results', async () => {
    const make = (name: string, handler: () => unknown) =>
      tool({ name, description: name, input: z.object({}), handler: handler as () => string });
    const client = await connect(
      await bridgeFor([
        make('plain', () => 'just text'),
        make('json', () => ({ json: { open: 3, ids: [1, 2] } })),
        make('content', () => ({ content: [{ type: 'text', text: 'a' }, { type: 'image', data: 'aGk=', mimeType: 'image/png' }] })),
        make('throws', () => {
          throw new Error('database is down');
        }),
        make('soft_error', () => ({ text: 'no such ticket', isError: true })),
      ]),
    );
    const call = (name: string) => client.callTool({ name, arguments: {} });
    expect(await call('plain')).toMatchObject({ content: [{ type: 'text', text: 'just text' }] });
    expect(await call('json')).toMatchObject({ content: [{ type: 'text', text: '{"open":3,"ids":[1,2]}' }] });
    expect((await call('content')).content).toEqual([{ type: 'text', text: 'a' }, { type: 'image', data: 'aGk=', mimeType: 'image/png' }]);
    expect(await call('throws')).toMatchObject({ isError: true, content: [{ type: 'text', text: 'database is down' }] });
    expect(await call('soft_error')).toMatchObject({ isError: true, content: [{ type: 'text', text: 'no such ticket' }] });
    expect(await call('missing')).toMatchObject({ isError: true });
  });

  it('listens on 127.0.0.1 only, and refuses a request without the secret or with a wrong one', async () => {
    const bridge = await bridgeFor([lookup]);
    expect(new URL(bridge.url).hostname).toBe('127.0.0.1');
    expect((await post(bridge.url, {})).status).toBe(401);
    expect((await post(bridge.url, { authorization: 'Bearer wrong' })).status).toBe(401);
    expect((await post(bridge.url, { authorization: bridge.headers.Authorization!.slice(0, -1) })).status).toBe(401);
    await expect(connect(bridge, {})).rejects.toThrow();
    expect((await post(bridge.url, bridge.headers)).status).toBe(200);
    // Each run has its own secret.
    expect((await bridgeFor([lookup])).secret).not.toBe(bridge.secret);
  });

  it('aborting the run fires the signal of a running handler; close releases the port', async () => {
    const run = new AbortController();
    let handlerSignal: AbortSignal | undefined;
    const started = deferred<void>();
    const slow = tool({
      name: 'slow',
      description: 'never finishes on its own',
      input: z.object({}),
      handler: (_input, { signal }) => {
        handlerSignal = signal;
        started.resolve();
        return new Promise<string>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('stopped'))));
      },
    });
    const bridge = await bridgeFor([slow], run.signal);
    const client = await connect(bridge);
    const pending = client.callTool({ name: 'slow', arguments: {} });
    await started.promise;
    expect(handlerSignal?.aborted).toBe(false);
    run.abort();
    expect(handlerSignal?.aborted).toBe(true);
    expect(await pending).toMatchObject({ isError: true, content: [{ type: 'text', text: 'stopped' }] });

    await bridge.close();
    await expect(post(bridge.url, bridge.headers)).rejects.toThrow();
  });

  it('closing the bridge cancels a call still running', async () => {
    const seen = deferred<AbortSignal>();
    const hang = tool({ name: 'hang', description: '', input: z.object({}), handler: (_input, { signal }) => (seen.resolve(signal), new Promise<string>(() => undefined)) });
    const bridge = await bridgeFor([hang]);
    const client = await connect(bridge);
    void client.callTool({ name: 'hang', arguments: {} }).catch(() => undefined);
    const signal = await seen.promise;
    await bridge.close();
    expect(signal.aborted).toBe(true);
  });
});
