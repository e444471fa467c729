// The worker side: BullMQ hands a job over, the run goes through the same core as run() (its CLI
// in a process group of its own, watched by the host-death watchdog), its events go to the job's
// Redis stream in order, and its result is recorded once.
import { mkdir } from 'node:fs/promises';
import { Worker, type Job, type RedisOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { CoderError, InvalidOptionsError } from '../errors.js';
import type { CoderStreamEvent } from '../events.js';
import type { AdapterSpec, CanUseTool, OneShotOpts, Tool } from '../index.js';
import { runOnce, type RunTarget } from '../core/run-once.js';
import type { RunResult } from '../result.js';
import { resolveAdapter } from '../registry.js';
import { withRunOrigin, type RunOrigin } from '../core/run-hooks.js';
import { keysOf, STREAM_FIELD, toWire, type JobData, type JobSession, type StreamEntry, type WireResult } from './protocol.js';
import { exponentialDelay, isRetried, retryAfterOf } from './retry.js';

export interface WorkerConfig {
  connection: RedisOptions;
  name: string;
  /** This worker's name, recorded on each job it runs (BullMQ's job.processedBy). */
  workerName?: string;
  /** Jobs this worker runs at once (default 1). */
  concurrency?: number;
  /** Tools jobs may name in their `tools` option. */
  tools?: Tool[];
  /** canUseTool policies jobs may name in their `canUseTool` option. */
  permissionPolicies?: Record<string, CanUseTool>;
  /** Adapters beyond the built-in CLIs, by their name. */
  adapters?: AdapterSpec<string>[];
  /** What SIGTERM/SIGINT and close() do with running jobs: let them finish (default) or cancel them. */
  onShutdown?: 'finish' | 'cancel';
  /** Stop on SIGTERM and SIGINT as onShutdown says, then let the signal take its course (default true). */
  handleSignals?: boolean;
  /** BullMQ's stalled-job check: how often (default 30 s), and how long a job's lock lasts without renewal (default 30 s). */
  stalledIntervalMs?: number;
  lockDurationMs?: number;
  /** How long a finished job's event stream and result stay in Redis (default 1 day). */
  retentionSeconds?: number;
}

export interface CoderWorker {
  /** Resolves once the worker is connected and taking jobs. */
  ready(): Promise<void>;
  /** Stops taking jobs; running ones finish or are cancelled (onShutdown, or `cancel` here). No CLI is left. */
  close(options?: { cancel?: boolean }): Promise<void>;
  /** Jobs running here now. */
  runningCount(): number;
}

/** A failed attempt BullMQ should retry, after `delayMs`. */
class RetryAttempt extends Error {
  constructor(
    readonly result: WireResult,
    readonly delayMs: number,
  ) {
    super(result.error?.message ?? 'retry');
    this.name = 'RetryAttempt';
  }
}

const DEFAULT_RETENTION_SECONDS = 24 * 3600;

export function createWorker(config: WorkerConfig): CoderWorker {
  const connection = { ...config.connection, maxRetriesPerRequest: null };
  const keys = keysOf(config.name);
  const retention = config.retentionSeconds ?? DEFAULT_RETENTION_SECONDS;
  const tools = new Map((config.tools ?? []).map((tool) => [tool.name, tool]));
  const policies = new Map(Object.entries(config.permissionPolicies ?? {}));
  const adapters = new Map((config.adapters ?? []).map((adapter) => [adapter.name, adapter]));
  const redis = new Redis(connection);
  const subscriber = new Redis(connection);
  const running = new Map<string, AbortController>();

  subscriber.on('message', (_channel: string, id: string) => running.get(id)?.abort());
  const subscribed = subscriber.subscribe(keys.cancelChannel);

  /** The run options a job's data names, resolved against what this worker registered. */
  const resolveOptions = (data: JobData): OneShotOpts => {
    const { tools: toolNames, canUseTool: policyName, ...rest } = data.options as { tools?: string[]; canUseTool?: string };
    const issues: string[] = [];
    const resolvedTools = (toolNames ?? []).map((name) => tools.get(name) ?? issues.push(`tools: no tool "${name}" is registered on this worker`));
    const policy = policyName === undefined ? undefined : policies.get(policyName);
    if (policyName !== undefined && !policy) issues.push(`canUseTool: no policy "${policyName}" is registered on this worker`);
    if (issues.length) throw new InvalidOptionsError(issues, data.cli);
    return { ...rest, ...(toolNames ? { tools: resolvedTools as Tool[] } : {}), ...(policy ? { canUseTool: policy } : {}) } as OneShotOpts;
  };

  const processJob = async (job: Job<JobData>, _token?: string, bullSignal?: AbortSignal): Promise<WireResult> => {
    const id = job.id!;
    const data = job.data;
    const stream = keys.stream(id);
    const controller = new AbortController();
    running.set(id, controller);
    bullSignal?.addEventListener('abort', () => controller.abort(), { once: true });
    // Commands on one connection reach Redis in the order they are sent: the stream keeps the run's order.
    let written: Promise<unknown> = Promise.resolve();
    const write = (entry: StreamEntry) => {
      written = redis.xadd(stream, 'MAXLEN', '~', data.events.maxLen, '*', STREAM_FIELD, JSON.stringify(entry));
    };
    const errorEvents: CoderStreamEvent<string>[] = [];
    try {
      if (await redis.exists(keys.cancelled(id))) controller.abort();
      const origin: RunOrigin = { jobId: id, attempt: job.attemptsMade + 1, ...(data.trace ? { trace: data.trace } : {}) };
      const previous = job.data as JobData & { previousAttempt?: RunOrigin['previousAttempt'] };
      if (previous.previousAttempt) origin.previousAttempt = previous.previousAttempt;
      let result: RunResult<unknown, string>;
      try {
        const adapter = adapters.get(data.cli) ?? resolveAdapter(data.cli);
        if (data.session?.dir) await sessionDirReady(data.session.dir, data.cli);
        result = await withRunOrigin(origin, () =>
          runOnce(adapter, data.prompt, {
            ...resolveOptions(data),
            signal: controller.signal,
            onEvent: (event) => {
              if (event.type === 'error') errorEvents.push(event);
              write({ t: 'event', event });
            },
            ...(data.events.raw ? { onRawLine: (line: string) => write({ t: 'raw', line }) } : {}),
          }, { session: sessionTarget(data.session), ...(data.session?.dir ? { stateDir: data.session.dir } : {}) }),
        );
      } catch (error) {
        if (!(error instanceof CoderError)) throw error;
        result = failedBeforeRun(data.cli, error);
      }
      const wire = toWire(result);
      if (result.status === 'error' && isRetried(result.error?.code) && job.attemptsMade + 1 < (job.opts.attempts ?? 1)) {
        const retryAfter = retryAfterOf(result.error?.message, errorEvents);
        const delayMs = retryAfter ?? exponentialDelay(job.opts.backoff && typeof job.opts.backoff === 'object' ? job.opts.backoff.delay ?? 1_000 : 1_000, job.attemptsMade + 1);
        const message = `${result.error?.code}: attempt ${job.attemptsMade + 1} failed; retrying in ${delayMs} ms (${retryAfter === undefined ? 'exponential backoff' : 'retry-after'})`;
        write({ t: 'event', event: { type: 'progress', kind: 'retry', subtype: 'queue_retry', message, provider: data.cli, ts: Date.now(), raw: { attempt: job.attemptsMade + 1, delayMs, errorCode: result.error?.code } } });
        await written;
        await job.updateData({ ...data, previousAttempt: { errorCode: result.error?.code, message: result.error?.message ?? '', delayMs } } as JobData);
        throw new RetryAttempt(wire, delayMs);
      }
      return await record(id, stream, wire, write, () => written);
    } finally {
      running.delete(id);
    }
  };

  /** The first result recorded for a job wins: a run that somehow ran twice cannot record twice. */
  const record = async (id: string, stream: string, wire: WireResult, write: (entry: StreamEntry) => void, written: () => Promise<unknown>): Promise<WireResult> => {
    const first = await redis.set(keys.result(id), JSON.stringify(wire), 'EX', retention, 'NX');
    if (first !== 'OK') return JSON.parse((await redis.get(keys.result(id))) ?? 'null') as WireResult;
    write({ t: 'result', result: wire });
    await written();
    await redis.expire(stream, retention);
    return wire;
  };

  const worker = new Worker<JobData, WireResult>(config.name, processJob, {
    connection,
    concurrency: config.concurrency ?? 1,
    ...(config.workerName ? { name: config.workerName } : {}),
    ...(config.stalledIntervalMs ? { stalledInterval: config.stalledIntervalMs } : {}),
    ...(config.lockDurationMs ? { lockDuration: config.lockDurationMs } : {}),
    settings: {
      backoffStrategy: (_attempts, _type, error) => (error instanceof RetryAttempt ? error.delayMs : 1_000),
    },
  });
  // BullMQ reports failed attempts and connection trouble here; a run's own failures are in its result.
  worker.on('error', () => {});

  let closing: Promise<void> | undefined;
  const close = (options: { cancel?: boolean } = {}): Promise<void> => {
    closing ??= (async () => {
      const stopping = worker.close();
      if (options.cancel ?? config.onShutdown === 'cancel') for (const controller of running.values()) controller.abort();
      await stopping;
      subscriber.disconnect();
      redis.disconnect();
    })();
    return closing;
  };

  if (config.handleSignals ?? true) {
    // Our handlers stay until the close is done: while another listener exists, signal-exit (which the
    // core uses for its exit hooks) does not re-raise the signal, which would end the process at once.
    const onSignal = (signal: NodeJS.Signals) => {
      void close().finally(() => {
        process.off('SIGTERM', onSignal);
        process.off('SIGINT', onSignal);
        process.kill(process.pid, signal);
      });
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  }

  return {
    async ready() {
      await subscribed;
      await worker.waitUntilReady();
    },
    close,
    runningCount: () => running.size,
  };
}

/** The shared session dir, made on first use; one this worker cannot make fails the job as invalid. */
async function sessionDirReady(dir: string, provider: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new CoderError('invalid_options', `session.dir ${dir}: ${(error as Error).message}`, { provider });
  }
}

/** The session a job names: a resume, a fork, else a new one. */
function sessionTarget(session: JobSession | undefined): RunTarget {
  if (session?.resume) return { kind: 'resume', sessionId: session.resume };
  if (session?.fork) return { kind: 'fork', sessionId: session.fork };
  return { kind: 'new' };
}

/** The result of a run that failed before its CLI started (invalid options, no binary, …). */
function failedBeforeRun(provider: string, error: CoderError): RunResult<unknown, string> {
  return { provider, status: 'error', text: '', output: undefined, sessionId: undefined, usage: { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 }, exitCode: undefined, signal: undefined, durationMs: 0, error, pid: undefined, cliVersion: undefined };
}
