// `opencode run --format json` records → events. Pure and deterministic: per-run state only.
//
// What OpenCode does that shapes this file (measured on 1.18.33):
// - There is no final record: one `step_start … step_finish` per model call, and the run ends with
//   the process (or after an `error` record, which is the last). A `step_finish` whose reason is not `tool-calls` (nor `unknown`, after which
//   OpenCode calls the model again) ends the turn: that is the `done`, with the text of that step.
// - `text` and `reasoning` parts are whole (written when the part ends), never deltas.
// - A tool call is one `tool_use` record, written once the tool has finished (`completed` or
//   `error`): it becomes a tool_use and its tool_result together.
// - `run` cannot ask anyone: an `ask` permission is auto-rejected (the tool_use fails with "The user
//   rejected permission …") and the run stops after that step, exit 0, with no final step. That is
//   a failed run here, never a success with an empty answer.
// - Usage is per model call (`step_finish.tokens`: `input` without the cached part, `output`
//   without the reasoning), summed.
import type { Translator, TranslatorContext } from '../../core/contract/adapter.js';
import { classifyApiError } from '../../core/translate/api-errors.js';
import type { ErrorCode } from '../../errors.js';
import type { PlanItem, PlanItemStatus, TranslatedEvent, Usage } from '../../events.js';
import type { ResolvedOpts } from '../../options.js';
import { countOf, isJsonObject, stringOf, type JsonObject } from '../../schema/json.js';
import { eventToolName, toolFactsOf, type McpNames } from './tools.js';
import { parsedJson } from '../../core/translate/tool-output.js';

/** Finish reasons after which OpenCode calls the model again in the same turn. */
const CONTINUES = new Set(['tool-calls', 'unknown']);

/** The text OpenCode gives a tool call that an auto-rejected permission ask stopped. */
const REJECTED = /rejected permission/i;

/** Error names OpenCode gives failures that are not the model API's. */
const ERROR_NAMES: Readonly<Record<string, ErrorCode>> = {
  ProviderAuthError: 'auth',
  ProviderModelNotFoundError: 'invalid_options',
  ContextOverflowError: 'context_too_large',
  MessageOutputLengthError: 'context_too_large',
  MessageAbortedError: 'aborted',
};

const PLAN_STATUS: Readonly<Record<string, PlanItemStatus>> = {
  pending: 'pending',
  in_progress: 'in_progress',
  completed: 'completed',
  // Nothing is left to do on a cancelled item; the record keeps the word (raw).
  cancelled: 'completed',
};

export function mcpNamesOf(opts: Pick<ResolvedOpts, 'tools' | 'mcpServers'>): McpNames {
  return { tools: (opts.tools ?? []).map((tool) => tool.name), servers: Object.keys(opts.mcpServers ?? {}) };
}

/** `step_finish.tokens` as this call's usage; `costUsd` only when OpenCode priced it (0 means no price known). */
export function opencodeUsage(tokens: unknown, cost: unknown): Usage | undefined {
  if (!isJsonObject(tokens)) return undefined;
  const cache = isJsonObject(tokens.cache) ? tokens.cache : {};
  const cacheRead = countOf(cache.read);
  const usage: Usage = {
    inputTokens: countOf(tokens.input) + cacheRead + countOf(cache.write),
    cachedInputTokens: cacheRead,
    // OpenCode takes the reasoning out of `output`; the model API counted it in (as Usage does).
    outputTokens: countOf(tokens.output) + countOf(tokens.reasoning),
    reasoningTokens: countOf(tokens.reasoning),
  };
  if (typeof cost === 'number' && Number.isFinite(cost) && cost > 0) usage.costUsd = cost;
  return usage;
}

function planItems(value: unknown): PlanItem[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const items: PlanItem[] = [];
  for (const todo of value) {
    if (!isJsonObject(todo)) continue;
    const content = stringOf(todo.content);
    if (content === undefined) continue;
    items.push({ content, status: PLAN_STATUS[stringOf(todo.status) ?? ''] ?? 'pending' });
  }
  return items;
}

/** `{ name, data: { message, statusCode? } }` → the error event. */
function errorEvent(record: JsonObject): TranslatedEvent {
  const error = isJsonObject(record.error) ? record.error : {};
  const data = isJsonObject(error.data) ? error.data : {};
  const name = stringOf(error.name) ?? 'UnknownError';
  const message = stringOf(data.message) ?? stringOf(error.message) ?? `opencode reported ${name}`;
  const status = typeof data.statusCode === 'number' ? data.statusCode : undefined;
  const code = ERROR_NAMES[name] ?? classifyApiError(status, message, 'server');
  return { type: 'error', code, message, fatal: true, raw: record, ...(status === undefined ? {} : { httpStatus: status }) };
}

export function createOpencodeTranslator(ctx: TranslatorContext): Translator {
  const names = mcpNamesOf(ctx.opts);
  let sessionId: string | undefined;
  /** The text parts of the model call under way (the answer, once it is the last). */
  let stepTexts: string[] = [];

  function toolEvents(record: JsonObject, part: JsonObject): TranslatedEvent[] {
    const cliName = stringOf(part.tool) ?? 'unknown';
    const state = isJsonObject(part.state) ? part.state : {};
    const id = stringOf(part.callID) ?? stringOf(part.id) ?? 'unknown';
    const input = state.input ?? {};
    const tool = toolFactsOf(cliName, input, names);
    const name = eventToolName(cliName, names);
    const status = stringOf(state.status);
    const failed = status === 'error';
    const extra = { cliToolName: cliName, ...(status === undefined ? {} : { status }) };
    const events: TranslatedEvent[] = [{ type: 'tool_use', id, name, input, tool, raw: record, extra }];
    // A record of a call still running (other versions may write one) has no result yet.
    if (status !== 'completed' && status !== 'error') return events;
    const output = parsedJson(failed ? (stringOf(state.error) ?? state.error) : (state.output ?? ''));
    const metadata = isJsonObject(state.metadata) ? state.metadata : {};
    // A shell command that exits non-zero is `completed` to OpenCode (metadata.exit holds the code).
    const commandFailed = tool.kind === 'shell' && typeof metadata.exit === 'number' && metadata.exit !== 0;
    const resultExtra = typeof metadata.exit === 'number' ? { ...extra, exitCode: metadata.exit } : extra;
    events.push({ type: 'tool_result', id, name, output, isError: failed || commandFailed, tool, raw: record, extra: resultExtra });
    if (tool.kind === 'plan') {
      const items = planItems(metadata.todos) ?? planItems(isJsonObject(input) ? input.todos : undefined);
      if (items) events.push({ type: 'plan', items, toolUseId: id, raw: record });
    }
    if (tool.kind === 'task') {
      const args = isJsonObject(input) ? input : {};
      const description = stringOf(args.description);
      events.push({
        type: 'subagent',
        phase: 'completed',
        taskId: stringOf(metadata.sessionId) ?? id,
        toolUseId: id,
        status: failed ? 'error' : 'success',
        raw: record,
        ...(description === undefined ? {} : { description }),
      });
    }
    if (failed && REJECTED.test(typeof output === 'string' ? output : '')) {
      events.push({
        type: 'error',
        code: 'feature_not_supported',
        message: `opencode run asked for permission to use ${cliName} and, with no one to ask, rejected it and stopped the run. Allow the tool (permissionPolicy.allow) or keep the agent inside its working directory.`,
        fatal: true,
        raw: record,
      });
    }
    return events;
  }

  function stepFinish(record: JsonObject, part: JsonObject): TranslatedEvent[] {
    const events: TranslatedEvent[] = [];
    const usage = opencodeUsage(part.tokens, part.cost);
    if (usage) events.push({ type: 'usage', usage, raw: record });
    const reason = stringOf(part.reason) ?? 'unknown';
    if (!CONTINUES.has(reason)) {
      const text = stepTexts.join('\n');
      events.push({ type: 'done', status: 'success', raw: record, extra: { reason }, ...(text ? { text } : {}), ...(sessionId ? { sessionId } : {}) });
    }
    // Every record is an event: a step that goes on and counted nothing still marks a model call.
    return events.length ? events : [{ type: 'progress', kind: 'status', subtype: 'step_finish', raw: record }];
  }

  return {
    translate(record) {
      if (!isJsonObject(record)) return [{ type: 'progress', kind: 'unknown', raw: record }];
      const events: TranslatedEvent[] = [];
      const recordSession = stringOf(record.sessionID);
      if (recordSession !== undefined && sessionId === undefined) {
        sessionId = recordSession;
        events.push({ type: 'init', sessionId, raw: record });
      }
      const part = isJsonObject(record.part) ? record.part : {};
      const id = stringOf(part.id);
      const type = stringOf(record.type);
      switch (type) {
        case 'step_start':
          stepTexts = [];
          events.push({ type: 'progress', kind: 'status', subtype: 'step_start', raw: record });
          break;
        case 'text': {
          const text = stringOf(part.text) ?? '';
          const metadata = isJsonObject(part.metadata) ? part.metadata : {};
          // After a compaction OpenCode adds a synthetic user-side nudge to go on: not an answer.
          if (part.synthetic === true) {
            events.push(metadata.compaction_continue === true ? { type: 'compaction', phase: 'completed', trigger: 'auto', raw: record } : { type: 'progress', kind: 'other', subtype: 'synthetic_text', message: text, raw: record });
            break;
          }
          stepTexts.push(text);
          events.push({ type: 'message', role: 'assistant', text, delta: false, raw: record, ...(id ? { id } : {}) });
          break;
        }
        case 'reasoning':
          events.push({ type: 'reasoning', text: stringOf(part.text) ?? '', delta: false, raw: record, ...(id ? { id } : {}) });
          break;
        case 'tool_use':
          events.push(...toolEvents(record, part));
          break;
        case 'step_finish':
          events.push(...stepFinish(record, part));
          break;
        case 'error':
          // OpenCode exits after it (1.18.33): the run's last record, as a failed done.
          events.push(errorEvent(record), { type: 'done', status: 'error', raw: record, ...(sessionId ? { sessionId } : {}) });
          break;
        default:
          events.push({ type: 'progress', kind: 'unknown', raw: record, ...(type ? { subtype: type } : {}) });
      }
      return events;
    },
  };
}
