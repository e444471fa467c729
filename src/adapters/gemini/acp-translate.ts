// Gemini's habits in its ACP records (`gemini --acp`, 0.61.0); the protocol itself is
// core/acp/translate.ts. A prompt's answer carries no ACP `usage` but Gemini's own token counts,
// `_meta.quota.token_count { input_tokens, output_tokens }`, those of that prompt alone.
import type { Usage } from '../../events.js';
import type { AcpTranslationSpec } from '../../core/acp/dialect.js';
import { asJsonObject, countOf } from '../../schema/json.js';

function quotaUsage(answer: Record<string, unknown>): Usage | undefined {
  const tokens = asJsonObject(asJsonObject(asJsonObject(answer._meta)?.quota)?.token_count);
  if (!tokens) return undefined;
  return { inputTokens: countOf(tokens.input_tokens), cachedInputTokens: 0, outputTokens: countOf(tokens.output_tokens), reasoningTokens: 0 };
}

export const geminiAcpTranslation: AcpTranslationSpec = {
  agent: 'gemini',
  usage: quotaUsage,
};
