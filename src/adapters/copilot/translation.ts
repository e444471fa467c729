// Copilot's pure face (coderline/replay): the prompt-mode translator, and ACP's routing and session
// translator, with nothing that starts a process or reads a file, so a recording replays in a browser too.
import type { LiveTranslation, TranslationSpec } from '../../core/contract/adapter.js';
import { jsonRpc } from '../../core/contract/json-rpc.js';
import { acpAnswerRecord, createCopilotAcpTranslator, isAcpAnswer } from './acp-translate.js';
import { withToolFacts } from '../../core/translate/tool-facts.js';
import { copilotAcpToolCatalog, copilotToolCatalog } from './tool-facts.js';
import { createCopilotTranslator } from './translate.js';

/** The prompt's answer (its stop reason) ends a turn: answerRecord makes it the turn's last record. */
export const copilotLiveTranslation: LiveTranslation = {
  dialect: jsonRpc,
  createSessionTranslator: (ctx) => withToolFacts(copilotAcpToolCatalog, createCopilotAcpTranslator(ctx)),
  answerRecord: acpAnswerRecord,
  endsTurn: isAcpAnswer,
};

export const copilotTranslation: TranslationSpec<'copilot'> = {
  name: 'copilot',
  createTranslator: (ctx) => withToolFacts(copilotToolCatalog, createCopilotTranslator(ctx)),
  live: copilotLiveTranslation,
};
