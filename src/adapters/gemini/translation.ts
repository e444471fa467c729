// Gemini's pure face (coderline/replay): the stream-json translator with the tool facts of its
// catalog, and ACP's routing and session translator, with nothing that starts a process or reads a file.
import type { TranslationSpec } from '../../core/contract/adapter.js';
import { acpLiveTranslation } from '../../core/acp/translation.js';
import { withToolFacts } from '../../core/translate/tool-facts.js';
import { geminiAcpTranslation } from './acp-translate.js';
import { geminiToolCatalog } from './tools.js';
import { createGeminiTranslator, runServers } from './translate.js';

export const geminiTranslation: TranslationSpec<'gemini'> = {
  name: 'gemini',
  createTranslator: (ctx) => withToolFacts(geminiToolCatalog(runServers(ctx)), createGeminiTranslator(ctx)),
  live: acpLiveTranslation(geminiAcpTranslation),
};
