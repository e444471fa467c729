// JSON-RPC 2.0 as an RpcDialect. Pure, apart from the channel that speaks it (protocols/channel.ts), so a
// recording's lines can be routed by it where no process runs (coderline/replay).
import { isJsonObject } from '../../schema/json.js';
import type { MessageId, RpcDialect } from './dialect.js';

const isId = (value: unknown): value is MessageId => typeof value === 'string' || typeof value === 'number';

/** JSON-RPC 2.0: a request body is `{ method, params }`. */
export const jsonRpc: RpcDialect = {
  request: (id, body) => ({ jsonrpc: '2.0', id, ...(body as object) }),
  response(message) {
    if (!isJsonObject(message) || !isId(message.id) || 'method' in message) return undefined;
    if ('error' in message) {
      const error = isJsonObject(message.error) && typeof message.error.message === 'string' ? message.error.message : JSON.stringify(message.error);
      return { id: message.id, ok: false, error };
    }
    return 'result' in message ? { id: message.id, ok: true, result: message.result } : undefined;
  },
  incoming: (message) =>
    isJsonObject(message) && isId(message.id) && typeof message.method === 'string'
      ? { id: message.id, body: { method: message.method, params: message.params } }
      : undefined,
  reply: (id, outcome) => (outcome.ok ? { jsonrpc: '2.0', id, result: outcome.result } : { jsonrpc: '2.0', id, error: { code: -32000, message: outcome.error } }),
  cancelled: (message) =>
    isJsonObject(message) && message.method === '$/cancelRequest' && isJsonObject(message.params) && isId(message.params.id) ? message.params.id : undefined,
  notification: (body) => ({ jsonrpc: '2.0', ...(body as object) }),
};
