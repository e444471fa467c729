import type { Translator, TranslatorContext } from '../../core/adapter.js';
export function createCopilotTranslator(_ctx: TranslatorContext): Translator {
  return { translate: (record) => [{ type: 'progress', kind: 'unknown', raw: record }] };
}
