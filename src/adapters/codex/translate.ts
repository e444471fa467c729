// `codex exec --json` records → events. Pure and deterministic: state is per run, no clock, no I/O.
import type { Translator, TranslatorContext } from '../../core/contract/adapter.js';
import { classifyApiError } from '../../core/translate/api-errors.js';
import { countOf, isJsonObject, stringOf, textOfBlocks, type JsonObject } from '../../schema/json.js';
import { bridgedToolName } from '../../schema/tool-names.js';
import type { ErrorCode } from '../../errors.js';
import type { ToolOutput, TranslatedEvent, Usage } from '../../events.js';
import { parsedJson } from '../../core/translate/tool-output.js';


/** Item types that are tool calls: `item.started` → tool_use, `item.completed` → tool_result. */
const TOOL_ITEMS = new Set(['command_execution', 'file_change', 'mcp_tool_call', 'web_search']);

/** "Reconnecting... 2/5 (…)" and "Reconnecting... waiting for network": the CLI retries on its own. */
const RECONNECTING = /^Reconnecting\.\.\./;

/** Codex replaces a 5xx body with this canned text (with a curly apostrophe). */
const CANNED_OVERLOAD = /experiencing high demand/i;

/** The HTTP status Codex quotes in its messages ("unexpected status 401 …", "last status: 429 …"). */
function httpStatusIn(message: string): number | undefined {
  const match = /status:?\s+(\d{3})\b/.exec(message);
  return match ? Number(match[1]) : undefined;
}

/** A 400 error's message is the raw response body: take its error.message and error.code when it is JSON. */
function bodyError(message: string): { message: string; code?: string } | undefined {
  // Most messages are plain text, and a parse that throws costs more than the rest of the translation.
  if (!message.trimStart().startsWith('{')) return undefined;
  try {
    const body: unknown = JSON.parse(message);
    const error = isJsonObject(body) && isJsonObject(body.error) ? body.error : undefined;
    const text = stringOf(error?.message);
    if (!text) return undefined;
    const code = stringOf(error?.code) ?? stringOf(error?.type);
    return code ? { message: text, code } : { message: text };
  } catch {
    return undefined;
  }
}

function classify(message: string): { code: ErrorCode; message: string; httpStatus?: number } {
  const fromBody = bodyError(message);
  const text = fromBody?.message ?? message;
  const httpStatus = httpStatusIn(message);
  const hint = `${text} ${fromBody?.code ?? ''}`;
  const code = CANNED_OVERLOAD.test(text) ? 'server' : classifyApiError(httpStatus, hint, 'server');
  return httpStatus === undefined ? { code, message: text } : { code, message: text, httpStatus };
}

/** Codex usage is cumulative over the thread (the core turns it into this run's share). */
export function usageFrom(value: unknown): Usage | undefined {
  if (!isJsonObject(value)) return undefined;
  return {
    inputTokens: countOf(value.input_tokens),
    cachedInputTokens: countOf(value.cached_input_tokens),
    outputTokens: countOf(value.output_tokens),
    reasoningTokens: countOf(value.reasoning_output_tokens),
  };
}

function toolName(item: JsonObject): string {
  if (item.type === 'mcp_tool_call') return `mcp__${stringOf(item.server) ?? 'unknown'}__${stringOf(item.tool) ?? 'unknown'}`;
  return String(item.type);
}

function toolInput(item: JsonObject): unknown {
  switch (item.type) {
    case 'command_execution':
      return { command: item.command };
    case 'file_change':
      return { changes: item.changes };
    case 'mcp_tool_call':
      return item.arguments;
    default:
      return { query: item.query, action: item.action };
  }
}

/** An MCP result's text, as the other CLIs report it; a result with other content stays as it came. */
function mcpOutput(result: unknown): unknown {
  return (isJsonObject(result) ? textOfBlocks(result.content) : undefined) ?? result;
}

function toolOutcome(item: JsonObject): { output: ToolOutput; isError: boolean; extra?: JsonObject } {
  const failed = item.status === 'failed';
  switch (item.type) {
    case 'command_execution': {
      const exitCode = typeof item.exit_code === 'number' ? item.exit_code : undefined;
      return { output: parsedJson(item.aggregated_output), isError: failed || (exitCode !== undefined && exitCode !== 0), extra: { exitCode } };
    }
    case 'mcp_tool_call':
      if (isJsonObject(item.error)) return { output: stringOf(item.error.message) ?? parsedJson(item.error), isError: true };
      return { output: parsedJson(mcpOutput(item.result)), isError: failed };
    case 'file_change':
      return { output: parsedJson({ changes: item.changes }), isError: failed };
    default:
      return { output: parsedJson({ query: item.query, action: item.action }), isError: failed };
  }
}

/**
 * The plan of an `update_plan` call (0.171.0 offers the tool with `tools.update_plan.enabled`): exec
 * prints it as a todo_list item, started, updated and completed, whose entries say only whether they
 * are done, so a step in progress reads as pending.
 */
function todoPlan(item: JsonObject, raw: unknown): TranslatedEvent {
  const items = Array.isArray(item.items)
    ? item.items.flatMap((entry) => {
        const text = isJsonObject(entry) ? stringOf(entry.text) : undefined;
        return text ? [{ content: text, status: isJsonObject(entry) && entry.completed === true ? ('completed' as const) : ('pending' as const) }] : [];
      })
    : [];
  return { type: 'plan', items, raw };
}

export function createCodexTranslator(ctx: TranslatorContext): Translator {
  let threadId: string | undefined;
  let lastMessage: string | undefined;
  const startedTools = new Set<string>();

  /** The run's own tools go by the user's name; the CLI's `mcp__coderline__…` stays in extra. */
  function nameOf(item: JsonObject): { name: string; extra?: JsonObject } {
    const cliName = toolName(item);
    const name = item.type === 'mcp_tool_call' ? bridgedToolName(ctx.opts, item.server, item.tool) : undefined;
    return name === undefined ? { name: cliName } : { name, extra: { cliToolName: cliName } };
  }

  function toolUse(item: JsonObject, raw: unknown): TranslatedEvent {
    const id = String(item.id);
    startedTools.add(id);
    const { name, extra } = nameOf(item);
    const event: TranslatedEvent = { type: 'tool_use', id, name, input: toolInput(item), raw };
    if (extra) event.extra = extra;
    return event;
  }

  function itemStarted(item: JsonObject, raw: unknown): TranslatedEvent[] {
    if (TOOL_ITEMS.has(String(item.type))) return [toolUse(item, raw)];
    if (item.type === 'todo_list') return [todoPlan(item, raw)];
    return [{ type: 'progress', kind: 'unknown', subtype: `item.started/${String(item.type)}`, raw }];
  }

  function itemCompleted(item: JsonObject, raw: unknown): TranslatedEvent[] {
    const id = stringOf(item.id);
    // Optional fields are assigned, not spread into the literal: a spread there is a slow path.
    switch (item.type) {
      case 'agent_message': {
        const text = stringOf(item.text) ?? '';
        lastMessage = text;
        const message: TranslatedEvent = { type: 'message', role: 'assistant', text, delta: false, raw };
        if (id !== undefined) message.id = id;
        return [message];
      }
      case 'reasoning': {
        const reasoning: TranslatedEvent = { type: 'reasoning', text: stringOf(item.text) ?? '', delta: false, raw };
        if (id !== undefined) reasoning.id = id;
        return [reasoning];
      }
      case 'todo_list':
        return [todoPlan(item, raw)];
      case 'error':
        // Warnings: unknown model metadata, ignored config keys, transport fallbacks.
        return [{ type: 'progress', kind: 'warning', subtype: 'item/error', message: stringOf(item.message) ?? '', raw }];
      default:
        break;
    }
    if (!TOOL_ITEMS.has(String(item.type))) {
      return [{ type: 'progress', kind: 'unknown', subtype: `item.completed/${String(item.type)}`, raw }];
    }
    // A tool that finished without a start record still gets its tool_use first.
    const events = id !== undefined && startedTools.has(id) ? [] : [toolUse(item, raw)];
    // A completed tool is never looked up again: forgetting it keeps memory flat on long runs.
    if (id !== undefined) startedTools.delete(id);
    const outcome = toolOutcome(item);
    const { name, extra: nameExtra } = nameOf(item);
    const result: TranslatedEvent = { type: 'tool_result', id: String(item.id), name, output: outcome.output, isError: outcome.isError, raw };
    if (outcome.extra || nameExtra) result.extra = { ...outcome.extra, ...nameExtra };
    events.push(result);
    return events;
  }

  function threadStarted(record: JsonObject): TranslatedEvent[] {
    threadId = stringOf(record.thread_id);
    const init: TranslatedEvent = { type: 'init', raw: record, ...(threadId ? { sessionId: threadId } : {}) };
    if (ctx.opts.model) init.model = ctx.opts.model;
    const session = ctx.session;
    if (session?.kind === 'resume' && threadId !== undefined && threadId !== session.sessionId) {
      // `exec resume` does not fail for a thread it cannot find in this cwd: it starts a new one.
      const message = `codex started a new thread ${threadId} instead of resuming ${session.sessionId} (threads are looked up per working directory)`;
      return [init, { type: 'error', code: 'session_not_found', message, fatal: true, raw: record }];
    }
    return [init];
  }

  function failure(message: string, raw: unknown, fatal: boolean): TranslatedEvent {
    const { code, message: text, httpStatus } = classify(message);
    return { type: 'error', code, message: text, fatal, raw, ...(httpStatus === undefined ? {} : { httpStatus }) };
  }

  return {
    translate(record: unknown): TranslatedEvent[] {
      if (!isJsonObject(record)) return [{ type: 'progress', kind: 'unknown', raw: record }];
      const item = isJsonObject(record.item) ? record.item : undefined;
      switch (record.type) {
        case 'thread.started':
          return threadStarted(record);
        case 'turn.started':
          return [{ type: 'progress', kind: 'status', subtype: 'turn.started', raw: record }];
        case 'item.started':
          if (item) return itemStarted(item, record);
          break;
        case 'item.completed':
          if (item) return itemCompleted(item, record);
          break;
        case 'item.updated':
          if (item?.type === 'todo_list') return [todoPlan(item, record)];
          break;
        case 'turn.completed': {
          const usage = usageFrom(record.usage);
          const done: TranslatedEvent = { type: 'done', status: 'success', raw: record };
          if (lastMessage !== undefined) done.text = lastMessage;
          if (threadId !== undefined) done.sessionId = threadId;
          return usage ? [{ type: 'usage', usage, raw: record }, done] : [done];
        }
        case 'turn.failed': {
          const error = isJsonObject(record.error) ? record.error : {};
          const done: TranslatedEvent = { type: 'done', status: 'error', raw: record };
          if (threadId !== undefined) done.sessionId = threadId;
          return [failure(stringOf(error.message) ?? 'turn failed', record, true), done];
        }
        case 'error': {
          const message = stringOf(record.message) ?? '';
          const retry = RECONNECTING.test(message);
          if (retry) return [{ type: 'progress', kind: 'retry', subtype: 'error/reconnecting', message, raw: record }];
          // The fatal report is the turn.failed that follows; this one is the same text, said first.
          return [failure(message, record, false)];
        }
        default:
          break;
      }
      return [{ type: 'progress', kind: 'unknown', subtype: stringOf(record.type), raw: record }];
    },
  };
}
