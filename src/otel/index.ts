// coderline/otel: importing this entry traces every run of the process with OpenTelemetry, on the
// tracer provider registered with @opentelemetry/api (or the one given to useTracerProvider()).
// A span per run (`invoke_agent`, GenAI semantic conventions), a child span per tool call
// (`execute_tool`), retries as span events, and the trace context carried with queued jobs.
import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, TraceFlags, type Context, type Span, type TracerProvider } from '@opentelemetry/api';
import type { CoderStreamEvent } from '../events.js';
import type { RunResult } from '../result.js';
import { observeRuns, type RunObservation, type RunObserver, type RunStart } from '../core/run/run-hooks.js';
// From the main entry: the package's code stays one chunk shared by every entry (tsup.config.ts).
import { isCoderError } from '../index.js';

const TRACER_NAME = 'coderline';
let provider: TracerProvider | undefined;

/** Traces runs on this provider instead of the global one. */
export function useTracerProvider(tracerProvider: TracerProvider | undefined): void {
  provider = tracerProvider;
}

const tracer = () => (provider ?? trace.getTracerProvider()).getTracer(TRACER_NAME);

// W3C trace context: version 00, 32 hex trace id, 16 hex span id, 2 hex flags.
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

function injectTraceContext(): Record<string, string> | undefined {
  const span = trace.getSpanContext(context.active());
  if (!span || !trace.isSpanContextValid(span)) return undefined;
  return { traceparent: `00-${span.traceId}-${span.spanId}-${span.traceFlags.toString(16).padStart(2, '0')}` };
}

function parentContext(carrier: Record<string, string> | undefined): Context {
  const match = carrier?.traceparent ? TRACEPARENT.exec(carrier.traceparent) : null;
  if (!match) return context.active();
  return trace.setSpanContext(ROOT_CONTEXT, { traceId: match[1]!, spanId: match[2]!, traceFlags: Number.parseInt(match[3]!, 16) & TraceFlags.SAMPLED, isRemote: true });
}

function observe(start: RunStart): RunObservation {
  const { origin } = start;
  const span = tracer().startSpan(
    `invoke_agent ${start.provider}`,
    {
      kind: SpanKind.CLIENT,
      attributes: {
        'gen_ai.operation.name': 'invoke_agent',
        'gen_ai.provider.name': start.provider,
        'gen_ai.agent.name': start.provider,
        ...(start.model ? { 'gen_ai.request.model': start.model } : {}),
        ...(origin?.jobId ? { 'coderline.job.id': origin.jobId } : {}),
        ...(origin?.attempt ? { 'coderline.job.attempt': origin.attempt } : {}),
      },
    },
    parentContext(origin?.trace),
  );
  if (origin?.previousAttempt) {
    const previous = origin.previousAttempt;
    span.addEvent('retry', { 'error.type': previous.errorCode ?? 'unknown', 'coderline.retry.delay_ms': previous.delayMs, 'coderline.retry.reason': previous.message });
  }
  const runContext = trace.setSpan(context.active(), span);
  const tools = new Map<string, Span>();

  const onEvent = (event: CoderStreamEvent<string>) => {
    switch (event.type) {
      case 'init':
        if (event.sessionId) span.setAttribute('gen_ai.conversation.id', event.sessionId);
        if (event.model) span.setAttribute('gen_ai.response.model', event.model);
        break;
      case 'tool_use':
        tools.set(
          event.id,
          tracer().startSpan(`execute_tool ${event.name}`, { kind: SpanKind.INTERNAL, attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': event.name, 'gen_ai.tool.call.id': event.id } }, runContext),
        );
        break;
      case 'tool_result': {
        const tool = tools.get(event.id);
        if (!tool) break;
        if (event.isError) tool.setStatus({ code: SpanStatusCode.ERROR });
        tool.end();
        tools.delete(event.id);
        break;
      }
      case 'progress':
        if (event.kind === 'retry') span.addEvent('retry', { 'coderline.retry.reason': event.message ?? event.subtype ?? 'retry' });
        break;
      default:
    }
  };

  const finish = (error: unknown) => {
    for (const tool of tools.values()) tool.end();
    if (error !== undefined) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      span.setAttribute('error.type', isCoderError(error) ? error.code : error instanceof Error ? error.name : 'error');
    }
    span.end();
  };

  return {
    event: onEvent,
    ended(result: RunResult<unknown, string>) {
      if (result.sessionId) span.setAttribute('gen_ai.conversation.id', result.sessionId);
      span.setAttributes({
        'gen_ai.usage.input_tokens': result.usage.inputTokens,
        'gen_ai.usage.output_tokens': result.usage.outputTokens,
        'gen_ai.usage.cache_read.input_tokens': result.usage.cachedInputTokens,
        'coderline.usage.reasoning_tokens': result.usage.reasoningTokens,
        'coderline.run.status': result.status,
        ...(result.usage.costUsd !== undefined ? { 'coderline.cost_usd': result.usage.costUsd } : {}),
      });
      finish(result.status === 'success' ? undefined : (result.error ?? new Error(result.status)));
    },
    failed: finish,
  };
}

const observer: RunObserver = { runStarted: observe, traceContext: injectTraceContext };
observeRuns(observer);
