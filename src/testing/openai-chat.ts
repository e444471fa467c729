// A fake OpenAI chat-completions server (`POST …/chat/completions`) on the shared fake-server base.
// Copilot (BYOK mode) and Pi both speak this dialect. Streams answer in SSE `chat.completion.chunk`s:
// reasoning as `reasoning_content` deltas, text as `content` deltas, tool calls as `tool_calls` deltas,
// then a finish chunk, a usage chunk when the client asked for `stream_options.include_usage`, `[DONE]`.
import type { ServerResponse } from 'node:http';
import { startFakeServer, startSse, writeSse, type ApiHandler, type FakeServer, type SseEvent } from './server.js';
import type { ModelReply } from '../core/contract/model-reply.js';
import { textDeltas, type RecordedRequest, type Script } from './script.js';

export interface FakeChatOptions {
  /** The model id the server claims in chunks and in `GET /models` (default `fake-model`). */
  model?: string;
  /**
   * What a reply's `cutAfterEvents` does at the cut: `close` drops the connection (default);
   * `error` sends an SSE `{"error": …}` object and ends the stream normally, as some gateways do.
   */
  cutWith?: 'close' | 'error';
}

export type FakeChatServer = FakeServer;

const FIXED_CREATED = 1_700_000_000; // a constant keeps recorded fixtures stable

interface ChatRequestBody {
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  model?: string;
}

function requestBody(request: RecordedRequest): ChatRequestBody {
  return typeof request.body === 'object' && request.body !== null ? (request.body as ChatRequestBody) : {};
}

function defaultErrorType(status: number): string {
  if (status === 401) return 'authentication_error';
  if (status === 403) return 'permission_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status >= 500) return 'server_error';
  return 'invalid_request_error';
}

function usageObject(reply: ModelReply): Record<string, unknown> {
  const usage = reply.usage ?? {};
  const prompt = usage.inputTokens ?? 10;
  const completion = usage.outputTokens ?? 5;
  return {
    prompt_tokens: prompt,
    completion_tokens: completion,
    total_tokens: prompt + completion,
    prompt_tokens_details: { cached_tokens: usage.cachedInputTokens ?? 0 },
    completion_tokens_details: { reasoning_tokens: usage.reasoningTokens ?? 0 },
  };
}

/** Builds the chat-completions handler; call ids count up per server so recordings stay stable. */
export function openAiChatHandler(options: FakeChatOptions = {}): ApiHandler {
  const model = options.model ?? 'fake-model';
  let completionCount = 0;
  let toolCallCount = 0;

  const toolCallsOf = (reply: ModelReply) =>
    (reply.toolCalls ?? []).map((call, index) => ({
      index,
      id: call.id ?? `call_${++toolCallCount}`,
      name: call.name,
      arguments: typeof call.input === 'string' ? call.input : JSON.stringify(call.input ?? {}),
    }));

  function streamEvents(reply: ModelReply, id: string, includeUsage: boolean): SseEvent[] {
    const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) => ({
      data: {
        id,
        object: 'chat.completion.chunk',
        created: FIXED_CREATED,
        model,
        choices: [{ index: 0, delta, finish_reason: finishReason }],
      },
    });
    const events: SseEvent[] = [chunk({ role: 'assistant', content: '' })];
    if (reply.thinking) for (const part of textDeltas(reply.thinking)) events.push(chunk({ reasoning_content: part }));
    if (reply.text) for (const part of textDeltas(reply.text)) events.push(chunk({ content: part }));
    const calls = toolCallsOf(reply);
    for (const call of calls) {
      events.push(chunk({ tool_calls: [{ index: call.index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
      // Arguments arrive in two pieces, as real servers split them.
      const half = Math.ceil(call.arguments.length / 2);
      for (const piece of [call.arguments.slice(0, half), call.arguments.slice(half)]) {
        if (piece) events.push(chunk({ tool_calls: [{ index: call.index, function: { arguments: piece } }] }));
      }
    }
    events.push(chunk({}, calls.length ? 'tool_calls' : 'stop'));
    if (includeUsage) {
      events.push({ data: { id, object: 'chat.completion.chunk', created: FIXED_CREATED, model, choices: [], usage: usageObject(reply) } });
    }
    events.push({ data: '[DONE]' });
    return events;
  }

  function completionBody(reply: ModelReply, id: string): Record<string, unknown> {
    const calls = toolCallsOf(reply);
    const message: Record<string, unknown> = { role: 'assistant', content: reply.text ?? null };
    if (reply.thinking) message.reasoning_content = reply.thinking;
    if (calls.length) {
      message.tool_calls = calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }));
    }
    return {
      id,
      object: 'chat.completion',
      created: FIXED_CREATED,
      model,
      choices: [{ index: 0, message, finish_reason: calls.length ? 'tool_calls' : 'stop' }],
      usage: usageObject(reply),
    };
  }

  return {
    isModelCall: (request) => request.method === 'POST' && request.path.split('?')[0]!.endsWith('/chat/completions'),

    async writeReply(res: ServerResponse, reply, request) {
      const body = requestBody(request);
      const id = `chatcmpl-fake-${++completionCount}`;
      if (body.stream === false) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(completionBody(reply, id)));
        return;
      }
      let events = streamEvents(reply, id, body.stream_options?.include_usage === true);
      let cutAfterEvents = reply.cutAfterEvents;
      if (cutAfterEvents !== undefined && options.cutWith === 'error') {
        events = [
          ...events.slice(0, cutAfterEvents),
          { data: { error: { message: 'fake stream error', type: 'server_error', code: null } } },
        ];
        cutAfterEvents = undefined;
      }
      startSse(res);
      await writeSse(res, events, { delayMs: reply.delayMs, cutAfterEvents });
    },

    errorBody: (status, message, type) => ({
      error: { message, type: type ?? defaultErrorType(status), param: null, code: status === 429 ? 'rate_limit_exceeded' : null },
    }),

    other(request, res) {
      const path = request.path.split('?')[0]!;
      if (request.method === 'GET' && path.endsWith('/models')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ object: 'list', data: [{ id: model, object: 'model', created: FIXED_CREATED, owned_by: 'fake' }] }));
        return;
      }
      res.writeHead(request.method === 'HEAD' ? 200 : 404).end();
    },
  };
}

/**
 * Starts a fake chat-completions server on 127.0.0.1. Point the CLI at `${server.url}/v1`
 * (any path ending in `/chat/completions` is a model call).
 */
export function startFakeChat(script: Script, options: FakeChatOptions = {}): Promise<FakeChatServer> {
  return startFakeServer(script, openAiChatHandler(options));
}
