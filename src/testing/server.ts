// The HTTP part every fake model server shares: loopback only, random port, every request recorded,
// per-request script steps, SSE writing with optional delays, hangs and cut streams.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ScriptStep } from '../core/contract/model-reply.js';
import { stepFor, type RecordedRequest, type Script } from './script.js';

export interface SseEvent {
  /** SSE `event:` name; omitted for APIs that put the type in the data only. */
  event?: string;
  /** Serialized with JSON.stringify unless it is already a string. */
  data: unknown;
}

export interface FakeServer {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:43121`. */
  url: string;
  /** Every request received, in order (including ones not matched by the API handler). */
  requests: RecordedRequest[];
  /** Requests that consumed a script step (model calls), in order. */
  modelRequests: RecordedRequest[];
  close(): Promise<void>;
}

export interface ApiHandler {
  /** Whether this request is a model call that takes the next script step. */
  isModelCall(request: RecordedRequest): boolean;
  /** Writes the answer for one reply step. */
  writeReply(res: ServerResponse, step: Extract<ScriptStep, { kind?: 'reply' }>, request: RecordedRequest): Promise<void>;
  /** The JSON body of an HTTP error in this API's format. */
  errorBody(status: number, message: string, type: string | undefined): unknown;
  /** Answer for anything that is not a model call (HEAD pre-warm, model lists, …). */
  other?(request: RecordedRequest, res: ServerResponse): void;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export function startSse(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  res.flushHeaders();
}

/**
 * Writes SSE events; with `cutAfterEvents` the socket is destroyed after that many, as a dropped
 * connection would. Ends the response otherwise.
 */
export async function writeSse(
  res: ServerResponse,
  events: SseEvent[],
  options: { delayMs?: number; cutAfterEvents?: number } = {},
): Promise<void> {
  let sent = 0;
  for (const { event, data } of events) {
    if (options.cutAfterEvents !== undefined && sent >= options.cutAfterEvents) {
      res.socket?.destroy();
      return;
    }
    if (options.delayMs) await sleep(options.delayMs);
    if (res.destroyed) return;
    const payload = typeof data === 'string' ? data : JSON.stringify(data);
    res.write(`${event ? `event: ${event}\n` : ''}data: ${payload}\n\n`);
    sent += 1;
  }
  res.end();
}

export async function startFakeServer(script: Script, api: ApiHandler): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const modelRequests: RecordedRequest[] = [];
  const hung = new Set<ServerResponse>();

  const server = createServer((req, res) => {
    void (async () => {
      const request: RecordedRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: { ...req.headers },
        body: await readBody(req),
        receivedAt: Date.now(),
      };
      requests.push(request);
      if (!api.isModelCall(request)) {
        if (api.other) api.other(request, res);
        else res.writeHead(request.method === 'HEAD' ? 200 : 404).end();
        return;
      }
      const step = stepFor(script, request, modelRequests.length);
      modelRequests.push(request);
      await answer(step, request, res);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`fake server failure: ${String(error)}`);
    });
  });

  async function answer(step: ScriptStep, request: RecordedRequest, res: ServerResponse): Promise<void> {
    if (step.kind === 'hang') {
      hung.add(res);
      res.on('close', () => hung.delete(res));
      if (step.after === 'headers' || step.after === 'first-event') startSse(res);
      if (step.after === 'first-event') {
        const first = await firstEventOf(request);
        if (first) res.write(first);
      }
      return;
    }
    if (step.kind === 'error') {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (step.retryAfterSeconds !== undefined) headers['retry-after'] = String(step.retryAfterSeconds);
      if (step.retryAfterMs !== undefined) headers['retry-after-ms'] = String(step.retryAfterMs);
      res.writeHead(step.status, headers);
      res.end(JSON.stringify(api.errorBody(step.status, step.message ?? `fake error ${step.status}`, step.type)));
      return;
    }
    await api.writeReply(res, step, request);
  }

  // A hang "after the first event" sends the opening event of a one-word reply and stops there.
  async function firstEventOf(request: RecordedRequest): Promise<string | undefined> {
    let captured: string | undefined;
    const probe = {
      writeHead: () => probe,
      flushHeaders: () => undefined,
      write: (chunk: string) => {
        captured ??= chunk;
        return true;
      },
      end: () => undefined,
      destroyed: false,
      socket: null,
    } as unknown as ServerResponse;
    await api.writeReply(probe, { text: 'x' }, request);
    return captured;
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    modelRequests,
    close: async () => {
      for (const res of hung) res.socket?.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
