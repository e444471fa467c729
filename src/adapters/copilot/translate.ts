// Copilot `--output-format json` records → events. Pure: the same records always give the same events.
//
// Every line is `{type, data, id, timestamp, parentId, ephemeral?}`, except the last one,
// `{type:"result", sessionId, exitCode, usage:{premiumRequests, …}}`. Facts this relies on
// (copilot 1.0.102, fixtures/copilot/1.0.102):
// - the session id is only known from `result`; `session.tools_updated` (first) names the model;
// - a failed model call (`model.call_failure`) may already have streamed deltas, and the retry streams
//   the turn again from the start: the text so far is reset so delta consumers do not see it twice;
// - `tool.execution_complete` has no tool name (joined from `tool.execution_start` by toolCallId) and
//   a failing shell command still says `success:true` (only its exit code tells: see shellExitCode);
// - after a signal, `result.exitCode` can still say 0: the process exit code decides (in the core).
import type { Translator, TranslatorContext } from '../../core/contract/adapter.js';
import { classifyApiError } from '../../core/translate/api-errors.js';
import { asJsonObject, stringOf, type JsonObject } from '../../schema/json.js';
import { bridgedToolName } from '../../schema/tool-names.js';
import type { ErrorCode } from '../../errors.js';
import type { ToolOutput, TranslatedEvent, Usage } from '../../events.js';
import { parsedJson } from '../../core/translate/tool-output.js';

interface CopilotRecord {
  type: string;
  data: JsonObject;
  /** The parsed line as it came, for `raw`. */
  raw: JsonObject;
}

const asNumber = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

/** Records that only mark the CLI's progress through a session: shown as `progress` status events. */
const lifecycleTypes = new Set([
  'session.skills_loaded',
  'session.mcp_servers_loaded',
  'session.tools_updated',
  'session.background_tasks_changed',
  'session.mode_notice_delivered',
  'session.autopilot_stopped',
  'user.message',
  'assistant.turn_start',
  'assistant.turn_end',
  'assistant.message_start',
  'assistant.idle',
  'model.call_start',
  'model.call_finished',
  'model.call_final_result',
  'agent.interrupted',
  'abort',
]);

/** `session.error` errorType → ErrorCode; other types are classified from status and message. */
const errorTypeCodes: Record<string, ErrorCode> = {
  authentication: 'auth',
  rate_limit: 'rate_limit',
  context_window: 'context_too_large',
};

function errorCodeOf(data: JsonObject): ErrorCode {
  const byType = errorTypeCodes[stringOf(data.errorType) ?? ''];
  return byType ?? classifyApiError(asNumber(data.statusCode), stringOf(data.message), 'server');
}

/** What a finished tool call returned: its content, or the error message when it failed. */
function toolOutputOf(data: JsonObject): ToolOutput {
  const result = asJsonObject(data.result);
  if (result && 'content' in result) return parsedJson(result.content);
  const error = asJsonObject(data.error);
  return parsedJson(error ? error.message : result);
}

/**
 * `subagent.started` / `subagent.completed` (1.0.102, around a `task` call: agentId, toolCallId,
 * agentDisplayName, agentDescription; the end with totalTokens, totalToolCalls, durationMs), and
 * between them `subagent.configured` (1.0.85 on: the subagent's model), a progress phase.
 */
function subagentEvent(record: CopilotRecord, taskCalls: Map<string, string>): TranslatedEvent {
  const { data } = record;
  const agentId = stringOf(record.raw.agentId);
  // `subagent.configured` names only the agent: its task call is the one `subagent.started` named.
  const toolUseId = stringOf(data.toolCallId) ?? (agentId === undefined ? undefined : taskCalls.get(agentId));
  if (agentId !== undefined && toolUseId !== undefined) {
    if (record.type === 'subagent.started') taskCalls.set(agentId, toolUseId);
    else if (record.type !== 'subagent.configured') taskCalls.delete(agentId);
  }
  const event: Extract<TranslatedEvent, { type: 'subagent' }> = {
    type: 'subagent',
    phase: record.type === 'subagent.started' ? 'started' : record.type === 'subagent.configured' ? 'progress' : 'completed',
    taskId: agentId ?? toolUseId ?? '',
    raw: record.raw,
  };
  if (toolUseId !== undefined) event.toolUseId = toolUseId;
  const description = stringOf(data.agentDescription) ?? stringOf(data.agentDisplayName);
  if (description !== undefined) event.description = description;
  if (event.phase === 'completed') event.status = record.type === 'subagent.failed' ? 'error' : 'success';
  const totalTokens = asNumber(data.totalTokens);
  if (totalTokens !== undefined) event.usage = { totalTokens };
  const extra: JsonObject = {};
  for (const [key, value] of [['agentName', data.agentName], ['toolUses', data.totalToolCalls], ['durationMs', data.durationMs], ['model', data.model]] as const) {
    if (value !== undefined) extra[key] = value;
  }
  if (Object.keys(extra).length) event.extra = extra;
  return event;
}

export function createCopilotTranslator(ctx: TranslatorContext): Translator {
  const streamPartial = ctx.opts.streamPartialMessages === true;
  const toolNames = new Map<string, string>();
  /** The task call of each subagent still running, by agent id. */
  const taskCalls = new Map<string, string>();
  /** The CLI's own names of calls to the run's custom tools, by call id. */
  const bridgedCliNames = new Map<string, string>();
  const startedTools = new Set<string>();
  /** Tool requests from `assistant.message`, for results whose start was never reported. */
  const requestedTools = new Map<string, { name: string; input: unknown }>();
  let initSent = false;
  let lastAnswer: string | undefined;
  let streamedThisAttempt = false;
  let failed = false;
  let aborted = false;

  const progress = (record: CopilotRecord, kind: 'retry' | 'status' | 'warning' | 'tool_output' | 'other', message?: string): TranslatedEvent => ({
    type: 'progress',
    kind,
    subtype: record.type,
    ...(message === undefined ? {} : { message }),
    raw: record.raw,
  });

  function toolUse(record: CopilotRecord, id: string, name: string, input: unknown): TranslatedEvent {
    startedTools.add(id);
    toolNames.set(id, name);
    return { type: 'tool_use', id, name, input, raw: record.raw };
  }

  function lifecycle(record: CopilotRecord): TranslatedEvent[] {
    const { data } = record;
    if (record.type === 'session.tools_updated' && !initSent) {
      initSent = true;
      const model = stringOf(data.model);
      return [{ type: 'init', ...(model ? { model } : {}), raw: record.raw }];
    }
    if (record.type === 'abort') aborted = true;
    const message = stringOf(data.reason) ?? stringOf(data.cancelPhase);
    return [progress(record, 'status', message)];
  }

  function assistantMessage(record: CopilotRecord): TranslatedEvent[] {
    const { data } = record;
    streamedThisAttempt = false;
    const content = stringOf(data.content) ?? '';
    const id = stringOf(data.messageId);
    const events: TranslatedEvent[] = [];
    const names: string[] = [];
    for (const request of Array.isArray(data.toolRequests) ? data.toolRequests : []) {
      const call = asJsonObject(request);
      const callId = stringOf(call?.toolCallId);
      const name = stringOf(call?.name) ?? 'unknown';
      names.push(name);
      if (call && callId) requestedTools.set(callId, { name, input: call.arguments });
    }
    if (content) {
      // A subagent's message is its report to the parent, not the answer.
      if (data.parentToolCallId === undefined) lastAnswer = content;
      events.push({ type: 'message', role: 'assistant', text: content, delta: false, ...(id ? { id } : {}), raw: record.raw });
    } else {
      events.push(progress(record, 'status', names.length ? `tool requests: ${names.join(', ')}` : 'empty message'));
    }
    return events;
  }

  /**
   * A shell command's exit code: `shellExecution.exitCode` (1.0.85 and newer), or in 1.0.73 only a
   * `shell_exit` item among `result.contents` (docs/compat.md). Both say `success: true` on a failure.
   */
  function shellExitCode(data: JsonObject): number | undefined {
    const direct = asNumber(asJsonObject(data.shellExecution)?.exitCode);
    if (direct !== undefined) return direct;
    const contents = asJsonObject(data.result)?.contents;
    const exit = Array.isArray(contents) ? contents.map(asJsonObject).find((item) => item?.type === 'shell_exit') : undefined;
    return asNumber(exit?.exitCode);
  }

  function toolComplete(record: CopilotRecord): TranslatedEvent[] {
    const { data } = record;
    const id = stringOf(data.toolCallId) ?? '';
    const events: TranslatedEvent[] = [];
    if (!startedTools.has(id)) {
      const requested = requestedTools.get(id);
      events.push(toolUse(record, id, requested?.name ?? 'unknown', requested?.input));
    }
    const exitCode = shellExitCode(data);
    const error = asJsonObject(data.error);
    const errorCode = stringOf(error?.code);
    const isError = data.success === false || (exitCode !== undefined && exitCode !== 0);
    const name = toolNames.get(id);
    const extra: JsonObject = {};
    const cliName = bridgedCliNames.get(id);
    if (cliName !== undefined) extra.cliToolName = cliName;
    if (exitCode !== undefined) extra.exitCode = exitCode;
    if (errorCode) extra.errorCode = errorCode;
    // A permission rule or a missing approval refused the call: it never ran.
    if (errorCode === 'denied' || /^Permission denied|^Permission to run this tool was denied/.test(stringOf(error?.message) ?? '')) {
      extra.refused = true;
    }
    events.push({
      type: 'tool_result',
      id,
      ...(name ? { name } : {}),
      output: toolOutputOf(data),
      isError,
      ...(Object.keys(extra).length ? { extra } : {}),
      raw: record.raw,
    });
    return events;
  }

  function sessionError(record: CopilotRecord): TranslatedEvent[] {
    const { data } = record;
    failed = true;
    const httpStatus = asNumber(data.statusCode);
    return [
      {
        type: 'error',
        code: errorCodeOf(data),
        message: stringOf(data.message) ?? 'Copilot reported a session error',
        fatal: true,
        ...(httpStatus === undefined ? {} : { httpStatus }),
        extra: { errorType: data.errorType },
        raw: record.raw,
      },
    ];
  }

  function modelCallFailure(record: CopilotRecord): TranslatedEvent[] {
    const { data } = record;
    const events: TranslatedEvent[] = [];
    // The attempt's streamed text is void: the retry (or the final error) starts over.
    if (streamedThisAttempt) {
      streamedThisAttempt = false;
      events.push({ type: 'message', role: 'assistant', text: '', delta: true, reset: true, raw: record.raw });
    }
    const status = asNumber(data.statusCode);
    const detail = stringOf(data.errorMessage) ?? stringOf(data.errorType);
    const message = [status === undefined ? 'model call failed' : `model call failed with HTTP ${status}`, detail].filter(Boolean).join(': ');
    events.push(progress(record, 'retry', message));
    return events;
  }

  function result(record: JsonObject): TranslatedEvent[] {
    const usageRecord = asJsonObject(record.usage) ?? {};
    const usage: Usage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 };
    const sessionId = stringOf(record.sessionId);
    const claimedExit = asNumber(record.exitCode);
    const success = claimedExit === 0 && !failed && !aborted;
    return [
      // No token counts on stdout (they come from the usage file at exit, usage-file.ts); premium
      // requests and timings go in `extra`.
      { type: 'usage', usage, extra: { ...usageRecord }, raw: record },
      {
        type: 'done',
        status: success ? 'success' : 'error',
        ...(lastAnswer === undefined ? {} : { text: lastAnswer }),
        ...(sessionId ? { sessionId } : {}),
        ...(aborted ? { extra: { aborted: true } } : {}),
        raw: record,
      },
    ];
  }

  function translateRecord(record: CopilotRecord): TranslatedEvent[] {
    const { data } = record;
    switch (record.type) {
      case 'assistant.message_delta': {
        if (!streamPartial) return [];
        streamedThisAttempt = true;
        const id = stringOf(data.messageId);
        return [{ type: 'message', role: 'assistant', text: stringOf(data.deltaContent) ?? '', delta: true, ...(id ? { id } : {}), raw: record.raw }];
      }
      case 'assistant.message':
        return assistantMessage(record);
      case 'assistant.reasoning_delta':
      case 'assistant.reasoning': {
        const isDelta = record.type === 'assistant.reasoning_delta';
        if (isDelta && !streamPartial) return [];
        const id = stringOf(data.reasoningId);
        const text = stringOf(isDelta ? data.deltaContent : data.content) ?? '';
        return [{ type: 'reasoning', text, delta: isDelta, ...(id ? { id } : {}), raw: record.raw }];
      }
      case 'assistant.tool_call_delta':
        // Tool arguments being written; the whole call follows in assistant.message.
        return streamPartial ? [progress(record, 'other', stringOf(data.toolName))] : [];
      case 'tool.execution_start': {
        const id = stringOf(data.toolCallId) ?? '';
        const cliName = stringOf(data.toolName) ?? 'unknown';
        // The run's own tools go by the user's name; the CLI's `coderline-…` stays in extra.
        const name = bridgedToolName(ctx.opts, data.mcpServerName, data.mcpToolName);
        if (name === undefined) return [toolUse(record, id, cliName, data.arguments)];
        bridgedCliNames.set(id, cliName);
        return [{ ...toolUse(record, id, name, data.arguments), extra: { cliToolName: cliName } }];
      }
      case 'tool.execution_complete':
        return toolComplete(record);
      case 'tool.shell_output':
        return [progress(record, 'tool_output', stringOf(data.text))];
      case 'tool.execution_partial_result':
        return [progress(record, 'tool_output', stringOf(data.partialOutput))];
      case 'model.call_failure':
        return modelCallFailure(record);
      case 'assistant.turn_retry':
        return [progress(record, 'retry', stringOf(data.reason))];
      case 'session.info':
        return [progress(record, data.infoType === 'model_retry' ? 'retry' : 'status', stringOf(data.message))];
      case 'session.warning':
        return [progress(record, 'warning', stringOf(data.message))];
      case 'session.error':
        return sessionError(record);
      case 'subagent.started':
      case 'subagent.configured':
      case 'subagent.completed':
      case 'subagent.failed':
        return [subagentEvent(record, taskCalls)];
      default:
        if (lifecycleTypes.has(record.type)) return lifecycle(record);
        return [{ type: 'progress', kind: 'unknown', subtype: record.type, raw: record.raw }];
    }
  }

  return {
    translate(raw: unknown): TranslatedEvent[] {
      const record = asJsonObject(raw);
      const type = stringOf(record?.type);
      if (!record || !type) return [{ type: 'progress', kind: 'unknown', raw }];
      if (type === 'result') return result(record);
      const data = asJsonObject(record.data) ?? {};
      const events = translateRecord({ type, data, raw: record });
      // A subagent's records name the `task` call that started it.
      const parent = stringOf(data.parentToolCallId);
      if (parent) for (const event of events) event.parentToolUseId = parent;
      return events;
    },
  };
}
