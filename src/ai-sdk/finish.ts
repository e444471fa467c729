// How a run ends, in the spec's terms: its finish reason, usage and provider metadata, or the error a
// failed run is. A run that produced no answer is an error thrown (or an error part), never a "stop"
// with empty text; a limit that cut the agent short finishes as `length`, its raw reason the code.
import type { JSONObject, LanguageModelV4FinishReason, LanguageModelV4Usage, SharedV4ProviderMetadata } from '@ai-sdk/provider';
import { OutputValidationError, type ErrorCode, type RunResult } from '../index.js';

/** Codes of runs cut short by a limit: what the agent said so far is the answer. */
const limitCodes: ReadonlySet<ErrorCode> = new Set(['max_turns', 'budget']);

export type Ending =
  | { kind: 'finished'; finishReason: LanguageModelV4FinishReason }
  /** The run failed or was cancelled: the error is what the caller gets. */
  | { kind: 'failed'; error: Error };

export function endingOf(result: RunResult<unknown, string>, signal: AbortSignal | undefined): Ending {
  if (result.status === 'success') return { kind: 'finished', finishReason: { unified: 'stop', raw: 'success' } };
  // An abort rejects with the signal's reason, as a cancelled request does.
  if (result.status === 'cancelled' && signal?.aborted) return { kind: 'failed', error: signal.reason instanceof Error ? signal.reason : result.error! };
  const { error } = result;
  if (error && limitCodes.has(error.code)) return { kind: 'finished', finishReason: { unified: 'length', raw: error.code } };
  // An answer off the schema is still the answer: the AI SDK's own check reports it (NoObjectGeneratedError).
  // A CLI that gave up on its structured output has none to give: that is the error.
  if (error instanceof OutputValidationError) return { kind: 'finished', finishReason: { unified: 'error', raw: error.code } };
  return { kind: 'failed', error: error! };
}

export function usageOf(result: RunResult<unknown, string>): LanguageModelV4Usage {
  const { usage } = result;
  return {
    inputTokens: { total: usage.inputTokens, noCache: usage.inputTokens - usage.cachedInputTokens, cacheRead: usage.cachedInputTokens, cacheWrite: undefined },
    outputTokens: { total: usage.outputTokens, text: undefined, reasoning: usage.reasoningTokens },
    raw: { ...usage },
  };
}

export function metadataOf(result: RunResult<unknown, string>): SharedV4ProviderMetadata {
  const coderline: JSONObject = { status: result.status, durationMs: result.durationMs };
  if (result.sessionId !== undefined) coderline.sessionId = result.sessionId;
  if (result.cliVersion !== undefined) coderline.cliVersion = result.cliVersion;
  if (result.usage.costUsd !== undefined) coderline.costUsd = result.usage.costUsd;
  if (result.exitCode !== undefined) coderline.exitCode = result.exitCode;
  if (result.error) coderline.error = { code: result.error.code, message: result.error.message };
  return { coderline };
}

/**
 * The one text a JSON response format's run answers: the validated output (or, failing validation,
 * what the agent gave); without a schema, the agent's final answer.
 */
export function jsonAnswerOf(result: RunResult<unknown, string>, schema: boolean): string | undefined {
  if (!schema) return result.status === 'success' ? result.text : undefined;
  if (result.status === 'success') return JSON.stringify(result.output);
  if (!(result.error instanceof OutputValidationError)) return undefined;
  const { received } = result.error;
  return typeof received === 'string' ? received : JSON.stringify(received);
}
