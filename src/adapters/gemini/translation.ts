// Gemini's pure face (coderline/replay): the stream-json translator, and ACP's routing and session
// translator, with nothing that starts a process or reads a file.
import type { TranslationSpec } from '../../core/contract/adapter.js';
import { acpLiveTranslation } from '../../core/acp/translation.js';
import { geminiAcpTranslation } from './acp-translate.js';
import { createGeminiTranslator } from './translate.js';

export const geminiTranslation: TranslationSpec<'gemini'> = { name: 'gemini', createTranslator: createGeminiTranslator, live: acpLiveTranslation(geminiAcpTranslation) };
