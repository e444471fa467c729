// Claude's pure face (coderline/replay): the translator and how a live session's lines are routed,
// with nothing that starts a process or reads a file, so a recording replays in a browser too.
import type { LiveTranslation, TranslationSpec } from '../../core/contract/adapter.js';
import type { RpcDialect } from '../../core/contract/dialect.js';
import { isJsonObject, stringOf } from '../../schema/json.js';
import { withToolFacts } from '../../core/translate/tool-facts.js';
import { claudeToolCatalog } from './tool-facts.js';
import { createClaudeTranslator } from './translate.js';

/** `control_request` / `control_response` / `control_cancel_request`, matched by `request_id`. */
const controlDialect: RpcDialect = {
  request: (id, body) => ({ type: 'control_request', request_id: id, request: body }),
  response(message) {
    if (!isJsonObject(message) || message.type !== 'control_response' || !isJsonObject(message.response)) return undefined;
    const { response } = message;
    const id = stringOf(response.request_id);
    if (id === undefined) return undefined;
    if (response.subtype === 'success') return { id, ok: true, result: response.response };
    return { id, ok: false, error: stringOf(response.error) ?? JSON.stringify(response) };
  },
  incoming(message) {
    if (!isJsonObject(message) || message.type !== 'control_request') return undefined;
    const id = stringOf(message.request_id);
    return id === undefined ? undefined : { id, body: message.request };
  },
  reply: (id, outcome) => ({
    type: 'control_response',
    response: outcome.ok ? { subtype: 'success', request_id: id, response: outcome.result } : { subtype: 'error', request_id: id, error: outcome.error },
  }),
  cancelled: (message) => (isJsonObject(message) && message.type === 'control_cancel_request' ? stringOf(message.request_id) : undefined),
};

export const claudeLiveTranslation: LiveTranslation = {
  dialect: controlDialect,
  endsTurn: (record) => isJsonObject(record) && record.type === 'result',
};

export const claudeTranslation: TranslationSpec<'claude'> = {
  name: 'claude',
  createTranslator: (ctx) => withToolFacts(claudeToolCatalog, createClaudeTranslator(ctx)),
  live: claudeLiveTranslation,
};
