// Copilot's live records (Agent Client Protocol v1 over `copilot --acp`) → events. Pure: the same
// records always give the same events. One translator serves a whole live session, because the
// token counts in a prompt's answer are totals of the session so far (22 → 44 → 66 over three
// prompts on 1.0.102): each turn's usage is the difference to the previous answer.
//
// Records are `session/update` notifications (`params.update.sessionUpdate` names the kind) and, last
// in a turn, the answer to `session/prompt`, `{ result: { stopReason, usage? } }` (acpAnswerRecord).
// Facts this relies on (cli-notes/copilot.md "Live mode (probed)", test/copilot/live.test.ts):
// - text and reasoning arrive only as chunks; a message ends at the next tool call or the answer;
// - `tool_call` names no tool, only its `kind` (`execute`, `edit`, `read` …), which stands as the name;
// - `tool_call_update` without a status is streamed shell output; `completed` / `failed` finish the call,
//   and a shell command that exits non-zero still says `completed` (its exit code is in rawOutput.contents);
// - a failed model call has no record or field of its own: Copilot writes "Error: <why>" as one whole
//   message chunk and answers `end_turn` (see modelFailure below);
// - Copilot's own notices (what one-shot output carries as `session.info` records: a retry, a
//   cancelled operation, the path of plan mode's plan.md) are one whole chunk "Info: <message>" each.
import type { Translator, TranslatorContext } from '../../core/contract/adapter.js';
import { classifyApiError } from '../../core/translate/api-errors.js';
import { asJsonObject, stringOf, type JsonObject } from '../../schema/json.js';
import { emptyUsage, subtractUsage } from '../../core/translate/usage.js';
import { planItemsOf } from '../../core/translate/plan-items.js';
import type { TranslatedEvent, Usage } from '../../events.js';
import { parsedJson } from '../../core/translate/tool-output.js';

/** The record a prompt's answer becomes: `endsTurn` knows it by its `result`, which no notification has. */
export function acpAnswerRecord(answer: unknown): unknown {
  return { jsonrpc: '2.0', result: answer };
}

export function isAcpAnswer(record: unknown): boolean {
  const object = asJsonObject(record);
  return object !== undefined && 'result' in object && !('method' in object);
}

/** Updates that only report the session's state: `progress` status events. */
const statusUpdates = new Set(['available_commands_update', 'config_option_update', 'session_info_update', 'current_mode_update', 'usage_update', 'user_message_chunk']);

/** Stop reasons of a turn that ended as it should. */
const finishedReasons = new Set(['end_turn', 'max_tokens']);

/**
 * Copilot's notices, written into the message stream as single whole chunks (1.0.102, measured against
 * HTTP 400, 401, 429, 500 and dropped connections, an interrupt, a denied tool call and plan mode; the
 * session store has `session.info` / `session.error` records, but ACP sends nothing but this text).
 * Text is all there is, so only a chunk that is the whole notice counts, and an error only where the
 * model wrote no text of its own in the turn. An info notice is the same progress event the one-shot
 * adapter makes of a `session.info` record, never answer text (taken for text, plan mode's
 * "Info: …/plan.md" ran into the model's answer).
 */
const INFO_NOTICE = /^Info: ([^\n]+)$/;
const RETRY_NOTICE = /Retrying\.\.\.$/;
const ERROR_PREFIX = 'Error: ';

/** Where Copilot's error texts put the HTTP status: "400 bad request", "… (HTTP 401).", "… Last error: 500 boom". */
const STATUS_PATTERNS = [/^(\d{3}) /, /\(HTTP (\d{3})\)/, /Last error: (\d{3}) /];

function httpStatusOf(message: string): number | undefined {
  const match = STATUS_PATTERNS.map((pattern) => pattern.exec(message)).find((found) => found !== null);
  return match ? Number(match[1]) : undefined;
}

/** The failed model call a turn ended on, as the one-shot adapter reports it (the same ErrorCodes). */
function modelFailure(message: string, raw: unknown): TranslatedEvent {
  const httpStatus = httpStatusOf(message);
  return {
    type: 'error',
    code: classifyApiError(httpStatus, message, 'server'),
    fatal: true,
    message,
    ...(httpStatus === undefined ? {} : { httpStatus }),
    raw,
  };
}

const count = (value: unknown): number => (typeof value === 'number' && value > 0 ? value : 0);

function usageOf(value: unknown): Usage | undefined {
  const usage = asJsonObject(value);
  if (!usage) return undefined;
  return {
    inputTokens: count(usage.inputTokens),
    cachedInputTokens: count(usage.cachedReadTokens),
    outputTokens: count(usage.outputTokens),
    reasoningTokens: count(usage.thoughtTokens),
  };
}

/** The text of a content block (`{type:"text", text}`), or of a tool call's content list. */
function textOf(content: unknown): string | undefined {
  if (Array.isArray(content)) {
    const parts = content.map((item) => textOf(asJsonObject(item)?.content ?? item)).filter((part) => part !== undefined);
    return parts.length ? parts.join('') : undefined;
  }
  const block = asJsonObject(content);
  return block?.type === 'text' ? stringOf(block.text) : undefined;
}

/** A shell command's exit code, from the `shell_exit` item Copilot puts in rawOutput.contents. */
function shellExitCode(rawOutput: JsonObject | undefined): number | undefined {
  const contents = rawOutput?.contents;
  const exit = Array.isArray(contents) ? contents.map(asJsonObject).find((item) => item?.type === 'shell_exit') : undefined;
  return typeof exit?.exitCode === 'number' ? exit.exitCode : undefined;
}

export function createCopilotAcpTranslator(ctx: TranslatorContext): Translator {
  const streamPartial = ctx.opts.streamPartialMessages === true;
  const toolNames = new Map<string, string>();
  let sessionTotal = emptyUsage();
  let turnStarted = false;
  let text = '';
  let reasoning = '';
  /** Whether the model wrote text in this turn: then an "Error: " chunk is its text, not Copilot's. */
  let modelWrote = false;
  /** An "Error: " chunk held back until the turn shows whether it was Copilot's last word. */
  let failure: { message: string; raw: unknown } | undefined;

  /** A held "Error: " chunk that turned out not to be last is text like any other. */
  function releaseFailure(): TranslatedEvent[] {
    if (!failure) return [];
    const piece = ERROR_PREFIX + failure.message;
    const { raw } = failure;
    failure = undefined;
    text += piece;
    modelWrote = true;
    return streamPartial ? [{ type: 'message', role: 'assistant', text: piece, delta: true, raw }] : [];
  }

  /** The text streamed since the last tool call, as one whole message (and the reasoning before it). */
  function flush(raw: unknown): TranslatedEvent[] {
    const events: TranslatedEvent[] = releaseFailure();
    if (reasoning) events.push({ type: 'reasoning', text: reasoning, delta: false, raw });
    if (text) events.push({ type: 'message', role: 'assistant', text, delta: false, raw });
    reasoning = '';
    text = '';
    return events;
  }

  function chunk(kind: 'message' | 'reasoning', update: JsonObject, raw: unknown): TranslatedEvent[] {
    const piece = textOf(update.content) ?? '';
    const notice = kind === 'message' ? INFO_NOTICE.exec(piece)?.[1] : undefined;
    if (notice !== undefined) return [{ type: 'progress', kind: RETRY_NOTICE.test(notice) ? 'retry' : 'status', subtype: 'session.info', message: notice, raw }];
    if (kind === 'message' && !modelWrote && !failure && piece.startsWith(ERROR_PREFIX)) {
      failure = { message: piece.slice(ERROR_PREFIX.length), raw };
      return [];
    }
    const events = kind === 'message' ? releaseFailure() : [];
    if (kind === 'message') {
      text += piece;
      modelWrote ||= piece !== '';
    } else reasoning += piece;
    if (!streamPartial || !piece) return events;
    return [...events, kind === 'message' ? { type: 'message', role: 'assistant', text: piece, delta: true, raw } : { type: 'reasoning', text: piece, delta: true, raw }];
  }

  function toolCall(update: JsonObject, raw: unknown): TranslatedEvent[] {
    const id = stringOf(update.toolCallId) ?? '';
    const name = stringOf(update.kind) ?? 'other';
    toolNames.set(id, name);
    // The title is Copilot's name of an MCP tool (`<server>-<tool>`): the tool bridge matches its calls by it.
    const title = stringOf(update.title);
    return [...flush(raw), { type: 'tool_use', id, name, input: update.rawInput ?? {}, raw, ...(title ? { extra: { title } } : {}) }];
  }

  function toolCallUpdate(update: JsonObject, raw: unknown): TranslatedEvent[] {
    const id = stringOf(update.toolCallId) ?? '';
    const status = stringOf(update.status);
    if (status !== 'completed' && status !== 'failed') {
      const output = textOf(update.content);
      return [{ type: 'progress', kind: 'tool_output', subtype: 'tool_call_update', ...(output === undefined ? {} : { message: output }), raw }];
    }
    const rawOutput = asJsonObject(update.rawOutput);
    const exitCode = shellExitCode(rawOutput);
    const output = parsedJson(status === 'failed' ? (stringOf(rawOutput?.message) ?? rawOutput) : (rawOutput?.content ?? textOf(update.content)));
    const name = toolNames.get(id);
    return [{ type: 'tool_result', id, ...(name ? { name } : {}), output, isError: status === 'failed' || (exitCode !== undefined && exitCode !== 0), raw }];
  }

  /** ACP's plan update holds the whole plan (1.0.102 sends one, empty, at the first tool call of a session). */
  function plan(update: JsonObject, raw: unknown): TranslatedEvent[] {
    return [{ type: 'plan', items: planItemsOf(update.entries, { content: 'content', status: 'status' }), raw }];
  }

  function update(record: JsonObject): TranslatedEvent[] {
    const params = asJsonObject(record.params);
    const body = asJsonObject(params?.update);
    const kind = stringOf(body?.sessionUpdate);
    const events: TranslatedEvent[] = [];
    if (!turnStarted) {
      turnStarted = true;
      const sessionId = stringOf(params?.sessionId);
      events.push({ type: 'init', ...(sessionId ? { sessionId } : {}), raw: record });
    }
    if (!body || !kind) return [...events, { type: 'progress', kind: 'unknown', raw: record }];
    switch (kind) {
      case 'agent_message_chunk':
        return [...events, ...chunk('message', body, record)];
      case 'agent_thought_chunk':
        return [...events, ...chunk('reasoning', body, record)];
      case 'tool_call':
        return [...events, ...toolCall(body, record)];
      case 'tool_call_update':
        return [...events, ...toolCallUpdate(body, record)];
      case 'plan':
        return [...events, ...plan(body, record)];
      default:
        return [...events, { type: 'progress', kind: statusUpdates.has(kind) ? 'status' : 'unknown', subtype: kind, raw: record }];
    }
  }

  function answer(record: JsonObject): TranslatedEvent[] {
    turnStarted = false;
    modelWrote = false;
    const result = asJsonObject(record.result);
    const stopReason = stringOf(result?.stopReason) ?? 'unknown';
    const failed = stopReason === 'end_turn' ? failure : undefined;
    if (failed) failure = undefined;
    const events = flush(record);
    const total = usageOf(result?.usage);
    // No usage: no model call completed (the turn was cancelled or failed before one did).
    if (total) {
      events.push({ type: 'usage', usage: subtractUsage(total, sessionTotal), raw: record });
      sessionTotal = total;
    }
    if (failed) {
      events.push(modelFailure(failed.message, failed.raw), { type: 'done', status: 'error', raw: record });
      return events;
    }
    if (finishedReasons.has(stopReason)) {
      if (stopReason === 'max_tokens') events.push({ type: 'progress', kind: 'warning', subtype: stopReason, message: 'the answer was cut at the token limit', raw: record });
      events.push({ type: 'done', status: 'success', raw: record });
      return events;
    }
    const code = stopReason === 'cancelled' ? 'aborted' : stopReason === 'max_turn_requests' ? 'max_turns' : 'protocol';
    events.push({ type: 'error', code, fatal: true, message: `copilot ended the turn: ${stopReason}`, raw: record });
    events.push({ type: 'done', status: 'error', raw: record });
    return events;
  }

  return {
    translate(record) {
      const object = asJsonObject(record);
      if (object && isAcpAnswer(object)) return answer(object);
      if (object?.method === 'session/update') return update(object);
      return [{ type: 'progress', kind: 'unknown', ...(typeof object?.method === 'string' ? { subtype: object.method } : {}), raw: record }];
    },
  };
}
