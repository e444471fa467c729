// ACP records → events, for every ACP agent. Pure: the same records always give the same events. One
// translator serves a whole live session (an agent may count tokens per session: AcpTranslationSpec).
//
// Records are `session/update` notifications (`params.update.sessionUpdate` names the kind) and, last
// in a turn, the answer to `session/prompt`, `{ result: { stopReason, usage? } }` (acpAnswerRecord).
// - text and reasoning arrive only as chunks (`agent_message_chunk`, `agent_thought_chunk`); a message
//   ends at the next tool call or the answer;
// - `tool_call` names no tool, only its kind, which stands as the name (tool-facts.ts); an MCP tool's
//   call (kind `other`) is named where the agent's dialect finds the server and tool (`mcpCall`);
// - `tool_call_update` without a final status is streamed output; `completed` / `failed` finish the call
//   (and announce it, when no `tool_call` did);
// - `plan` holds the whole plan each time; the other updates report the session's state;
// - a permission question is a record too (questionsAreRecords): it announces a call no update did;
// - a refused prompt (acpRefusalRecord) ends the turn as failed, with the code the agent's dialect reads;
// - an agent's notices and failed model calls written as text are its dialect's (dialect.ts).
import type { Translator, TranslatorContext } from '../contract/adapter.js';
import { classifyApiError } from '../translate/api-errors.js';
import { asJsonObject, stringOf, type JsonObject } from '../../schema/json.js';
import { emptyUsage, subtractUsage } from '../translate/usage.js';
import type { ToolFacts, TranslatedEvent, Usage } from '../../events.js';
import { planItemsOf } from '../translate/plan-items.js';
import { parsedJson } from '../translate/tool-output.js';
import type { AcpFailure, AcpTranslationSpec } from './dialect.js';
import { isAcpAnswer } from './answer.js';
import { acpToolFacts, acpToolName } from './tool-facts.js';
import { bridgedToolName, toolBridgeServerName } from '../../schema/tool-names.js';

/** Updates that only report the session's state: `progress` status events. */
const statusUpdates = new Set(['available_commands_update', 'config_option_update', 'session_info_update', 'current_mode_update', 'usage_update', 'user_message_chunk']);

/** Stop reasons of a turn that ended as it should. */
const finishedReasons = new Set(['end_turn', 'max_tokens']);

/** A token count; anything but a positive number (negative, text, missing) adds nothing. */
const count = (value: unknown): number => (typeof value === 'number' && value > 0 && Number.isFinite(value) ? value : 0);

/** ACP's own `usage` of a prompt answer (`inputTokens`, `cachedReadTokens`, `outputTokens`, `thoughtTokens`). */
function protocolUsage(answer: JsonObject): Usage | undefined {
  const usage = asJsonObject(answer.usage);
  if (!usage) return undefined;
  return {
    inputTokens: count(usage.inputTokens),
    cachedInputTokens: count(usage.cachedReadTokens),
    outputTokens: count(usage.outputTokens),
    reasoningTokens: count(usage.thoughtTokens),
  };
}

const isEmptyInput = (input: unknown): boolean => input === undefined || input === null || (asJsonObject(input) !== undefined && Object.keys(input as object).length === 0);

/** The tool call a record is about: an update's or a permission question's `toolCallId`. */
function toolCallIdOf(record: JsonObject | undefined): string | undefined {
  const params = asJsonObject(record?.params);
  return stringOf(asJsonObject(params?.update)?.toolCallId) ?? stringOf(asJsonObject(params?.toolCall)?.toolCallId);
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

/** A shell command's exit code, from a `shell_exit` item in rawOutput.contents (Copilot puts it there). */
function shellExitCode(rawOutput: JsonObject | undefined): number | undefined {
  const contents = rawOutput?.contents;
  const exit = Array.isArray(contents) ? contents.map(asJsonObject).find((item) => item?.type === 'shell_exit') : undefined;
  return typeof exit?.exitCode === 'number' ? exit.exitCode : undefined;
}

export function createAcpTranslator(spec: AcpTranslationSpec, ctx: TranslatorContext): Translator {
  const streamPartial = ctx.opts.streamPartialMessages === true;
  const tools = new Map<string, ToolFacts>();
  /** The MCP servers the run's tool calls can name: the bridge's (the run's own tools) and the caller's. */
  const mcpServers = [...(ctx.opts.tools?.length ? [toolBridgeServerName] : []), ...Object.keys(ctx.opts.mcpServers ?? {})];
  let sessionTotal = emptyUsage();
  let turnStarted = false;
  let text = '';
  let reasoning = '';
  /** Whether the model wrote text in this turn: then a failure chunk is its text, not the agent's. */
  let modelWrote = false;
  /** A failure chunk held back until the turn shows whether it was the agent's last word. */
  let failure: { chunk: string; failed: AcpFailure; raw: unknown } | undefined;
  /** The `messageId` of the text being streamed, where the agent names one. */
  let messageId: string | undefined;

  /** A held failure chunk that turned out not to be last is text like any other. */
  function releaseFailure(): TranslatedEvent[] {
    if (!failure) return [];
    const { chunk: piece, raw } = failure;
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
    const notice = kind === 'message' ? spec.notice?.(piece) : undefined;
    if (notice !== undefined) return [{ type: 'progress', ...notice, raw }];
    const failed = kind === 'message' && !modelWrote && !failure ? spec.failure?.(piece) : undefined;
    if (failed) {
      failure = { chunk: piece, failed, raw };
      return [];
    }
    const events = kind === 'message' ? releaseFailure() : [];
    if (kind === 'message') {
      // Another message id is another message, not more of this one (OpenCode's compaction summary, then its answer).
      const id = stringOf(update.messageId);
      if (id !== undefined && messageId !== undefined && id !== messageId && text) events.push(...flush(raw));
      messageId = id ?? messageId;
      text += piece;
      modelWrote ||= piece !== '';
    } else reasoning += piece;
    if (!streamPartial || !piece) return events;
    return [...events, kind === 'message' ? { type: 'message', role: 'assistant', text: piece, delta: true, raw } : { type: 'reasoning', text: piece, delta: true, raw }];
  }

  /** An MCP tool's facts: the run's own tools go by the user's name, the others by `mcp__<server>__<tool>`, as canUseTool names them. */
  function mcpToolFacts(update: JsonObject): { tool: ToolFacts; cliName: string; input: unknown } | undefined {
    const kind = stringOf(update.kind);
    const call = kind === undefined || kind === 'other' ? spec.mcpCall?.(update, mcpServers) : undefined;
    if (!call) return undefined;
    const name = bridgedToolName(ctx.opts, call.server, call.tool) ?? `mcp__${call.server}__${call.tool}`;
    return { tool: { kind: 'mcp', name, server: call.server }, cliName: call.cliName, input: call.input };
  }

  /** Calls announced without their input (`inputFollows`), by id: announced when it comes, or before any other record. */
  const awaitingInput = new Map<string, JsonObject>();

  function toolCall(update: JsonObject, raw: unknown): TranslatedEvent[] {
    const id = stringOf(update.toolCallId) ?? '';
    if (spec.inputFollows && update.status === 'pending' && isEmptyInput(update.rawInput)) {
      awaitingInput.set(id, update);
      return flush(raw);
    }
    return announce(update, raw);
  }

  /** The held call `id` with what `later` adds to it (its input, a new title), announced; nothing when none is held. */
  function releaseCall(id: string, later: JsonObject | undefined, raw: unknown): TranslatedEvent[] {
    const held = awaitingInput.get(id);
    if (!held) return [];
    awaitingInput.delete(id);
    const added = later ? Object.fromEntries(Object.entries(later).filter(([key, value]) => key !== 'sessionUpdate' && key !== 'status' && value !== undefined && value !== null)) : {};
    return announce({ ...held, ...added }, raw);
  }

  /** Every held call but `except`'s, announced before a record about something else. */
  function releaseOthers(except: string | undefined, raw: unknown): TranslatedEvent[] {
    return [...awaitingInput.keys()].filter((id) => id !== except).flatMap((id) => releaseCall(id, undefined, raw));
  }

  function announce(update: JsonObject, raw: unknown): TranslatedEvent[] {
    const id = stringOf(update.toolCallId) ?? '';
    const mcp = mcpToolFacts(update);
    const tool = mcp?.tool ?? acpToolFacts(update, spec.toolCatalog);
    tools.set(id, tool);
    // The title is the agent's own name or summary of the call (Copilot: an MCP tool's `<server>-<tool>`).
    const title = stringOf(update.title);
    const cliToolName = mcp?.cliName ?? spec.cliToolName?.(update);
    const extra = { ...(title && { title }), ...(cliToolName && { cliToolName }) };
    const input = update.rawInput ?? mcp?.input ?? {};
    return [...flush(raw), { type: 'tool_use', id, name: mcp?.tool.name ?? acpToolName(update), input, tool, raw, ...(Object.keys(extra).length > 0 && { extra }) }];
  }

  function toolCallUpdate(update: JsonObject, raw: unknown): TranslatedEvent[] {
    const id = stringOf(update.toolCallId) ?? '';
    const status = stringOf(update.status);
    const final = status === 'completed' || status === 'failed';
    // A held call's input comes with this update (a final one's fields are its output, not its call).
    const released = releaseCall(id, final ? undefined : update, raw);
    if (!final) {
      const output = textOf(update.content);
      return [...released, { type: 'progress', kind: 'tool_output', subtype: 'tool_call_update', ...(output === undefined ? {} : { message: output }), raw }];
    }
    // A call never announced by a `tool_call` (Gemini 0.61.0 asks, runs, then reports only this) is
    // announced now, from what the update says of it: no tool runs without its tool_use.
    const announced = released.length > 0 || tools.has(id) || typeof update.kind !== 'string' ? released : announce(update, raw);
    const rawOutput = asJsonObject(update.rawOutput);
    const exitCode = shellExitCode(rawOutput);
    const output = parsedJson(status === 'failed' ? (stringOf(rawOutput?.message) ?? rawOutput ?? textOf(update.content)) : (rawOutput?.content ?? textOf(update.content)));
    const tool = tools.get(id);
    tools.delete(id);
    const isError = status === 'failed' || (exitCode !== undefined && exitCode !== 0);
    return [...announced, { type: 'tool_result', id, ...(tool ? { name: tool.name, tool } : {}), output, isError, raw }];
  }

  /** A turn's first record opens it with `init` (the session id its params name). */
  function opening(params: JsonObject | undefined, record: JsonObject): TranslatedEvent[] {
    if (turnStarted) return [];
    turnStarted = true;
    const sessionId = stringOf(params?.sessionId);
    return [{ type: 'init', ...(sessionId ? { sessionId } : {}), raw: record }];
  }

  /** A permission question about a call no update announced (Gemini asks first) announces it. */
  function question(record: JsonObject): TranslatedEvent[] {
    const params = asJsonObject(record.params);
    const asked = asJsonObject(params?.toolCall);
    const id = stringOf(asked?.toolCallId);
    if (!asked || !id) return [];
    if (awaitingInput.has(id)) return [...opening(params, record), ...releaseCall(id, asked, record)];
    if (tools.has(id)) return [];
    return [...opening(params, record), ...announce(asked, record)];
  }

  function update(record: JsonObject): TranslatedEvent[] {
    const params = asJsonObject(record.params);
    const body = asJsonObject(params?.update);
    const kind = stringOf(body?.sessionUpdate);
    const events = opening(params, record);
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
        return [...events, { type: 'plan', items: planItemsOf(body.entries, { content: 'content', status: 'status' }), raw: record }];
      default:
        return [...events, { type: 'progress', kind: statusUpdates.has(kind) ? 'status' : 'unknown', subtype: kind, raw: record }];
    }
  }

  function usageEvent(result: JsonObject | undefined, raw: unknown): TranslatedEvent[] {
    const reported = result && (spec.usage ?? protocolUsage)(result);
    // No usage: no model call completed (the turn was cancelled or failed before one did).
    if (!reported) return [];
    if (!spec.usageIsSessionTotal) return [{ type: 'usage', usage: reported, raw }];
    const share = subtractUsage(reported, sessionTotal);
    sessionTotal = reported;
    return [{ type: 'usage', usage: share, raw }];
  }

  /** A refused prompt (acpRefusalRecord): a failed model call where the agent's dialect reads one, else a protocol error. */
  function refusal(record: JsonObject): TranslatedEvent[] {
    turnStarted = false;
    modelWrote = false;
    failure = undefined;
    const message = stringOf(asJsonObject(record.error)?.message) ?? `${spec.agent} refused the prompt`;
    const failed = spec.promptRefusal?.(message);
    const code = failed ? classifyApiError(failed.httpStatus, message, 'server') : 'protocol';
    return [
      ...flush(record),
      { type: 'error', code, fatal: true, message, ...(failed?.httpStatus === undefined ? {} : { httpStatus: failed.httpStatus }), raw: record },
      { type: 'done', status: 'error', raw: record },
    ];
  }

  function answer(record: JsonObject): TranslatedEvent[] {
    if (!('result' in record)) return refusal(record);
    turnStarted = false;
    modelWrote = false;
    const result = asJsonObject(record.result);
    const stopReason = stringOf(result?.stopReason) ?? 'unknown';
    const failed = stopReason === 'end_turn' ? failure : undefined;
    if (failed) failure = undefined;
    const events = [...flush(record), ...usageEvent(result, record)];
    if (failed) {
      const { message, httpStatus } = failed.failed;
      events.push(
        { type: 'error', code: classifyApiError(httpStatus, message, 'server'), fatal: true, message, ...(httpStatus === undefined ? {} : { httpStatus }), raw: failed.raw },
        { type: 'done', status: 'error', raw: record },
      );
      return events;
    }
    if (finishedReasons.has(stopReason)) {
      if (stopReason === 'max_tokens') events.push({ type: 'progress', kind: 'warning', subtype: stopReason, message: 'the answer was cut at the token limit', raw: record });
      events.push({ type: 'done', status: 'success', raw: record });
      return events;
    }
    const code = stopReason === 'cancelled' ? 'aborted' : stopReason === 'max_turn_requests' ? 'max_turns' : 'protocol';
    events.push({ type: 'error', code, fatal: true, message: `${spec.agent} ended the turn: ${stopReason}`, raw: record });
    events.push({ type: 'done', status: 'error', raw: record });
    return events;
  }

  function translateRecord(object: JsonObject | undefined, record: unknown): TranslatedEvent[] {
    if (object && isAcpAnswer(object)) return answer(object);
    if (object?.method === 'session/update') return update(object);
    if (object?.method === 'session/request_permission') return question(object);
    return [{ type: 'progress', kind: 'unknown', ...(typeof object?.method === 'string' ? { subtype: object.method } : {}), raw: record }];
  }

  return {
    translate(record) {
      const object = asJsonObject(record);
      const held = awaitingInput.size > 0 ? releaseOthers(toolCallIdOf(object), record) : [];
      const events = translateRecord(object, record);
      return held.length > 0 ? [...held, ...events] : events;
    },
  };
}
