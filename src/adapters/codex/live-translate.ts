// `codex app-server` notifications → events. The items are those of `codex exec --json` in camelCase,
// so each is renamed to its exec shape and handed to the one-shot translator (one source of truth for
// tool names, inputs and outcomes); the events keep the notification as `raw`. What exec has no
// record for (deltas, token usage per call, the turn's status) is translated here. Pure and
// deterministic: state is per turn, no clock, no I/O.
import type { Translator, TranslatorContext } from '../../core/contract/adapter.js';
import { countOf, isJsonObject, stringOf, type JsonObject } from '../../schema/json.js';
import { subtractUsage } from '../../core/translate/usage.js';
import type { TranslatedEvent, Usage } from '../../events.js';
import { planItemsOf } from '../../core/translate/plan-items.js';
import { createCodexTranslator } from './translate.js';

/** The exec item type of each app-server item type that has one. */
const EXEC_TYPES: Record<string, string> = {
  agentMessage: 'agent_message',
  reasoning: 'reasoning',
  commandExecution: 'command_execution',
  fileChange: 'file_change',
  mcpToolCall: 'mcp_tool_call',
  webSearch: 'web_search',
};

/** A declined tool use did not run: exec knows that outcome as `failed`. */
const EXEC_STATUS: Record<string, string> = { inProgress: 'in_progress', declined: 'failed' };

const joined = (value: unknown): string | undefined => (Array.isArray(value) && value.length > 0 ? value.map(String).join('\n') : undefined);

/** An app-server item in the shape `codex exec --json` prints it. */
export function execItemOf(item: JsonObject): JsonObject | undefined {
  const type = EXEC_TYPES[String(item.type)];
  if (type === undefined) return undefined;
  const status = stringOf(item.status);
  const common: JsonObject = { id: item.id, type, ...(status === undefined ? {} : { status: EXEC_STATUS[status] ?? status }) };
  switch (item.type) {
    case 'agentMessage':
      return { ...common, text: item.text };
    case 'reasoning':
      return { ...common, text: joined(item.summary) ?? joined(item.content) ?? '' };
    case 'commandExecution':
      return { ...common, command: item.command, aggregated_output: item.aggregatedOutput, exit_code: item.exitCode };
    case 'fileChange': {
      const changes = Array.isArray(item.changes) ? item.changes : [];
      return {
        ...common,
        changes: changes.map((change) => (isJsonObject(change) ? { path: change.path, kind: isJsonObject(change.kind) ? change.kind.type : change.kind, diff: change.diff } : change)),
      };
    }
    case 'mcpToolCall':
      return { ...common, server: item.server, tool: item.tool, arguments: item.arguments, result: item.result, error: item.error };
    default:
      return { ...common, query: item.query, action: item.action };
  }
}

/** The text of a `userMessage` item's input (its `text` parts). */
const userText = (content: unknown): string =>
  (Array.isArray(content) ? content : []).flatMap((part) => (isJsonObject(part) && part.type === 'text' && typeof part.text === 'string' ? [part.text] : [])).join('\n');

/** Token counts of `thread/tokenUsage/updated` (`total`: the thread so far; `last`: the last model call). */
function countsOf(value: unknown): Usage | undefined {
  if (!isJsonObject(value)) return undefined;
  return {
    inputTokens: countOf(value.inputTokens),
    cachedInputTokens: countOf(value.cachedInputTokens),
    outputTokens: countOf(value.outputTokens),
    reasoningTokens: countOf(value.reasoningOutputTokens),
  };
}

/** One turn of a live session: the notifications between `turn/start` and `turn/completed`. */
export function createCodexLiveTranslator(ctx: TranslatorContext): Translator {
  const exec = createCodexTranslator(ctx);
  const partial = ctx.opts.streamPartialMessages === true;
  let turnId: string | undefined;
  let threadId: string | undefined;
  /** The thread's total before this turn's first model call: the turn's usage is the total minus it. */
  let before: Usage | undefined;
  /** User messages of this turn so far: the first is its prompt, later ones were pushed in (turn/steer). */
  let userMessages = 0;

  /** Events of an exec record, with the notification as their raw. */
  function viaExec(record: JsonObject, raw: unknown): TranslatedEvent[] {
    const events = exec.translate(record);
    for (const event of events) event.raw = raw;
    return events;
  }

  const progress = (kind: 'status' | 'warning' | 'retry' | 'tool_output' | 'unknown', method: string, raw: unknown, message?: string): TranslatedEvent => ({
    type: 'progress',
    kind,
    subtype: method,
    raw,
    ...(message === undefined ? {} : { message }),
  });

  function item(method: string, params: JsonObject, raw: unknown): TranslatedEvent[] {
    // A command the previous, interrupted turn left behind ends after that turn: not this turn's.
    if (turnId !== undefined && params.turnId !== undefined && params.turnId !== turnId) return [progress('unknown', `${method}/other-turn`, raw)];
    // The CLI's own compaction of the thread (model_auto_compact_token_limit, 0.171.0): an item around it.
    if (isJsonObject(params.item) && params.item.type === 'contextCompaction') return [{ type: 'compaction', phase: method === 'item/started' ? 'started' : 'completed', raw }];
    if (isJsonObject(params.item) && params.item.type === 'userMessage' && method === 'item/started' && (userMessages += 1) > 1) {
      return [{ type: 'user_message', text: userText(params.item.content), raw }];
    }
    const converted = isJsonObject(params.item) ? execItemOf(params.item) : undefined;
    if (!converted) return [progress('status', `${method}/${String(isJsonObject(params.item) ? params.item.type : 'unknown')}`, raw)];
    // exec prints whole messages only: their start says nothing yet.
    if (method === 'item/started' && (converted.type === 'agent_message' || converted.type === 'reasoning')) return [progress('status', `${method}/${String(converted.type)}`, raw)];
    return viaExec({ type: method === 'item/started' ? 'item.started' : 'item.completed', item: converted }, raw);
  }

  function delta(kind: 'message' | 'reasoning', method: string, params: JsonObject, raw: unknown): TranslatedEvent[] {
    const text = stringOf(params.delta);
    if (!partial || text === undefined) return [progress('status', method, raw)];
    const id = stringOf(params.itemId);
    const event: TranslatedEvent = kind === 'message' ? { type: 'message', role: 'assistant', text, delta: true, raw } : { type: 'reasoning', text, delta: true, raw };
    if (id !== undefined) event.id = id;
    return [event];
  }

  function usage(params: JsonObject, raw: unknown): TranslatedEvent[] {
    const tokenUsage = isJsonObject(params.tokenUsage) ? params.tokenUsage : {};
    const total = countsOf(tokenUsage.total);
    const last = countsOf(tokenUsage.last);
    if (!total || !last) return [progress('unknown', 'thread/tokenUsage/updated', raw)];
    before ??= subtractUsage(total, last);
    // Cumulative within the turn (the adapter's usage is cumulative: the last event is the turn's total).
    return [{ type: 'usage', usage: subtractUsage(total, before), raw }];
  }

  function turnCompleted(params: JsonObject, raw: unknown): TranslatedEvent[] {
    const turn = isJsonObject(params.turn) ? params.turn : {};
    const status = stringOf(turn.status);
    if (status === 'failed') {
      const error = isJsonObject(turn.error) ? turn.error : {};
      return viaExec({ type: 'turn.failed', error: { message: stringOf(error.message) ?? 'turn failed' } }, raw);
    }
    const events = viaExec({ type: 'turn.completed' }, raw);
    // An interrupted turn ends as cancelled (the core knows it interrupted); its done says no success.
    if (status !== 'completed') for (const event of events) if (event.type === 'done') event.status = 'error';
    return events;
  }

  return {
    translate(record: unknown): TranslatedEvent[] {
      if (!isJsonObject(record) || typeof record.method !== 'string') return [{ type: 'progress', kind: 'unknown', raw: record }];
      const { method } = record;
      const params = isJsonObject(record.params) ? record.params : {};
      switch (method) {
        case 'turn/started': {
          threadId = stringOf(params.threadId);
          turnId = isJsonObject(params.turn) ? stringOf(params.turn.id) : undefined;
          return [...viaExec({ type: 'thread.started', thread_id: threadId }, record), progress('status', method, record)];
        }
        case 'item/started':
        case 'item/completed':
          return item(method, params, record);
        case 'item/agentMessage/delta':
          return delta('message', method, params, record);
        case 'item/reasoning/summaryTextDelta':
          return delta('reasoning', method, params, record);
        case 'item/commandExecution/outputDelta':
          return [progress('tool_output', method, record, stringOf(params.delta))];
        case 'thread/tokenUsage/updated':
          return usage(params, record);
        case 'turn/completed':
          return turnCompleted(params, record);
        case 'turn/plan/updated':
          // update_plan's steps, whole each time; statuses in the app-server's camelCase (inProgress).
          return [{ type: 'plan', items: planItemsOf(params.plan, { content: 'step', status: 'status' }), raw: record }];
        case 'error': {
          const error = isJsonObject(params.error) ? params.error : {};
          const message = stringOf(error.message) ?? '';
          // Retries are said as errors too; the turn's failure is its turn/completed.
          if (params.willRetry === true) return [progress('retry', method, record, message)];
          return viaExec({ type: 'error', message }, record);
        }
        case 'warning':
        case 'configWarning':
          return [progress('warning', method, record, stringOf(params.message) ?? stringOf(params.summary))];
        default:
          return [progress('status', method, record)];
      }
    },
  };
}
