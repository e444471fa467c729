// Run lifecycle hooks: what an observer (tracing, metrics) needs to follow every run, without the core
// knowing who listens. Nothing is done per run or per event while no observer is registered.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { CoderStreamEvent } from '../../events.js';
import type { ResolvedOpts } from '../../options.js';
import type { RunResult } from '../../result.js';

/** Where a run comes from, when something ran it on another's behalf (a queue worker for a producer). */
export interface RunOrigin {
  /** Trace context carried with the job (W3C trace-context fields). */
  trace?: Record<string, string>;
  /** Which attempt of a job this run is (1 = the first). */
  attempt?: number;
  /** Why the previous attempt was retried, and after how long. */
  previousAttempt?: { errorCode: string | undefined; message: string; delayMs: number };
  /** The job's id. */
  jobId?: string;
}

export interface RunStart {
  provider: string;
  model: string | undefined;
  origin: RunOrigin | undefined;
}

/** One run as an observer follows it: events as they happen, then exactly one of ended/failed. */
export interface RunObservation {
  event?(event: CoderStreamEvent<string>): void;
  ended(result: RunResult<unknown, string>): void;
  /** The run threw (invalid options, binary not found, a throwing callback, …). */
  failed(error: unknown): void;
}

export interface RunObserver {
  runStarted(start: RunStart): RunObservation | undefined;
  /** Trace context to carry with a job being enqueued, if the observer traces. */
  traceContext?(): Record<string, string> | undefined;
}

const observers = new Set<RunObserver>();
const origins = new AsyncLocalStorage<RunOrigin>();

/** Registers an observer of every run in this process; returns its removal. */
export function observeRuns(observer: RunObserver): () => void {
  observers.add(observer);
  return () => observers.delete(observer);
}

/** Runs `work` with the runs it starts attributed to `origin`. */
export function withRunOrigin<T>(origin: RunOrigin, work: () => T): T {
  return origins.run(origin, work);
}

/** The observations of a run starting now, or undefined when nobody observes. */
export function observeRun(provider: string, opts: Pick<ResolvedOpts, 'model'>): RunObservation | undefined {
  if (observers.size === 0) return undefined;
  const start: RunStart = { provider, model: opts.model, origin: origins.getStore() };
  const observations = [...observers].flatMap((observer) => observer.runStarted(start) ?? []);
  if (observations.length === 0) return undefined;
  if (observations.length === 1) return observations[0];
  return {
    event: (event) => observations.forEach((o) => o.event?.(event)),
    ended: (result) => observations.forEach((o) => o.ended(result)),
    failed: (error) => observations.forEach((o) => o.failed(error)),
  };
}

/** Trace context of the first observer that has one (for a job being enqueued). */
export function currentTraceContext(): Record<string, string> | undefined {
  for (const observer of observers) {
    const context = observer.traceContext?.();
    if (context) return context;
  }
  return undefined;
}
