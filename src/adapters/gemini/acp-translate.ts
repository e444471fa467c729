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

/**
 * A failed model call (HTTP 401, 429, 500 … once its retries are spent) is no update but the prompt's
 * JSON-RPC error, whose code is the HTTP status and whose message the API's error body:
 * `{"code":401,"message":"{\"error\":{\"code\":401,…,\"status\":\"UNAUTHENTICATED\"}}"}` (0.61.0).
 */
function modelFailure(message: string): { message: string; httpStatus?: number } | undefined {
  const status = /"code\\?"\s*:\s*(\d{3})\b/.exec(message)?.[1];
  return status === undefined ? undefined : { message, httpStatus: Number(status) };
}

export const geminiAcpTranslation: AcpTranslationSpec = {
  agent: 'gemini',
  usage: quotaUsage,
  promptRefusal: modelFailure,
};
