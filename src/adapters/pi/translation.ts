// pi's pure face (coderline/replay): the translator and how an rpc-mode session's lines are routed,
// with nothing that starts a process or reads a file, so a recording replays in a browser too.
import type { LiveTranslation, TranslationSpec } from '../../core/contract/adapter.js';
import type { RpcDialect } from '../../core/contract/dialect.js';
import { isJsonObject, stringOf } from '../../schema/json.js';
import { withToolFacts } from '../../core/translate/tool-facts.js';
import { piToolCatalog } from './tool-facts.js';
import { createPiTranslator } from './translate.js';

/** The extension dialogs that wait for an answer (others, such as notify, are fire-and-forget). */
const DIALOGS = new Set(['select', 'confirm', 'input', 'editor']);
const rpcDialect: RpcDialect = {
  request: (id, body) => ({ id, ...(body as object) }),
  response(message) {
    if (!isJsonObject(message) || message.type !== 'response') return undefined;
    const id = stringOf(message.id);
    if (id === undefined) return undefined;
    return message.success === true ? { id, ok: true, result: message.data } : { id, ok: false, error: stringOf(message.error) ?? JSON.stringify(message) };
  },
  incoming(message) {
    if (!isJsonObject(message) || message.type !== 'extension_ui_request' || !DIALOGS.has(String(message.method))) return undefined;
    const id = stringOf(message.id);
    return id === undefined ? undefined : { id, body: message };
  },
  reply: (id, outcome) => ({ type: 'extension_ui_response', id, ...(outcome.ok ? (outcome.result as object) : { cancelled: true }) }),
};

/** rpc mode prints the events of `--mode json` between the answers, so the one-shot translator serves. */
export const piLiveTranslation: LiveTranslation = {
  dialect: rpcDialect,
  endsTurn: (record) => isJsonObject(record) && record.type === 'agent_settled',
};

export const piTranslation: TranslationSpec<'pi'> = {
  name: 'pi',
  createTranslator: (ctx) => withToolFacts(piToolCatalog, createPiTranslator(ctx)),
  live: piLiveTranslation,
};
