// A fake Anthropic Messages API for driving the real `claude` binary offline: streamed SSE for
// text, thinking and tool_use blocks, JSON error bodies, and the options that point claude at it with
// private HOME / CLAUDE_CONFIG_DIR and no telemetry.
import type { ServerResponse } from 'node:http';
import type { SharedStartOpts } from '../options.js';
import type { ModelReply } from '../core/contract/model-reply.js';
import { textDeltas, type RecordedRequest, type Script } from './script.js';
import { startFakeServer, startSse, writeSse, type ApiHandler, type FakeServer, type SseEvent } from './server.js';

/** The model id the tests pass: a full id, so the CLI does not resolve an alias to something else. */
export const FAKE_CLAUDE_MODEL = 'claude-sonnet-4-5';

const errorTypes: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

function isMessagesCall(request: RecordedRequest): boolean {
  const path = request.path.split('?')[0];
  return request.method === 'POST' && path === '/v1/messages';
}

function modelOf(request: RecordedRequest): string {
  const body = request.body as { model?: unknown } | undefined;
  return typeof body?.model === 'string' ? body.model : FAKE_CLAUDE_MODEL;
}

/** The SSE events of one streamed Messages reply (ids count up per server, so runs are comparable). */
export function anthropicReplyEvents(reply: ModelReply, model: string, messageNumber: number): SseEvent[] {
  const usage = reply.usage ?? {};
  const events: SseEvent[] = [];
  const push = (data: { type: string } & Record<string, unknown>) => events.push({ event: data.type, data });

  push({
    type: 'message_start',
    message: {
      id: `msg_fake_${messageNumber}`,
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: usage.inputTokens ?? 10,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: usage.cachedInputTokens ?? 0,
        output_tokens: 1,
      },
    },
  });

  let index = 0;
  if (reply.thinking !== undefined) {
    push({ type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
    for (const part of textDeltas(reply.thinking)) {
      push({ type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: part } });
    }
    push({ type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: `fake-signature-${messageNumber}` } });
    push({ type: 'content_block_stop', index });
    index += 1;
  }
  if (reply.text !== undefined) {
    push({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    for (const part of textDeltas(reply.text)) {
      push({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: part } });
    }
    push({ type: 'content_block_stop', index });
    index += 1;
  }
  for (const [callNumber, call] of (reply.toolCalls ?? []).entries()) {
    const id = call.id ?? `toolu_fake_${messageNumber}_${callNumber}`;
    push({ type: 'content_block_start', index, content_block: { type: 'tool_use', id, name: call.name, input: {} } });
    // Split the JSON in a few pieces, as the real API streams it.
    const json = JSON.stringify(call.input ?? {});
    const third = Math.ceil(json.length / 3);
    for (let at = 0; at < json.length; at += third) {
      push({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: json.slice(at, at + third) } });
    }
    push({ type: 'content_block_stop', index });
    index += 1;
  }

  const stopReason = reply.toolCalls?.length ? 'tool_use' : 'end_turn';
  push({
    type: 'message_delta',
    delta: { stop_reason: stopReason, stop_sequence: null },
    usage: { output_tokens: usage.outputTokens ?? 5 },
  });
  push({ type: 'message_stop' });
  return events;
}

/**
 * The same reply as one JSON message, for a call without `stream: true` (2.1.332 checks a model
 * chosen with a live session's set_model that way).
 */
function anthropicReplyMessage(reply: ModelReply, model: string, messageNumber: number): Record<string, unknown> {
  const usage = reply.usage ?? {};
  const content: unknown[] = [];
  if (reply.thinking !== undefined) content.push({ type: 'thinking', thinking: reply.thinking, signature: `fake-signature-${messageNumber}` });
  if (reply.text !== undefined) content.push({ type: 'text', text: reply.text });
  for (const [callNumber, call] of (reply.toolCalls ?? []).entries()) {
    content.push({ type: 'tool_use', id: call.id ?? `toolu_fake_${messageNumber}_${callNumber}`, name: call.name, input: call.input ?? {} });
  }
  return {
    id: `msg_fake_${messageNumber}`,
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: reply.toolCalls?.length ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: usage.inputTokens ?? 10, cache_creation_input_tokens: 0, cache_read_input_tokens: usage.cachedInputTokens ?? 0, output_tokens: usage.outputTokens ?? 5 },
  };
}

function anthropicApi(): ApiHandler {
  let messageNumber = 0;
  return {
    isModelCall: isMessagesCall,
    async writeReply(res: ServerResponse, step, request) {
      messageNumber += 1;
      if ((request.body as { stream?: unknown } | undefined)?.stream !== true) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(anthropicReplyMessage(step, modelOf(request), messageNumber)));
        return;
      }
      startSse(res);
      const events = anthropicReplyEvents(step, modelOf(request), messageNumber);
      const pacing: { delayMs?: number; cutAfterEvents?: number } = {};
      if (step.delayMs !== undefined) pacing.delayMs = step.delayMs;
      if (step.cutAfterEvents !== undefined) pacing.cutAfterEvents = step.cutAfterEvents;
      await writeSse(res, events, pacing);
    },
    errorBody(status, message, type) {
      return { type: 'error', error: { type: type ?? errorTypes[status] ?? 'api_error', message } };
    },
    other(request, res) {
      // 2.1.197 pre-warms the connection with `HEAD /`; token counting is answered for completeness.
      if (request.method === 'POST' && request.path.startsWith('/v1/messages/count_tokens')) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ input_tokens: 10 }));
        return;
      }
      res.writeHead(request.method === 'HEAD' ? 200 : 404).end();
    },
  };
}

/** Starts the fake Anthropic server on 127.0.0.1 (random port). One script step per `POST /v1/messages`. */
export function startFakeAnthropic(script: Script): Promise<FakeServer> {
  return startFakeServer(script, anthropicApi());
}

export interface FakeClaudeEnvOptions {
  /** Private HOME (the CLI writes caches there even with CLAUDE_CONFIG_DIR set). */
  home: string;
  /** Private CLAUDE_CONFIG_DIR; leave out to let `isolation: 'strict'` choose one. */
  configDir?: string;
  /** CLAUDE_CODE_MAX_RETRIES (the CLI's default of 10 takes ~3 minutes against a failing server). */
  maxRetries?: number;
  /** API_TIMEOUT_MS: how long the CLI waits for response headers. */
  apiTimeoutMs?: number;
}

/** Start options that point the `claude` on PATH at `server`, offline, with its state in private directories. */
export function claudeOptsForFake(server: FakeServer, options: FakeClaudeEnvOptions): SharedStartOpts {
  const extraEnv: Record<string, string> = {
    ANTHROPIC_BASE_URL: server.url,
    ANTHROPIC_API_KEY: 'sk-ant-fake-test-key',
    HOME: options.home,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_MAX_RETRIES: String(options.maxRetries ?? 1),
    API_TIMEOUT_MS: String(options.apiTimeoutMs ?? 30_000),
  };
  if (options.configDir !== undefined) extraEnv.CLAUDE_CONFIG_DIR = options.configDir;
  return {
    model: FAKE_CLAUDE_MODEL,
    extraEnv,
    // A developer's own credentials or endpoints must never reach the CLI under test.
    unsetEnv: ['ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_USE_BEDROCK', 'CLAUDE_CODE_USE_VERTEX', 'CLAUDE_CODE_OAUTH_TOKEN'],
  };
}
