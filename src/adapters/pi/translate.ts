// pi `--mode json` records → CoderStreamEvents. Pure and deterministic: per-run state only.
//
// What pi does that shapes this file (measured on 0.73.1 and 1.6.0):
// - It exits 0 when the model call failed: the run's outcome is the last assistant `message_end`
//   (`stopReason` error/aborted + `errorMessage`), reported here as a fatal error with the done.
// - `agent_end` is not final while pi retries: since 0.75.4 it says so (`willRetry`); older pi
//   emits `auto_retry_start` after it, so a retryable failure waits for the retry's outcome.
// - `message_update` carries deltas (the message snapshots in pre-1.x records are unreliable, so
//   they are ignored); `message_end` is authoritative.
// - The user's prompt, the system prompt (1.x) and tool results are messages too: never answer text.
// - Custom tools (MCP, 1.x) are `mcp__coderline__<tool>`, sanitized and sometimes hashed (below);
//   events carry the user's name, and the CLI's in `extra.cliToolName`.
import type { ToolOutput, TranslatedEvent, Usage } from '../../events.js';
import type { Translator, TranslatorContext } from '../../core/contract/adapter.js';
import { classifyApiError } from '../../core/translate/api-errors.js';
import { sha256Hex } from '../../core/translate/sha256.js';
import { bridgedToolName, toolBridgeServerName } from '../../schema/tool-names.js';
import { countOf } from '../../schema/json.js';
import { isRecord, textOf, thinkingOf, type PiMessage, type PiRecord, type PiToolResult, type PiUsage } from './records.js';
import { parsedJson } from '../../core/translate/tool-output.js';

/** Failures pi 0.73–0.75.3 retries on its own (a subset of its pattern; used only without `willRetry`). */
const RETRYABLE_BEFORE_WILL_RETRY =
  /overloaded|rate.?limit|too many requests|(?<![0-9])(429|50[0234]|52[04])(?![0-9])|unavailable|server.?error|internal.?error|network|connection|other side closed|fetch failed|ECONN|ETIMEDOUT|socket|timed? ?out|terminated/i;

const LIFECYCLE = new Set(['agent_start', 'turn_start', 'turn_end', 'agent_settled']);
const RETRY_RECORDS = new Set(['summarization_retry_scheduled', 'summarization_retry_attempt_start', 'summarization_retry_finished']);
const STATE_RECORDS = new Set(['queue_update', 'entry_appended', 'session_info_changed', 'thinking_level_changed']);

/**
 * pi's compaction records (1.6.0, recorded: `reason` manual, threshold or overflow; the end's `result`
 * has `tokensBefore`, `estimatedTokensAfter` and the usage of the summary call, none when it failed).
 * The summary call is a model call like the others: its usage counts.
 */
function compaction(record: PiRecord): TranslatedEvent[] {
  const fields = record as Record<string, unknown>;
  const event: Extract<TranslatedEvent, { type: 'compaction' }> = { type: 'compaction', phase: record.type === 'compaction_start' ? 'started' : 'completed', raw: record };
  if (typeof fields.reason === 'string') event.trigger = fields.reason === 'manual' ? 'manual' : 'auto';
  const result = isRecord(fields.result) ? (fields.result as Record<string, unknown>) : undefined;
  if (typeof result?.tokensBefore === 'number') event.tokensBefore = result.tokensBefore;
  if (typeof result?.estimatedTokensAfter === 'number') event.tokensAfter = result.estimatedTokensAfter;
  if (typeof fields.errorMessage === 'string') event.extra = { errorMessage: fields.errorMessage };
  const usage = isRecord(result?.usage) ? piUsage(result.usage as PiUsage) : undefined;
  return usage ? [event, { type: 'usage', usage, raw: record }] : [event];
}

export function piUsage(usage: PiUsage | undefined): Usage | undefined {
  if (!usage) return undefined;
  // Records are untrusted: a count that is not a number is none (never a string concatenation).
  const cacheRead = countOf(usage.cacheRead);
  const result: Usage = {
    // pi counts cache reads/writes apart from `input`; Usage.inputTokens is the whole prompt.
    inputTokens: countOf(usage.input) + cacheRead + countOf(usage.cacheWrite),
    cachedInputTokens: cacheRead,
    outputTokens: countOf(usage.output),
    reasoningTokens: countOf(usage.reasoning),
  };
  // pi prices usage from models.json; 0 means "no price known", not "free".
  const cost = usage.cost?.total;
  if (typeof cost === 'number' && cost > 0) result.costUsd = cost;
  return result;
}

/** `401: {...}` (1.x) or `401 Invalid API key` (0.73): the HTTP status pi's provider saw. */
export function httpStatusOf(errorMessage: string | undefined): number | undefined {
  const match = /^(\d{3})(?![0-9])/.exec(errorMessage?.trim() ?? '');
  return match ? Number(match[1]) : undefined;
}

/** The longest tool name pi gives a model (providers' limit). */
const PI_MAX_TOOL_NAME = 64;

/**
 * pi's names for the MCP tools `tools` of `server`, in order (pi 1.6.0, createMcpToolName of
 * @earendil-works/pi-mcp): `mcp__<server>__<tool>` with everything but `[A-Za-z0-9_]` turned into
 * `_`; a name over 64 characters, or one that several tools sanitize to, is cut and suffixed with
 * `_` + 8 hex digits of sha256(`<server>\0<tool>`).
 */
export function piBridgedToolNames(server: string, tools: readonly string[]): string[] {
  const plain = tools.map((tool) => `mcp__${server}__${tool}`.replace(/[^A-Za-z0-9_]/g, '_'));
  return tools.map((tool, index) => {
    const name = plain[index]!;
    if (name.length <= PI_MAX_TOOL_NAME && plain.indexOf(name) === plain.lastIndexOf(name)) return name;
    const hash = sha256Hex(`${server}\0${tool}`).slice(0, 8);
    return `${name.slice(0, PI_MAX_TOOL_NAME - hash.length - 1)}_${hash}`;
  });
}

function toolOutput(result: PiToolResult | undefined): ToolOutput {
  if (!result) return undefined;
  const blocks = result.content ?? [];
  // Text is what the model saw; other blocks (images) are kept as they are.
  return blocks.every((block) => block.type === 'text') ? textOf(blocks) : parsedJson(result);
}

/** The error event for a failed assistant message; `fatal` once pi has given up on it. */
function failureEvent(message: PiMessage, fatal: boolean, raw: unknown): TranslatedEvent {
  const text = message.errorMessage ?? `pi stopped with stopReason "${message.stopReason}"`;
  const httpStatus = httpStatusOf(message.errorMessage);
  return {
    type: 'error',
    code: message.stopReason === 'aborted' ? 'aborted' : classifyApiError(httpStatus, text, 'server'),
    message: text,
    fatal,
    ...(httpStatus === undefined ? {} : { httpStatus }),
    raw,
  };
}

interface Outcome {
  failed: boolean;
  message?: PiMessage;
}

export function createPiTranslator(ctx: TranslatorContext): Translator {
  const streaming = ctx.opts.streamPartialMessages === true;
  /** pi's name of each custom tool → the user's. */
  const userToolNames = new Map<string, string>();
  const toolNames = (ctx.opts.tools ?? []).map((tool) => tool.name);
  piBridgedToolNames(toolBridgeServerName, toolNames).forEach((cliName, index) => userToolNames.set(cliName, toolNames[index]!));
  /** The user's name of each custom tool call pi started, by call id. */
  const bridgedCalls = new Map<string, string>();
  let sessionId: string | undefined;
  let last: Outcome = { failed: false };
  let lastAnswer: string | undefined;
  let retryPending = false;
  let done = false;
  /** After a retry starts, the deltas streamed so far are void. */
  let resetNext = false;
  /** User messages of this run so far: the first is its prompt, later ones were pushed in (steer). */
  let userMessages = 0;

  function withReset<E extends TranslatedEvent>(event: E): E {
    if (event.type === 'message' && resetNext) {
      resetNext = false;
      return { ...event, reset: true };
    }
    return event;
  }

  function finish(raw: unknown): TranslatedEvent[] {
    if (done) return [];
    done = true;
    retryPending = false;
    const events: TranslatedEvent[] = [];
    if (last.failed && last.message) events.push(failureEvent(last.message, true, raw));
    events.push({
      type: 'done',
      status: last.failed ? 'error' : 'success',
      ...(lastAnswer === undefined ? {} : { text: lastAnswer }),
      ...(sessionId === undefined ? {} : { sessionId }),
      raw,
    });
    return events;
  }

  function assistantEnd(record: PiRecord, message: PiMessage): TranslatedEvent[] {
    const events: TranslatedEvent[] = [];
    for (const thinking of thinkingOf(message.content)) events.push({ type: 'reasoning', text: thinking, delta: false, raw: record });
    const text = textOf(message.content);
    if (text) events.push(withReset({ type: 'message', role: 'assistant', text, delta: false, raw: record }));
    // The answer is the last assistant message's text (a final tool call or failure has none).
    lastAnswer = text || undefined;
    const usage = piUsage(message.usage);
    if (usage) events.push({ type: 'usage', usage, raw: record });
    const stop = message.stopReason;
    last = { failed: stop === 'error' || stop === 'aborted', message };
    if (stop === 'error') {
      // Not fatal yet: pi may retry. The run's outcome is decided when pi ends the run.
      events.push(failureEvent(message, false, record));
    } else if (stop === 'length') {
      events.push({ type: 'progress', kind: 'warning', subtype: 'message_end/length', message: 'the answer was cut at the output token limit', raw: record });
    }
    return events;
  }

  function messageUpdate(record: PiRecord): TranslatedEvent[] {
    const update = record.assistantMessageEvent;
    const kind = update?.type;
    if (kind === 'text_delta' || kind === 'thinking_delta') {
      if (!streaming || typeof update?.delta !== 'string' || update.delta === '') return [];
      return kind === 'text_delta'
        ? [withReset({ type: 'message', role: 'assistant', text: update.delta, delta: true, raw: record })]
        : [{ type: 'reasoning', text: update.delta, delta: true, raw: record }];
    }
    // Block boundaries and tool-call argument streaming: message_end and tool_execution_* say it all.
    if (typeof kind === 'string' && /^(start|done|error|(text|thinking|toolcall)_(start|delta|end))$/.test(kind)) return [];
    return [{ type: 'progress', kind: 'unknown', subtype: `message_update/${String(kind)}`, raw: record }];
  }

  function agentEnd(record: PiRecord): TranslatedEvent[] {
    if (record.willRetry === true) {
      retryPending = true;
      return [{ type: 'progress', kind: 'retry', subtype: 'agent_end', message: 'pi will retry the failed model call', raw: record }];
    }
    if (record.willRetry === undefined && last.failed && RETRYABLE_BEFORE_WILL_RETRY.test(last.message?.errorMessage ?? '')) {
      // pi < 0.75.4: an auto_retry_start may follow; its auto_retry_end (or the next agent_end) decides.
      retryPending = true;
      return [{ type: 'progress', kind: 'status', subtype: 'agent_end', message: 'waiting for a possible retry', raw: record }];
    }
    return finish(record);
  }

  /** The user's name for a custom tool's call (the result's `details` say which MCP tool ran). */
  function userToolName(record: PiRecord): string | undefined {
    const details = record.result?.details as { server?: unknown; tool?: unknown } | null | undefined;
    const fromDetails = typeof details === 'object' && details !== null ? bridgedToolName(ctx.opts, details.server, details.tool) : undefined;
    if (fromDetails !== undefined) return fromDetails;
    const started = record.toolCallId === undefined ? undefined : bridgedCalls.get(record.toolCallId);
    return started ?? (record.toolName === undefined ? undefined : userToolNames.get(record.toolName));
  }

  function translateRecord(record: PiRecord): TranslatedEvent[] {
    switch (record.type) {
      case 'session':
        sessionId = record.id;
        return [
          {
            type: 'init',
            ...(record.id === undefined ? {} : { sessionId: record.id }),
            ...(record.cwd === undefined ? {} : { cwd: record.cwd }),
            ...(record.parentSession === undefined ? {} : { extra: { parentSession: record.parentSession } }),
            raw: record,
          },
        ];
      case 'message_start':
        return [];
      case 'message_update':
        return messageUpdate(record);
      case 'message_end':
        if (record.message?.role === 'user') return (userMessages += 1) > 1 ? [{ type: 'user_message', text: textOf(record.message.content), raw: record }] : [];
        return record.message?.role === 'assistant' ? assistantEnd(record, record.message) : [];
      case 'tool_execution_start': {
        const name = userToolName(record);
        if (name === undefined) return [{ type: 'tool_use', id: record.toolCallId ?? '', name: record.toolName ?? '', input: record.args ?? {}, raw: record }];
        if (record.toolCallId !== undefined) bridgedCalls.set(record.toolCallId, name);
        return [{ type: 'tool_use', id: record.toolCallId ?? '', name, input: record.args ?? {}, extra: { cliToolName: record.toolName }, raw: record }];
      }
      case 'tool_execution_update': {
        const output = textOf(record.partialResult?.content);
        return [
          {
            type: 'progress',
            kind: 'tool_output',
            subtype: 'tool_execution_update',
            ...(output ? { message: output } : {}),
            extra: { toolCallId: record.toolCallId, toolName: record.toolName },
            raw: record,
          },
        ];
      }
      case 'tool_execution_end': {
        const name = userToolName(record);
        return [
          {
            type: 'tool_result',
            id: record.toolCallId ?? '',
            ...(name !== undefined ? { name } : record.toolName === undefined ? {} : { name: record.toolName }),
            output: toolOutput(record.result),
            isError: record.isError === true,
            extra: { details: record.result?.details, durationMs: record.durationMs, ...(name === undefined ? {} : { cliToolName: record.toolName }) },
            raw: record,
          },
        ];
      }
      case 'auto_retry_start':
        retryPending = true;
        resetNext = true;
        return [
          {
            type: 'progress',
            kind: 'retry',
            subtype: 'auto_retry_start',
            message: `retry ${record.attempt ?? '?'}/${record.maxAttempts ?? '?'} in ${record.delayMs ?? '?'} ms: ${record.errorMessage ?? ''}`.trim(),
            extra: { attempt: record.attempt, maxAttempts: record.maxAttempts, delayMs: record.delayMs },
            raw: record,
          },
        ];
      case 'auto_retry_end': {
        const events: TranslatedEvent[] = [
          {
            type: 'progress',
            kind: 'retry',
            subtype: 'auto_retry_end',
            message: record.success ? 'the retry succeeded' : `retries exhausted: ${record.finalError ?? 'unknown error'}`,
            extra: { attempt: record.attempt, success: record.success },
            raw: record,
          },
        ];
        // pi < 0.75.4 ends a failed retry series here, after its last agent_end.
        if (record.success === false && retryPending && !done) events.push(...finish(record));
        return events;
      }
      case 'compaction_start':
      case 'compaction_end': {
        const events = compaction(record);
        // pi also compacts after the run, once the answer passed the threshold: the core takes a
        // compaction after the final record as the turn going on, so the same final record comes again.
        if (done && !last.failed && record.type === 'compaction_end') {
          done = false;
          events.push(...finish(record));
        }
        return events;
      }
      case 'agent_end':
        return done ? [{ type: 'progress', kind: 'status', subtype: 'agent_end', raw: record }] : agentEnd(record);
      default:
        if (record.type === 'agent_settled' && !done) return finish(record);
        if (typeof record.type === 'string' && LIFECYCLE.has(record.type)) {
          return [{ type: 'progress', kind: 'status', subtype: record.type, raw: record }];
        }
        if (typeof record.type === 'string' && RETRY_RECORDS.has(record.type)) {
          return [{ type: 'progress', kind: 'retry', subtype: record.type, raw: record }];
        }
        if (typeof record.type === 'string' && STATE_RECORDS.has(record.type)) {
          return [{ type: 'progress', kind: 'other', subtype: record.type, raw: record }];
        }
        return [{ type: 'progress', kind: 'unknown', subtype: String(record.type ?? 'untyped'), raw: record }];
    }
  }

  return {
    translate(record: unknown): TranslatedEvent[] {
      if (!isRecord(record)) return [{ type: 'progress', kind: 'unknown', subtype: 'not-an-object', raw: record }];
      return translateRecord(record);
    },
  };
}
