// Gemini's pure face (coderline/replay): the stream-json translator, with nothing that starts a
// process or reads a file.
import type { TranslationSpec } from '../../core/contract/adapter.js';
import { createGeminiTranslator } from './translate.js';

export const geminiTranslation: TranslationSpec<'gemini'> = { name: 'gemini', createTranslator: createGeminiTranslator };
