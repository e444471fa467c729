// Claude Code `--output-format stream-json` records → the unified event stream.
// Pure and deterministic: the same records give the same events (state lives per run only).
import { classifyApiError, errorCodeForHttpStatus, errorCodeForMessage } from '../../core/translate/api-errors.js';
import type { ToolOutput, TranslatedEvent } from '../../events.js';
import type { ErrorCode } from '../../errors.js';
import type { Translator, TranslatorContext } from '../../core/contract/adapter.js';
import { countOf, isJsonObject, stringOf, textOfBlocks, type JsonObject } from '../../schema/json.js';
import { bridgedToolNameOf } from '../../schema/tool-names.js';
import { createClaudePlans } from './plans.js';
import { subagentEvent } from './subagents.js';
import { runUsageFromResult } from './usage.js';
import { parsedJson } from '../../core/translate/tool-output.js';


/** What the synthetic `assistant` line of a failed API call says the error is (its `error` field). */
const syntheticErrorCodes: Record<string, ErrorCode> = {
  authentication_failed: 'auth',
  billing_error: 'auth',
  rate_limit: 'rate_limit',
  server_error: 'server',
  max_output_tokens: 'context_too_large',
};

/** `result.subtype` values that are failures by name (others fail through `is_error`). */
const resultSubtypeCodes: Record<string, ErrorCode> = {
  error_max_turns: 'max_turns',
  error_max_budget_usd: 'budget',
  error_max_structured_output_retries: 'invalid_output',
};

/** System subtypes the CLI is known to print, with the progress kind each one is. */
const systemKinds: Record<string, 'retry' | 'status' | 'warning' | 'other'> = {
  api_retry: 'retry',
  status: 'status',
  thinking_tokens: 'status',
  model_fallback: 'warning',
  permission_denied: 'warning',
  ui_invalidate: 'other',
  commands_changed: 'other',
  hook_response: 'other',
};

/** A tool result's content as the user wants it: plain text when it is only text blocks. */
function toolOutput(content: unknown): ToolOutput {
  return textOfBlocks(content) ?? parsedJson(content);
}

export function createClaudeTranslator(ctx: TranslatorContext): Translator {
  const schemaWanted = ctx.opts.outputSchema !== undefined;
  const toolNames = new Map<string, string>();
  /** The CLI's own names of calls to the run's custom tools, by call id. */
  const bridgedCliNames = new Map<string, string>();
  let syntheticError: { code: ErrorCode | undefined; message: string } | undefined;
  let currentMessageId: string | undefined;
  let deltasSinceMessageStart = false;
  let resetPending = false;
  const plans = createClaudePlans();

  function progress(raw: unknown, kind: 'retry' | 'status' | 'warning' | 'tool_output' | 'unknown' | 'other', subtype?: string, message?: string, extra?: JsonObject): TranslatedEvent {
    const event: TranslatedEvent = { type: 'progress', kind, raw };
    if (subtype !== undefined) event.subtype = subtype;
    if (message !== undefined) event.message = message;
    if (extra !== undefined) event.extra = extra;
    return event;
  }

  function system(record: JsonObject): TranslatedEvent[] {
    const subtype = stringOf(record.subtype) ?? '';
    if (subtype === 'init') {
      const init: TranslatedEvent = {
        type: 'init',
        raw: record,
        extra: {
          mcpServers: record.mcp_servers,
          permissionMode: record.permissionMode,
          claudeCodeVersion: record.claude_code_version,
          apiKeySource: record.apiKeySource,
        },
      };
      if (stringOf(record.session_id)) init.sessionId = stringOf(record.session_id);
      if (stringOf(record.model)) init.model = stringOf(record.model);
      if (stringOf(record.cwd)) init.cwd = stringOf(record.cwd);
      if (Array.isArray(record.tools)) init.tools = record.tools.filter((tool): tool is string => typeof tool === 'string');
      return [init];
    }
    if (subtype === 'api_retry') {
      const status = typeof record.error_status === 'number' ? record.error_status : undefined;
      const message = `API request failed${status ? ` (${status})` : ''}: ${stringOf(record.error) ?? 'unknown error'}; retry ${countOf(record.attempt)} of ${countOf(record.max_retries)} in ${countOf(record.retry_delay_ms)} ms`;
      // Text streamed before the failure is discarded by the CLI: deltas start over.
      if (deltasSinceMessageStart) resetPending = true;
      const warning: TranslatedEvent = {
        type: 'error',
        code: classifyApiError(status, stringOf(record.error), 'server'),
        message,
        fatal: false,
        raw: record,
      };
      if (status !== undefined) warning.httpStatus = status;
      return [progress(record, 'retry', 'system/api_retry', message), warning];
    }
    if (subtype === 'compact_boundary') return [compaction(record, 'completed')];
    if (subtype === 'status' && record.status === 'compacting') return [compaction(record, 'started')];
    // 2.1.197 refuses to compact a short conversation ("Not enough messages to compact.").
    if (subtype === 'status' && record.compact_result === 'failed') return [progress(record, 'warning', 'system/status', stringOf(record.compact_error) ?? 'compaction failed')];
    const subagent = subagentEvent(subtype, record);
    if (subagent) return [subagent];
    const kind = systemKinds[subtype];
    return [progress(record, kind ?? 'unknown', `system/${subtype}`, stringOf(record.status) ?? stringOf(record.message))];
  }

  /** `/compact` or the CLI's own: `status: compacting` first, then `compact_boundary` with its metadata. */
  function compaction(record: JsonObject, phase: 'started' | 'completed'): TranslatedEvent {
    const event: Extract<TranslatedEvent, { type: 'compaction' }> = { type: 'compaction', phase, raw: record };
    const metadata = isJsonObject(record.compact_metadata) ? record.compact_metadata : {};
    if (metadata.trigger === 'auto' || metadata.trigger === 'manual') event.trigger = metadata.trigger;
    if (typeof metadata.pre_tokens === 'number') event.tokensBefore = metadata.pre_tokens;
    if (typeof metadata.post_tokens === 'number') event.tokensAfter = metadata.post_tokens;
    return event;
  }

  function assistant(record: JsonObject): TranslatedEvent[] {
    const message = isJsonObject(record.message) ? record.message : {};
    const id = stringOf(message.id);
    const content = Array.isArray(message.content) ? message.content : [];
    // A failed API call shows up as a synthetic assistant line whose text is the error message.
    if (record.error !== undefined || message.model === '<synthetic>') {
      const text = content.map((block) => (isJsonObject(block) ? stringOf(block.text) ?? '' : '')).join('');
      const errorKind = stringOf(record.error);
      syntheticError = { code: errorKind ? syntheticErrorCodes[errorKind] : undefined, message: text };
      return [progress(record, 'warning', 'assistant/error', text, errorKind ? { error: errorKind } : undefined)];
    }
    const events: TranslatedEvent[] = [];
    for (const block of content) {
      if (!isJsonObject(block)) continue;
      if (block.type === 'text') {
        const event: TranslatedEvent = { type: 'message', role: 'assistant', text: stringOf(block.text) ?? '', delta: false, raw: record };
        if (id) event.id = id;
        events.push(event);
      } else if (block.type === 'thinking' || block.type === 'redacted_thinking') {
        const event: TranslatedEvent = { type: 'reasoning', text: stringOf(block.thinking) ?? '', delta: false, raw: record };
        if (id) event.id = id;
        events.push(event);
      } else if (block.type === 'tool_use' || block.type === 'server_tool_use' || block.type === 'mcp_tool_use') {
        const toolId = stringOf(block.id) ?? '';
        const cliName = stringOf(block.name) ?? '';
        // The run's own tools go by the user's name; the CLI's `mcp__coderline__…` stays in extra.
        const name = bridgedToolNameOf(ctx.opts, cliName) ?? cliName;
        toolNames.set(toolId, name);
        const event: TranslatedEvent = { type: 'tool_use', id: toolId, name, input: block.input, raw: record };
        if (name !== cliName) {
          bridgedCliNames.set(toolId, cliName);
          event.extra = { cliToolName: cliName };
        }
        events.push(event, ...plans.toolUse(toolId, cliName, block.input, record));
      } else {
        events.push(progress(record, 'unknown', `assistant/${stringOf(block.type) ?? 'block'}`));
      }
    }
    return events.length ? events : [progress(record, 'other', 'assistant/empty')];
  }

  function user(record: JsonObject): TranslatedEvent[] {
    const message = isJsonObject(record.message) ? record.message : {};
    const content = Array.isArray(message.content) ? message.content : [];
    const events: TranslatedEvent[] = [];
    for (const block of content) {
      if (!isJsonObject(block) || block.type !== 'tool_result') continue;
      const id = stringOf(block.tool_use_id) ?? '';
      const event: TranslatedEvent = { type: 'tool_result', id, output: toolOutput(block.content), isError: block.is_error === true, raw: record };
      const name = toolNames.get(id);
      if (name !== undefined) event.name = name;
      const cliName = bridgedCliNames.get(id);
      // One result per call: forgetting the call keeps memory flat however long the run is.
      toolNames.delete(id);
      bridgedCliNames.delete(id);
      if (cliName !== undefined) event.extra = { cliToolName: cliName };
      events.push(event, ...plans.toolResult(id, event.isError, record.tool_use_result, record));
    }
    if (events.length) return events;
    // Text the CLI itself adds to the conversation (e.g. the structured-output reminder).
    const text = typeof message.content === 'string'
      ? message.content
      : content.map((block) => (isJsonObject(block) ? stringOf(block.text) ?? '' : '')).join('');
    return [progress(record, 'other', record.isSynthetic ? 'user/synthetic' : 'user', text)];
  }

  function streamEvent(record: JsonObject): TranslatedEvent[] {
    const event = isJsonObject(record.event) ? record.event : {};
    const type = stringOf(event.type) ?? 'unknown';
    if (type === 'message_start') {
      const message = isJsonObject(event.message) ? event.message : {};
      currentMessageId = stringOf(message.id);
      deltasSinceMessageStart = false;
    }
    if (type === 'content_block_delta' && isJsonObject(event.delta)) {
      const delta = event.delta;
      const text = delta.type === 'text_delta' ? stringOf(delta.text) : delta.type === 'thinking_delta' ? stringOf(delta.thinking) : undefined;
      if (text !== undefined) {
        deltasSinceMessageStart = true;
        const out: TranslatedEvent = delta.type === 'text_delta'
          ? { type: 'message', role: 'assistant', text, delta: true, raw: record }
          : { type: 'reasoning', text, delta: true, raw: record };
        if (currentMessageId) out.id = currentMessageId;
        if (resetPending && out.type === 'message') {
          out.reset = true;
          resetPending = false;
        }
        return [out];
      }
    }
    const deltaType = isJsonObject(event.delta) ? stringOf(event.delta.type) : undefined;
    return [progress(record, 'other', `stream_event/${type}${deltaType ? `:${deltaType}` : ''}`)];
  }

  function result(record: JsonObject): TranslatedEvent[] {
    const events: TranslatedEvent[] = [{ type: 'usage', usage: runUsageFromResult(record), raw: record }];
    const subtype = stringOf(record.subtype) ?? '';
    const errors = Array.isArray(record.errors) ? record.errors.filter((e): e is string => typeof e === 'string') : [];
    const answer = stringOf(record.result);
    const status = typeof record.api_error_status === 'number' ? record.api_error_status : undefined;
    const failed = record.is_error === true || subtype.startsWith('error');

    let failure: { code: ErrorCode; message: string } | undefined;
    if (failed) {
      const message = errors.join('; ') || answer || syntheticError?.message || `claude reported ${subtype || 'an error'}`;
      failure = { code: failureCode(subtype, status, message), message };
    } else if (schemaWanted && record.structured_output === undefined) {
      failure = { code: 'invalid_output', message: 'The model answered without calling the StructuredOutput tool, so there is no structured output.' };
    }
    if (failure) {
      const error: TranslatedEvent = { type: 'error', code: failure.code, message: failure.message, fatal: true, raw: record };
      if (status !== undefined) error.httpStatus = status;
      events.push(error);
    }

    const done: TranslatedEvent = {
      type: 'done',
      status: failure ? 'error' : 'success',
      raw: record,
      extra: {
        subtype,
        numTurns: record.num_turns,
        durationMs: record.duration_ms,
        durationApiMs: record.duration_api_ms,
        stopReason: record.stop_reason,
        terminalReason: record.terminal_reason,
        permissionDenials: record.permission_denials,
      },
    };
    if (!failed && answer !== undefined) done.text = answer;
    if (stringOf(record.session_id)) done.sessionId = stringOf(record.session_id);
    if (record.structured_output !== undefined) done.output = record.structured_output;
    events.push(done);
    return events;
  }

  /** The subtype names the limit that was hit; otherwise the API status, the CLI's own error kind, the text. */
  function failureCode(subtype: string, status: number | undefined, message: string): ErrorCode {
    const byName = resultSubtypeCodes[subtype];
    if (byName) return byName;
    if (/No conversation found/i.test(message)) return 'session_not_found';
    return errorCodeForHttpStatus(status) ?? syntheticError?.code ?? errorCodeForMessage(message) ?? (subtype === 'success' ? 'server' : 'exit');
  }

  function translate(record: JsonObject): TranslatedEvent[] {
    switch (record.type) {
      case 'system':
        return system(record);
      case 'assistant':
        return assistant(record);
      case 'user':
        return user(record);
      case 'stream_event':
        return streamEvent(record);
      case 'result':
        return result(record);
      case 'rate_limit_event':
        return [progress(record, 'status', 'rate_limit_event')];
      default:
        return [progress(record, 'unknown', stringOf(record.type))];
    }
  }

  return {
    translate(record: unknown): TranslatedEvent[] {
      if (!isJsonObject(record)) return [progress(record, 'unknown')];
      const events = translate(record);
      // A subagent's own records name the tool use that started it.
      const parent = stringOf(record.parent_tool_use_id);
      if (parent) for (const event of events) event.parentToolUseId = parent;
      return events;
    },
  };
}
