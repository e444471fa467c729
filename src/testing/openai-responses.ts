// A fake OpenAI Responses API (`POST /v1/responses`, SSE) on the shared fake-server base, plus the
// options that point the real `codex` binary at it with nothing leaving the machine.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import type { SharedStartOpts } from '../options.js';
import type { ModelReply, ScriptStep, ScriptedToolCall } from '../core/contract/model-reply.js';
import type { RecordedRequest, Script } from './script.js';
import { textDeltas } from './script.js';
import { startFakeServer, startSse, writeSse, type ApiHandler, type FakeServer, type SseEvent } from './server.js';

type ReplyStep = Extract<ScriptStep, { kind?: 'reply' }>;

/** How a reply's stream ends when it is not `response.completed`. */
type Ending = { kind: 'failed'; message: string; code: string } | { kind: 'closed' };

/** Reply steps whose stream ends differently, keyed by the step object. */
const endings = new WeakMap<object, Ending>();

/** A step whose stream starts normally and ends with `response.failed` carrying this message. */
export function responseFailedStep(message: string, code = 'server_error'): ScriptStep {
  const step: ReplyStep = {};
  endings.set(step, { kind: 'failed', message, code });
  return step;
}

/**
 * A step that sends the whole reply but closes the stream cleanly without `response.completed`
 * (unlike `cutAfterEvents`, which resets the connection).
 */
export function streamClosedStep(reply: ModelReply): ScriptStep {
  const step: ReplyStep = { ...reply };
  endings.set(step, { kind: 'closed' });
  return step;
}

/**
 * A tool call the model makes by name. Two names become the items the API has for them:
 * `web_search` a `web_search_call`, `tool_search` (how Codex finds deferred MCP tools, such as a
 * run's custom tools) a client-executed `tool_search_call` with the input as its arguments.
 */
function toolCallItems(call: ScriptedToolCall, index: number, responseId: string): Record<string, unknown> {
  const callId = call.id ?? `call_${responseId}_${index}`;
  if (call.name === 'web_search') {
    const query = (call.input as { query?: string } | undefined)?.query ?? '';
    return { type: 'web_search_call', id: `ws_${responseId}_${index}`, status: 'completed', action: { type: 'search', query } };
  }
  if (call.name === 'tool_search') {
    return { type: 'tool_search_call', id: `ts_${responseId}_${index}`, call_id: callId, execution: 'client', arguments: call.input ?? {}, status: 'completed' };
  }
  if (call.custom) {
    return { type: 'custom_tool_call', id: `ctc_${responseId}_${index}`, call_id: callId, name: call.name, input: String(call.input), status: 'completed' };
  }
  return {
    type: 'function_call',
    id: `fc_${responseId}_${index}`,
    call_id: callId,
    name: call.name,
    ...(call.namespace ? { namespace: call.namespace } : {}),
    arguments: typeof call.input === 'string' ? call.input : JSON.stringify(call.input ?? {}),
    status: 'completed',
  };
}

function usageOf(reply: ModelReply): Record<string, unknown> {
  const input = reply.usage?.inputTokens ?? 100;
  const output = reply.usage?.outputTokens ?? 10;
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: reply.usage?.cachedInputTokens ?? 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: reply.usage?.reasoningTokens ?? 0 },
    total_tokens: input + output,
  };
}

let responseCounter = 0;

/** The SSE events of one scripted reply, in the order the real API sends them. */
export function responseEvents(reply: ModelReply, ending?: Ending): SseEvent[] {
  responseCounter += 1;
  const id = `resp_fake_${responseCounter}`;
  const events: SseEvent[] = [];
  const emit = (type: string, body: Record<string, unknown>) => events.push({ event: type, data: { type, ...body } });
  const output: Record<string, unknown>[] = [];

  emit('response.created', { response: { id, object: 'response', status: 'in_progress', output: [] } });

  if (reply.thinking !== undefined) {
    const index = output.length;
    const itemId = `rs_${id}`;
    emit('response.output_item.added', { output_index: index, item: { id: itemId, type: 'reasoning', summary: [] } });
    emit('response.reasoning_summary_part.added', { item_id: itemId, output_index: index, summary_index: 0, part: { type: 'summary_text', text: '' } });
    for (const delta of textDeltas(reply.thinking)) {
      emit('response.reasoning_summary_text.delta', { item_id: itemId, output_index: index, summary_index: 0, delta });
    }
    emit('response.reasoning_summary_text.done', { item_id: itemId, output_index: index, summary_index: 0, text: reply.thinking });
    const item = { id: itemId, type: 'reasoning', summary: [{ type: 'summary_text', text: reply.thinking }] };
    emit('response.output_item.done', { output_index: index, item });
    output.push(item);
  }

  if (reply.text !== undefined) {
    const index = output.length;
    const itemId = `msg_${id}`;
    emit('response.output_item.added', { output_index: index, item: { id: itemId, type: 'message', role: 'assistant', status: 'in_progress', content: [] } });
    emit('response.content_part.added', { item_id: itemId, output_index: index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
    for (const delta of textDeltas(reply.text)) {
      emit('response.output_text.delta', { item_id: itemId, output_index: index, content_index: 0, delta });
    }
    emit('response.output_text.done', { item_id: itemId, output_index: index, content_index: 0, text: reply.text });
    const part = { type: 'output_text', text: reply.text, annotations: [] };
    emit('response.content_part.done', { item_id: itemId, output_index: index, content_index: 0, part });
    const item = { id: itemId, type: 'message', role: 'assistant', status: 'completed', content: [part] };
    emit('response.output_item.done', { output_index: index, item });
    output.push(item);
  }

  for (const [n, call] of (reply.toolCalls ?? []).entries()) {
    const index = output.length;
    const item = toolCallItems(call, n, id);
    emit('response.output_item.added', { output_index: index, item: { ...item, status: 'in_progress' } });
    if (item.type === 'function_call') {
      emit('response.function_call_arguments.delta', { item_id: item.id, output_index: index, delta: item.arguments });
      emit('response.function_call_arguments.done', { item_id: item.id, output_index: index, arguments: item.arguments });
    } else if (item.type === 'custom_tool_call') {
      emit('response.custom_tool_call_input.delta', { item_id: item.id, output_index: index, delta: item.input });
    }
    emit('response.output_item.done', { output_index: index, item });
    output.push(item);
  }

  if (ending?.kind === 'failed') {
    emit('response.failed', {
      response: { id, object: 'response', status: 'failed', output, error: { code: ending.code, message: ending.message } },
    });
  } else if (ending?.kind !== 'closed') {
    emit('response.completed', { response: { id, object: 'response', status: 'completed', output, usage: usageOf(reply) } });
  }
  return events;
}

const responsesApi: ApiHandler = {
  isModelCall: (request: RecordedRequest) => request.method === 'POST' && /\/responses$/.test(request.path.split('?')[0] ?? ''),
  async writeReply(res: ServerResponse, step: ReplyStep) {
    startSse(res);
    const options: { delayMs?: number; cutAfterEvents?: number } = {};
    if (step.delayMs !== undefined) options.delayMs = step.delayMs;
    if (step.cutAfterEvents !== undefined) options.cutAfterEvents = step.cutAfterEvents;
    await writeSse(res, responseEvents(step, endings.get(step)), options);
  },
  errorBody: (status: number, message: string, type: string | undefined) => ({
    error: { message, type: type ?? (status >= 500 ? 'server_error' : 'invalid_request_error'), code: null, param: null },
  }),
};

/** Starts the fake Responses server on 127.0.0.1 with a random port. */
export function startFakeResponses(script: Script): Promise<FakeServer> {
  return startFakeServer(script, responsesApi);
}

export interface CodexFakeOptions {
  /** Reuse this directory as HOME and CODEX_HOME (sessions live there, so resume needs the same one). */
  home?: string;
  /** Request and stream retries the CLI may make (default 0: errors surface at once). */
  retries?: number;
  /** The CLI's own SSE idle timeout (default 5000 ms). */
  streamIdleTimeoutMs?: number;
  /** Model id (default `gpt-5.5`, which is in the bundled catalog and gets `apply_patch`). */
  model?: string;
}

/** The provider id the fake server is registered under. */
export const FAKE_PROVIDER_ID = 'fake';
const FAKE_KEY_VAR = 'CODERLINE_FAKE_OPENAI_KEY';

/**
 * Options that point the real `codex` at `server` through a custom provider (the CLI ignores
 * OPENAI_BASE_URL), in a private HOME/CODEX_HOME and TMPDIR, with plugins and analytics off and retries
 * bounded.
 */
export function codexFakeOpts(server: FakeServer, options: CodexFakeOptions = {}): SharedStartOpts {
  const home = options.home ?? mkdtempSync(join(tmpdir(), 'coderline-codex-home-'));
  const privateTmp = join(home, 'tmp');
  mkdirSync(privateTmp, { recursive: true });
  const retries = options.retries ?? 0;
  const provider = `model_providers.${FAKE_PROVIDER_ID}`;
  return {
    model: options.model ?? 'gpt-5.5',
    extraEnv: { HOME: home, CODEX_HOME: home, TMPDIR: privateTmp, [FAKE_KEY_VAR]: 'sk-fake-test-key' },
    unsetEnv: ['OPENAI_API_KEY', 'CODEX_API_KEY', 'OPENAI_BASE_URL'],
    codexDisablePlugins: true,
    codexConfig: {
      model_provider: FAKE_PROVIDER_ID,
      [`${provider}.name`]: FAKE_PROVIDER_ID,
      [`${provider}.base_url`]: `${server.url}/v1`,
      [`${provider}.wire_api`]: 'responses',
      [`${provider}.env_key`]: FAKE_KEY_VAR,
      [`${provider}.request_max_retries`]: retries,
      [`${provider}.stream_max_retries`]: retries,
      [`${provider}.stream_idle_timeout_ms`]: options.streamIdleTimeoutMs ?? 5000,
      'analytics.enabled': false,
      check_for_update_on_startup: false,
      // A sandboxed command that is killed leaves its mount targets (an empty `.git` among them) in every
      // writable root; with /tmp among them, every other CLI would then take a working directory under
      // /tmp for a git repository. The private TMPDIR stays writable instead.
      'sandbox_workspace_write.exclude_slash_tmp': true,
    },
  };
}
