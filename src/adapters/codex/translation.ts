// Codex's pure face (coderline/replay): the exec translator, and the app-server's routing and live
// translator, with nothing that starts a process or reads a file, so a recording replays in a browser too.
import type { LiveTranslation, TranslationSpec } from '../../core/contract/adapter.js';
import { jsonRpc } from '../../core/contract/json-rpc.js';
import { isJsonObject } from '../../schema/json.js';
import { createCodexLiveTranslator } from './live-translate.js';
import { withToolFacts } from '../../core/translate/tool-facts.js';
import { codexItemToolCatalog } from './tool-facts.js';
import { createCodexTranslator } from './translate.js';

export const codexLiveTranslation: LiveTranslation = {
  dialect: jsonRpc,
  endsTurn: (record) => isJsonObject(record) && record.method === 'turn/completed',
  createTranslator: (ctx) => withToolFacts(codexItemToolCatalog, createCodexLiveTranslator(ctx)),
};

export const codexTranslation: TranslationSpec<'codex'> = {
  name: 'codex',
  createTranslator: (ctx) => withToolFacts(codexItemToolCatalog, createCodexTranslator(ctx)),
  live: codexLiveTranslation,
};
