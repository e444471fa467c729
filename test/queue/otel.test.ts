// coderline/otel with the OpenTelemetry SDK's in-memory exporter: a span per run with the GenAI
// attributes, a child span per tool call, and a queued job's span parented to the enqueuer's span.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Redis } from 'ioredis';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { run, type TranslatedEvent } from '../../src/index.js';
import { useTracerProvider } from '../../src/otel/index.js';
import { createQueue, createWorker } from '../../src/queue/index.js';
import { done, fakeAdapter, script } from '../support/fake-adapter.js';
import { setHostEnv } from '../support/host-env.js';
import { testRedis } from '../support/redis.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
// What an SDK set-up does: spans made active with context.with() are seen across awaits.
const contextManager = new AsyncLocalStorageContextManager().enable();
context.setGlobalContextManager(contextManager);
useTracerProvider(provider);
afterAll(() => {
  useTracerProvider(undefined);
  context.disable();
});
beforeEach(() => exporter.reset());

/** The fake adapter, with records for tool calls (the base fake has none). */
const base = fakeAdapter();
const fake = fakeAdapter({
  createTranslator: (ctx) => {
    const inner = base.createTranslator(ctx);
    return {
      translate(record: unknown): TranslatedEvent[] {
        const r = record as { type?: string; id?: string; name?: string; isError?: boolean; message?: string };
        if (r.type === 'tool_use') return [{ type: 'tool_use', id: r.id!, name: r.name!, input: {}, raw: record }];
        if (r.type === 'tool_result') return [{ type: 'tool_result', id: r.id!, output: 'ok', isError: Boolean(r.isError), raw: record }];
        if (r.type === 'retry') return [{ type: 'progress', kind: 'retry', message: r.message!, raw: record }];
        return inner.translate(record);
      },
    };
  },
});

const usage = { inputTokens: 12, cachedInputTokens: 4, outputTokens: 7, reasoningTokens: 1, costUsd: 0.25 };

describe('coderline/otel', () => {
  it('a run is an invoke_agent span with the GenAI attributes; each tool call an execute_tool child', async () => {
    const result = await run(fake, 'x', {
      ...script([
        { out: { type: 'init', sessionId: 'sess-1' } },
        { out: { type: 'tool_use', id: 't1', name: 'Bash' } },
        { out: { type: 'tool_result', id: 't1', isError: true } },
        { out: { type: 'usage', usage } },
        done('answer'),
      ]),
      model: 'fake-model',
    });
    expect(result.status).toBe('success');
    const spans = exporter.getFinishedSpans();
    const runSpan = spans.find((span) => span.name === 'invoke_agent fake')!;
    const toolSpan = spans.find((span) => span.name === 'execute_tool Bash')!;
    expect(runSpan.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.provider.name': 'fake',
      'gen_ai.request.model': 'fake-model',
      'gen_ai.conversation.id': 'sess-1',
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 7,
      'gen_ai.usage.cache_read.input_tokens': 4,
      'coderline.cost_usd': 0.25,
      'coderline.run.status': 'success',
    });
    expect(toolSpan.attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'Bash', 'gen_ai.tool.call.id': 't1' });
    expect(toolSpan.status.code).toBe(2);
    expect(toolSpan.parentSpanContext?.spanId).toBe(runSpan.spanContext().spanId);
    expect(toolSpan.spanContext().traceId).toBe(runSpan.spanContext().traceId);
  });

  it('a failed run ends its span in error with the error code', async () => {
    const result = await run(fake, 'x', script([{ out: { type: 'error', code: 'auth', message: 'bad key', fatal: true } }, { exit: 1 }]));
    expect(result.error?.code).toBe('auth');
    const [span] = exporter.getFinishedSpans();
    expect(span!.status.code).toBe(2);
    expect(span!.attributes['error.type']).toBe('auth');
  });

  it('spans carry no secret of the run: not in the error status, a retry reason or any attribute', async () => {
    // A CLI that echoes the keys it was given — one in extraEnv, its own auth variable from the host's
    // environment — in a retry notice, an error record and on stderr. Spans go to a tracing backend
    // that many people read.
    const given = 'sk-otel-given-0123456789';
    const host = 'sk-otel-host-9876543210';
    setHostEnv({ FAKE_CLI_API_KEY: host });
    const result = await run(fake, 'x', script([
      { out: { type: 'retry', message: `retrying with ${given}` } },
      { err: `auth failed for ${host}` },
      { out: { type: 'error', code: 'auth', message: `bad key ${given}`, fatal: true } },
      { exit: 1 },
    ], { API_TOKEN: given }));
    expect(result.error?.code).toBe('auth');
    const spans = JSON.stringify(exporter.getFinishedSpans().map((span) => ({ name: span.name, attributes: span.attributes, events: span.events, status: span.status })));
    expect(spans).toContain('retrying with <redacted>');
    expect(spans).toContain('bad key <redacted>');
    expect(spans).toContain('auth failed for <redacted>');
    expect(spans).not.toContain(given);
    expect(spans).not.toContain(host);
  });

  it('carries the trace context from enqueue() to the worker: the run span is a child of the enqueuing span', async () => {
    const name = `otel-${process.pid}-${randomBytes(4).toString('hex')}`;
    const queue = createQueue({ connection: testRedis(), name });
    const worker = createWorker({ connection: testRedis(), name, adapters: [fake], handleSignals: false, allowOptions: ['extraEnv'] });
    try {
      await worker.ready();
      const parent = provider.getTracer('test').startSpan('review pull request');
      const handle = await context.with(trace.setSpan(context.active(), parent), () => queue.enqueue('fake', 'x', script([done('queued')])));
      parent.end();
      expect((await handle.result).text).toBe('queued');
      const runSpan = exporter.getFinishedSpans().find((span) => span.name === 'invoke_agent fake')!;
      expect(runSpan.spanContext().traceId).toBe(parent.spanContext().traceId);
      expect(runSpan.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
      expect(runSpan.attributes['coderline.job.id']).toBe(handle.id);
    } finally {
      await worker.close();
      await queue.close();
    }
  });
  it("a queued job's spans, retry reason and stored job data carry no secret the worker gave its run", async () => {
    const name = `otel-${process.pid}-${randomBytes(4).toString('hex')}`;
    const secret = 'sk-queue-otel-0123456789';
    const queue = createQueue({ connection: testRedis(), name });
    // The worker's own key for the job's run (its jobOptions hook, which also scripts the CLI here); the
    // CLI's first attempt prints it in a rate-limit error, which becomes the retry's reason in the job's
    // data in Redis and on the next run's span.
    const flag = join(mkdtempSync(join(tmpdir(), 'coderline-otel-')), 'first');
    const steps = [{ firstRunOnly: { flag, steps: [{ out: { type: 'error', code: 'rate_limit', message: `429 for key ${secret}; retry after 0.01s`, fatal: true } }, { exit: 1 }] } }, done('second')];
    const worker = createWorker({ connection: testRedis(), name, adapters: [fake], handleSignals: false, jobOptions: ({ options }) => ({ ...options, ...script(steps, { WORKER_TOKEN: secret }) }) });
    const redis = new Redis(testRedis());
    try {
      await worker.ready();
      const handle = await queue.enqueue('fake', 'x', {}, { attempts: 2, backoffMs: 10 });
      expect((await handle.result).text).toBe('second');
      const spans = JSON.stringify(exporter.getFinishedSpans().map((span) => ({ attributes: span.attributes, events: span.events, status: span.status })));
      expect(spans).toContain('429 for key <redacted>');
      expect(spans).not.toContain(secret);
      expect(JSON.stringify(await redis.hgetall(`bull:${name}:${handle.id}`))).not.toContain(secret);
    } finally {
      redis.disconnect();
      await worker.close();
      await queue.close();
    }
  });
});
