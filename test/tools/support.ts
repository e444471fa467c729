// Shared by the custom-tool tests: a deferred promise (Node 20 has no Promise.withResolvers), a
// count of this process's listening servers, and a Responses server whose model can call Codex's
// `tool_search` (Codex 0.171 defers MCP tools behind it: a model must search before calling one).
import { z } from 'zod';
import { tool, type Tool, type ToolCallContext } from '../../src/index.js';
import { responseEvents } from '../../src/testing/openai-responses.js';
import type { Script } from '../../src/testing/script.js';
import { startFakeServer, startSse, writeSse, type FakeServer, type SseEvent } from '../../src/testing/server.js';

export function deferred<T>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

/** Listening TCP servers of this process (fake model servers and tool bridges). */
export function listeningServers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'TCPServerWrap').length;
}

/** The ticket tool of the docs example; every call is recorded with its input and signal. */
export function ticketTool(calls: Array<{ input: { id: string }; signal: AbortSignal }> = []): Tool<{ id: string }> {
  return tool({
    name: 'lookup_ticket',
    description: 'Looks up a ticket by id and tells its state',
    input: z.object({ id: z.string().regex(/^\d+$/, 'a ticket id is digits') }),
    handler: (input, { signal }: ToolCallContext) => {
      calls.push({ input, signal });
      return { text: `ticket ${input.id}: open` };
    },
  });
}

/** A scripted call of Codex's `tool_search` (turned into a `tool_search_call` item by the server below). */
export const codexToolSearch = (query: string) => ({ name: 'tool_search', input: { query, limit: 8 } });
/** Codex exposes the bridge's tools in this namespace once `tool_search` found them. */
export const codexBridgeNamespace = 'mcp__coderline';

/** The fake Responses server, with `tool_search` calls sent as the client-executed search item. */
export function startFakeResponsesWithToolSearch(script: Script): Promise<FakeServer> {
  return startFakeServer(script, {
    isModelCall: (request) => request.method === 'POST' && (request.path.split('?')[0] ?? '').endsWith('/responses'),
    async writeReply(res, step) {
      startSse(res);
      await writeSse(res, responseEvents(step).map(asToolSearch));
    },
    errorBody: (_status, message) => ({ error: { message, type: 'server_error' } }),
  });
}

function asToolSearch(event: SseEvent): SseEvent {
  const data = event.data as { type: string; item?: { type?: string; name?: string; arguments?: string } };
  const item = data.item;
  if (item?.type !== 'function_call' || item.name !== 'tool_search') return event;
  const { name: _name, arguments: args, ...rest } = item;
  return { ...event, data: { ...data, item: { ...rest, type: 'tool_search_call', execution: 'client', arguments: JSON.parse(args ?? '{}') as unknown } } };
}
