// Gemini's habits in its ACP records (`gemini --acp`, 0.61.0); the protocol itself is
// core/acp/translate.ts. A prompt's answer carries no ACP `usage` but Gemini's own token counts,
// `_meta.quota.token_count { input_tokens, output_tokens }`, those of that prompt alone.
import type { Usage } from '../../events.js';
import type { AcpMcpCall, AcpTranslationSpec } from '../../core/acp/dialect.js';
import { asJsonObject, countOf, stringOf } from '../../schema/json.js';
import { mcpCallOf } from '../../core/acp/tool-facts.js';

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

/**
 * The tool a call runs, from its id: Gemini makes it `<tool>__<tool>_<ms>_<n>` (0.61.0:
 * `mcp_fixture_write_marker__mcp_fixture_write_marker_1796358547302_0`), while its ACP kind is `other`
 * and its title "write_marker (fixture MCP Server)".
 */
function toolOfCallId(toolCall: Record<string, unknown>): string | undefined {
  const id = stringOf(toolCall.toolCallId);
  // Bounded: the back-reference costs the square of the id's length, and the id is the agent's to choose.
  return id === undefined || id.length > 512 ? undefined : /^(.+)__\1_\d+_\d+$/.exec(id)?.[1];
}

/** An MCP call's input: Gemini sends no rawInput, but the arguments as the call's content, one JSON text. */
function contentInput(toolCall: Record<string, unknown>): unknown {
  const [first] = Array.isArray(toolCall.content) ? toolCall.content : [];
  const text = stringOf(asJsonObject(asJsonObject(first)?.content)?.text);
  if (text === undefined) return undefined;
  try {
    const input: unknown = JSON.parse(text);
    return asJsonObject(input);
  } catch {
    return undefined;
  }
}

function mcpCall(toolCall: Record<string, unknown>, servers: readonly string[]): AcpMcpCall | undefined {
  const call = mcpCallOf(toolOfCallId(toolCall), servers, '_', 'mcp_');
  const input = call && contentInput(toolCall);
  return call && input !== undefined ? { ...call, input } : call;
}

export const geminiAcpTranslation: AcpTranslationSpec = {
  agent: 'gemini',
  cliToolName: toolOfCallId,
  // The tool of an MCP call's id is `mcp_<server>_<tool>`, as in its one-shot records.
  mcpCall,
  usage: quotaUsage,
  promptRefusal: modelFailure,
};
