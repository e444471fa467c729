// A fake Gemini API (generateContent) for driving the real `gemini` binary offline. The agent loop
// only streams (`POST /v1beta/models/<model>:streamGenerateContent?alt=sse`, one script step each);
// the CLI's own side calls (model routing, chat compression, session titles) are non-streaming
// `:generateContent` and get a fixed answer that takes no script step, so a script only lists the
// turns a user sees.
import type { ServerResponse } from 'node:http';
import type { ModelReply, ScriptStep } from '../core/contract/model-reply.js';
import { textDeltas, type RecordedRequest, type Script } from './script.js';
import { startFakeServer, startSse, writeSse, type ApiHandler, type FakeServer, type SseEvent } from './server.js';

type ReplyStep = Extract<ScriptStep, { kind?: 'reply' }>;

/** The model the tests pass with `-m` (0.61.0 sends it as asked; without `-m` the CLI routes itself). */
export const FAKE_GEMINI_MODEL = 'gemini-2.5-flash';

/** google.rpc status names of the HTTP codes, as the API puts them in `error.status`. */
const statusNames: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  409: 'ABORTED',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  501: 'NOT_IMPLEMENTED',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

interface ModelCall {
  model: string;
  method: string;
}

/** `/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse` → model and method. */
function modelCallOf(request: RecordedRequest): ModelCall | undefined {
  if (request.method !== 'POST') return undefined;
  const match = /\/models\/([^/:?]+):([A-Za-z]+)$/.exec(request.path.split('?')[0] ?? '');
  return match?.[1] && match[2] ? { model: decodeURIComponent(match[1]), method: match[2] } : undefined;
}

function usageMetadata(reply: ModelReply): Record<string, number> {
  const usage = reply.usage ?? {};
  const prompt = usage.inputTokens ?? 100;
  const output = usage.outputTokens ?? 10;
  const thoughts = usage.reasoningTokens ?? 0;
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: output,
    thoughtsTokenCount: thoughts,
    cachedContentTokenCount: usage.cachedInputTokens ?? 0,
    totalTokenCount: prompt + output + thoughts,
  };
}

/**
 * The SSE chunks of one scripted reply: thoughts (`thought: true` parts), then the text in word
 * deltas, then the function calls in one chunk; the last chunk carries `finishReason` and the usage
 * (without a finish reason the CLI retries the turn as a broken stream).
 */
export function geminiReplyChunks(reply: ModelReply, model: string, responseNumber: number): SseEvent[] {
  const responseId = `fake-response-${responseNumber}`;
  const chunk = (parts: unknown[], last = false): SseEvent => ({
    data: {
      candidates: [{ content: { role: 'model', parts }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
      ...(last ? { usageMetadata: usageMetadata(reply) } : {}),
      modelVersion: model,
      responseId,
    },
  });
  const chunks: SseEvent[] = [];
  if (reply.thinking !== undefined) chunks.push(chunk([{ text: reply.thinking, thought: true }]));
  if (reply.text !== undefined) for (const text of textDeltas(reply.text)) chunks.push(chunk([{ text }]));
  const calls = (reply.toolCalls ?? []).map((call, index) => ({
    functionCall: { ...(call.id ? { id: call.id } : {}), name: call.name, args: call.input ?? {} },
    // 2.5 and newer models sign their calls; the CLI sends the signature back and needs nothing of it.
    ...(index === 0 ? { thoughtSignature: `fake-signature-${responseNumber}` } : {}),
  }));
  if (calls.length) chunks.push(chunk(calls));
  // The finish chunk: an empty text part, as the API ends a stream.
  chunks.push(chunk([{ text: '' }], true));
  return chunks;
}

/** A small value that fits a JSON Schema, for the side calls that ask for JSON (the router's score). */
function valueFor(schema: unknown): unknown {
  const node = (typeof schema === 'object' && schema !== null ? schema : {}) as Record<string, unknown>;
  if (Array.isArray(node.enum) && node.enum.length) return node.enum[0];
  const type = String(node.type ?? 'object').toLowerCase();
  if (type === 'string') return 'fake';
  if (type === 'number' || type === 'integer') return 1;
  if (type === 'boolean') return false;
  if (type === 'array') return [];
  const properties = (typeof node.properties === 'object' && node.properties !== null ? node.properties : {}) as Record<string, unknown>;
  return Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, valueFor(value)]));
}

/** The answer to a non-streaming side call: JSON when the call asks for it, else a short text. */
function sideAnswer(request: RecordedRequest, model: string): Record<string, unknown> {
  const config = ((request.body as { generationConfig?: Record<string, unknown> } | undefined)?.generationConfig ?? {});
  const schema = config.responseJsonSchema ?? config.responseSchema;
  const text = schema !== undefined ? JSON.stringify(valueFor(schema)) : 'Fake summary.';
  return {
    candidates: [{ content: { role: 'model', parts: [{ text }] }, index: 0, finishReason: 'STOP' }],
    usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
    modelVersion: model,
    responseId: 'fake-side-response',
  };
}

function geminiApi(): ApiHandler {
  let responseNumber = 0;
  return {
    isModelCall: (request) => modelCallOf(request)?.method === 'streamGenerateContent',
    async writeReply(res: ServerResponse, step: ReplyStep, request) {
      responseNumber += 1;
      startSse(res);
      const pacing: { delayMs?: number; cutAfterEvents?: number } = {};
      if (step.delayMs !== undefined) pacing.delayMs = step.delayMs;
      if (step.cutAfterEvents !== undefined) pacing.cutAfterEvents = step.cutAfterEvents;
      await writeSse(res, geminiReplyChunks(step, modelCallOf(request)?.model ?? FAKE_GEMINI_MODEL, responseNumber), pacing);
    },
    errorBody: (status, message, type) => ({ error: { code: status, message, status: type ?? statusNames[status] ?? (status >= 500 ? 'INTERNAL' : 'FAILED_PRECONDITION') } }),
    other(request, res) {
      const call = modelCallOf(request);
      const json = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (call?.method === 'generateContent') return json(sideAnswer(request, call.model));
      if (call?.method === 'countTokens') return json({ totalTokens: 10 });
      res.writeHead(request.method === 'HEAD' ? 200 : 404).end();
    },
  };
}

/** Starts the fake Gemini server on 127.0.0.1 (random port). One script step per streamed turn. */
export function startFakeGemini(script: Script): Promise<FakeServer> {
  return startFakeServer(script, geminiApi());
}

/** The key the CLI sends as `x-goog-api-key`; recordings never hold a real one. */
export const FAKE_GEMINI_KEY = 'fake-gemini-key';

/**
 * The environment that sends `gemini` to `serverUrl`, with HOME (where sessions are kept) in `home`
 * (none under strict isolation, where the adapter sets it). The adapter selects API-key auth for a
 * custom base URL and gives each run its own GEMINI_CLI_HOME and TMPDIR.
 */
export function geminiTestEnv(serverUrl: string, home: string | undefined): Record<string, string> {
  return { GOOGLE_GEMINI_BASE_URL: serverUrl, GEMINI_API_KEY: FAKE_GEMINI_KEY, ...(home ? { HOME: home } : {}) };
}

/** Credentials or endpoints of a developer's own that must never reach the CLI under test. */
export const geminiForeignVars = ['GOOGLE_API_KEY', 'GOOGLE_GENAI_USE_VERTEXAI', 'GOOGLE_GENAI_USE_GCA', 'GOOGLE_CLOUD_PROJECT', 'GOOGLE_CLOUD_LOCATION', 'GOOGLE_APPLICATION_CREDENTIALS', 'GEMINI_MODEL', 'GEMINI_CLI_SYSTEM_SETTINGS_PATH', 'GEMINI_CLI_SYSTEM_DEFAULTS_PATH'];
