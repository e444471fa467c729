// Gemini `-o stream-json` records → events. Pure: the same records always give the same events.
//
// Records are `{type, timestamp, …}`: init, message, tool_use, tool_result, error, result. Facts this
// relies on (gemini 0.61.0, fixtures/gemini/0.61.0):
// - the prompt is echoed first as a `user` message; assistant text comes only as deltas, with no
//   assembled message: the adapter closes a message at the next tool call and at the end, and the
//   answer is the text after the last tool result (what `-o json` calls the response);
// - thoughts are not printed; tool_use/tool_result pair by `tool_id`, the result has no name;
// - `result.status` is the outcome: exit 0 can come with `status: "error"`, and after SIGTERM the CLI
//   exits 0 with no `result` at all (the core reads that as a failure);
// - an API error is `result.error.message` `[API Error: {"error":{"code":401,…}}]`, type "unknown";
//   the turn limit is type FatalTurnLimitedError.
import type { Translator, TranslatorContext } from '../../core/contract/adapter.js';
import { classifyApiError } from '../../core/translate/api-errors.js';
import type { ErrorCode } from '../../errors.js';
import type { ToolFacts, TranslatedEvent, Usage } from '../../events.js';
import { asJsonObject, countOf, stringOf, type JsonObject } from '../../schema/json.js';
import { bridgedToolName, toolBridgeServerName } from '../../schema/tool-names.js';
import { geminiToolFacts } from './tools.js';

/** Tool result error types that mean the call never ran (refused by a rule, or not offered at all). */
const refusals = new Set(['policy_violation', 'tool_not_registered']);

/** The HTTP status and message inside `[API Error: {"error":{…}}]`, when the text is one. */
export function apiErrorOf(message: string): { status?: number; message: string } {
  const json = /^\[API Error: (\{[\s\S]*\})\]$/.exec(message.trim())?.[1];
  if (!json) return { message };
  try {
    const error = asJsonObject(asJsonObject(JSON.parse(json))?.error);
    const status = typeof error?.code === 'number' ? error.code : undefined;
    return { ...(status === undefined ? {} : { status }), message: stringOf(error?.message) ?? message };
  } catch {
    return { message };
  }
}

function errorOfResult(record: JsonObject): TranslatedEvent {
  const error = asJsonObject(record.error) ?? {};
  const type = stringOf(error.type) ?? 'unknown';
  const { status, message } = apiErrorOf(stringOf(error.message) ?? 'Gemini reported an error');
  const code: ErrorCode = /TurnLimit/i.test(type) ? 'max_turns' : classifyApiError(status, message, 'server');
  return { type: 'error', code, message, fatal: true, ...(status === undefined ? {} : { httpStatus: status }), extra: { errorType: type }, raw: record };
}

function usageOf(stats: JsonObject | undefined): Usage {
  return {
    // input_tokens is the prompt as the API counts it, cached reads included.
    inputTokens: countOf(stats?.input_tokens),
    cachedInputTokens: countOf(stats?.cached),
    // Thought tokens are inside output_tokens; stream-json has no separate count.
    outputTokens: countOf(stats?.output_tokens),
    reasoningTokens: 0,
  };
}

export function createGeminiTranslator(ctx: TranslatorContext): Translator {
  const streamPartial = ctx.opts.streamPartialMessages === true;
  // MCP tools are `mcp_<server>_<tool>`; the longest known server name wins (names may hold `_`).
  const servers = [toolBridgeServerName, ...Object.keys(ctx.opts.mcpServers ?? {})].sort((a, b) => b.length - a.length);
  const tools = new Map<string, { name: string; facts: ToolFacts }>();
  let segment = '';
  let answer: string | undefined;
  let messageCount = 0;
  let sessionId: string | undefined;

  /** The message written since the last tool event, as one whole message. */
  function closeSegment(raw: unknown): TranslatedEvent[] {
    if (!segment) return [];
    const text = segment;
    segment = '';
    answer = text;
    messageCount += 1;
    return [{ type: 'message', role: 'assistant', text, delta: false, id: `message-${messageCount}`, raw }];
  }

  function toolUse(record: JsonObject): TranslatedEvent[] {
    const events = closeSegment(record);
    const id = stringOf(record.tool_id) ?? '';
    const cliName = stringOf(record.tool_name) ?? 'unknown';
    const input = record.parameters;
    const server = cliName.startsWith('mcp_') ? servers.find((name) => cliName.startsWith(`mcp_${name}_`)) : undefined;
    const serverTool = server === undefined ? undefined : cliName.slice(`mcp_${server}_`.length);
    // The run's own tools go by the user's name; the CLI's stays in extra.
    const own = bridgedToolName(ctx.opts, server, serverTool);
    const name = own ?? cliName;
    const facts = geminiToolFacts(name, input, server);
    tools.set(id, { name, facts });
    events.push({ type: 'tool_use', id, name, input, tool: facts, ...(own === undefined ? {} : { extra: { cliToolName: cliName } }), raw: record });
    return events;
  }

  function toolResult(record: JsonObject): TranslatedEvent[] {
    const events = closeSegment(record);
    // What came before a tool's result is not the answer.
    answer = undefined;
    const id = stringOf(record.tool_id) ?? '';
    const known = tools.get(id);
    const error = asJsonObject(record.error);
    const errorType = stringOf(error?.type);
    const isError = record.status !== 'success';
    const extra: JsonObject = {};
    if (errorType) extra.errorType = errorType;
    if (errorType && refusals.has(errorType)) extra.refused = true;
    events.push({
      type: 'tool_result',
      id,
      ...(known ? { name: known.name, tool: known.facts } : {}),
      output: 'output' in record ? record.output : stringOf(error?.message),
      isError,
      ...(Object.keys(extra).length ? { extra } : {}),
      raw: record,
    });
    return events;
  }

  function message(record: JsonObject): TranslatedEvent[] {
    const text = stringOf(record.content) ?? '';
    if (record.role !== 'assistant') return [{ type: 'progress', kind: 'status', subtype: `message.${stringOf(record.role) ?? 'unknown'}`, raw: record }];
    if (record.delta !== true) {
      // A whole message (no version prints one yet): what was streamed before it is a message of its own.
      const events = closeSegment(record);
      segment = text;
      return [...events, ...closeSegment(record)];
    }
    segment += text;
    return streamPartial ? [{ type: 'message', role: 'assistant', text, delta: true, id: `message-${messageCount + 1}`, raw: record }] : [];
  }

  function result(record: JsonObject): TranslatedEvent[] {
    const events = closeSegment(record);
    const stats = asJsonObject(record.stats);
    const success = record.status === 'success';
    if (!success) events.push(errorOfResult(record));
    events.push({ type: 'usage', usage: usageOf(stats), extra: { models: stats?.models, toolCalls: stats?.tool_calls, durationMs: stats?.duration_ms }, raw: record });
    events.push({ type: 'done', status: success ? 'success' : 'error', ...(answer === undefined ? {} : { text: answer }), ...(sessionId ? { sessionId } : {}), raw: record });
    return events;
  }

  return {
    translate(raw: unknown): TranslatedEvent[] {
      const record = asJsonObject(raw);
      const type = stringOf(record?.type);
      if (!record || !type) return [{ type: 'progress', kind: 'unknown', raw }];
      switch (type) {
        case 'init': {
          sessionId = stringOf(record.session_id);
          const model = stringOf(record.model);
          return [{ type: 'init', ...(sessionId ? { sessionId } : {}), ...(model ? { model } : {}), raw: record }];
        }
        case 'message':
          return message(record);
        case 'tool_use':
          return toolUse(record);
        case 'tool_result':
          return toolResult(record);
        case 'error': {
          const text = stringOf(record.message) ?? 'Gemini reported an error';
          // The run goes on (or its `result` decides): a warning, or an error the result repeats.
          if (record.severity === 'warning') return [{ type: 'progress', kind: 'warning', subtype: 'error', message: text, raw: record }];
          const { status, message: detail } = apiErrorOf(text);
          return [{ type: 'error', code: classifyApiError(status, detail, 'server'), message: detail, fatal: false, ...(status === undefined ? {} : { httpStatus: status }), raw: record }];
        }
        case 'result':
          return result(record);
        default:
          return [{ type: 'progress', kind: 'unknown', subtype: type, raw: record }];
      }
    },
  };
}
