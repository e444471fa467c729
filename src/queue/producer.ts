// The producer side: enqueue() puts a run on a BullMQ queue as plain data; a handle follows the
// job's event stream (live, from any process) to its result, and cancel() reaches the worker that
// runs it through Redis.
import { isAbsolute } from 'node:path';
import { Queue, type RedisOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { InvalidOptionsError } from '../errors.js';
import type { CoderStreamEvent } from '../events.js';
import type { RunResult } from '../result.js';
import { outputJsonSchemaOf } from '../core/output-schema.js';
import { isStandardSchema } from '../core/standard-schema.js';
import { currentTraceContext } from '../core/run-hooks.js';
import { StreamFollower } from './follower.js';
import { callbackOptions, DEFAULT_EVENTS, fromWire, keysOf, type JobData, type JobEventsOptions, type JobSession, type QueueRunOptions, type StreamEntry, type WireResult } from './protocol.js';

export interface QueueConfig {
  /** Where Redis is (ioredis options: host, port, password, tls, …). */
  connection: RedisOptions;
  /** The queue's name: producers and workers of one name share its jobs. */
  name: string;
}

export interface EnqueueOptions {
  /** Runs in all, the first included, when a run ends in `rate_limit` or `server` (default 3). */
  attempts?: number;
  /** First retry delay when the CLI gave no retry-after; doubled on each retry (default 1000 ms). */
  backoffMs?: number;
  events?: JobEventsOptions;
  /** Resume or fork a session, in a session dir the workers share (see docs/scale.md). */
  session?: JobSession;
}

export interface JobHandle {
  readonly id: string;
  /** The run's events from the first one the stream still keeps, live, through the last (attempts after a retry follow on). */
  readonly events: AsyncIterable<CoderStreamEvent<string>>;
  /** Raw stdout lines, when the job was enqueued with `events.raw`. */
  readonly rawLines: AsyncIterable<string>;
  /** The run's result, recorded once (a failed run resolves too: check `status`). */
  readonly result: Promise<RunResult<unknown, string>>;
  /** Stops the run wherever it runs (its CLI's process group included), or before it starts. */
  cancel(): Promise<void>;
}

export interface CoderQueue {
  enqueue(cli: string, prompt: string, options?: QueueRunOptions, job?: EnqueueOptions): Promise<JobHandle>;
  /** A handle on a job enqueued anywhere, by its id. */
  job(id: string): JobHandle;
  /** The BullMQ queue underneath (counts, pause, clean, …). */
  readonly bull: Queue<JobData, WireResult>;
  close(): Promise<void>;
}

/** How long cancel flags live: longer than any job waits in a queue. */
const CANCEL_TTL_SECONDS = 7 * 24 * 3600;

/** Options as data: callbacks are refused by name, a library outputSchema becomes its JSON Schema. */
function optionsAsData(options: QueueRunOptions | undefined): Record<string, unknown> {
  const data: Record<string, unknown> = { ...options };
  const issues: string[] = [];
  for (const [name, instead] of Object.entries(callbackOptions)) {
    if (typeof data[name] === 'function' || data[name] instanceof AbortSignal) issues.push(`${name} is a callback and cannot travel to a worker: ${instead}`);
  }
  const tools = data.tools;
  if (tools !== undefined && (!Array.isArray(tools) || tools.some((tool) => typeof tool !== 'string'))) {
    issues.push('tools: pass the names of tools registered on the workers (createWorker({ tools }))');
  }
  for (const [name, value] of Object.entries(data)) {
    if (typeof value === 'function' && !(name in callbackOptions)) issues.push(`${name} is a function and cannot travel to a worker`);
  }
  if (issues.length) throw new InvalidOptionsError(issues);
  if (data.outputSchema !== undefined && isStandardSchema(data.outputSchema)) {
    data.outputSchema = outputJsonSchemaOf({ outputSchema: data.outputSchema, outputJsonSchema: data.outputJsonSchema as Record<string, unknown> | undefined });
    delete data.outputJsonSchema;
  }
  return data;
}

/** The job's session as data, refused before anything is queued when no worker could honour it. */
function sessionAsData(session: JobSession | undefined, options: Record<string, unknown>): JobSession | undefined {
  if (session === undefined) return undefined;
  const issues: string[] = [];
  for (const key of ['resume', 'fork', 'dir'] as const) {
    if (session[key] !== undefined && (typeof session[key] !== 'string' || session[key] === '')) issues.push(`session.${key} must be a non-empty string`);
  }
  if (session.resume !== undefined && session.fork !== undefined) issues.push('session: resume or fork, not both');
  if (session.dir !== undefined && !isAbsolute(session.dir)) issues.push('session.dir must be an absolute path (every worker resolves it)');
  if (session.dir !== undefined && options.isolation !== 'strict') issues.push("session.dir is the CLI's config dir under isolation: 'strict': set that option too");
  if (issues.length) throw new InvalidOptionsError(issues);
  return session;
}

/** A job's stream entries, kept as they arrive, handed to any number of readers from the first. */
class JobFeed {
  readonly entries: StreamEntry[] = [];
  private wakeups: Array<() => void> = [];
  finished = false;

  push(batch: StreamEntry[]): boolean {
    this.entries.push(...batch);
    if (batch.some((entry) => entry.t === 'result')) this.finished = true;
    for (const wake of this.wakeups.splice(0)) wake();
    return this.finished;
  }

  async *read(): AsyncGenerator<StreamEntry> {
    let next = 0;
    for (;;) {
      while (next < this.entries.length) yield this.entries[next++]!;
      if (this.finished) return;
      await new Promise<void>((resolve) => this.wakeups.push(resolve));
    }
  }
}

export function createQueue(config: QueueConfig): CoderQueue {
  const connection = { ...config.connection, maxRetriesPerRequest: null };
  const keys = keysOf(config.name);
  const bull = new Queue<JobData, WireResult>(config.name, { connection });
  const redis = new Redis(connection);
  const follower = new StreamFollower(new Redis(connection), redis);
  const feeds = new Map<string, JobFeed>();

  const feedOf = (id: string): JobFeed => {
    let feed = feeds.get(id);
    if (!feed) {
      const created = new JobFeed();
      feed = created;
      feeds.set(id, created);
      follower.follow(keys.stream(id), (batch) => created.push(batch));
    }
    return feed;
  };

  const handle = (id: string): JobHandle => {
    let result: Promise<RunResult<unknown, string>> | undefined;
    return {
      id,
      get events() {
        const feed = feedOf(id);
        return (async function* () {
          for await (const entry of feed.read()) if (entry.t === 'event') yield entry.event;
        })();
      },
      get rawLines() {
        const feed = feedOf(id);
        return (async function* () {
          for await (const entry of feed.read()) if (entry.t === 'raw') yield entry.line;
        })();
      },
      get result() {
        result ??= (async () => {
          for await (const entry of feedOf(id).read()) if (entry.t === 'result') {
            feeds.delete(id);
            return fromWire(entry.result);
          }
          throw new Error(`job ${id}: its event stream ended without a result`);
        })();
        return result;
      },
      async cancel() {
        await redis.set(keys.cancelled(id), '1', 'EX', CANCEL_TTL_SECONDS);
        await redis.publish(keys.cancelChannel, id);
      },
    };
  };

  return {
    async enqueue(cli, prompt, options, job = {}) {
      const asData = optionsAsData(options);
      const session = sessionAsData(job.session, asData);
      const data: JobData = { cli, prompt, options: asData, events: { ...DEFAULT_EVENTS, ...job.events }, ...(session ? { session } : {}) };
      const trace = currentTraceContext();
      if (trace) data.trace = trace;
      const added = await bull.add(cli, data, {
        attempts: job.attempts ?? 3,
        backoff: { type: 'coderline', delay: job.backoffMs ?? 1_000 },
        removeOnComplete: { count: 1_000 },
        removeOnFail: { count: 1_000 },
      });
      return handle(added.id!);
    },
    job: handle,
    bull,
    async close() {
      await follower.close();
      await bull.close();
      redis.disconnect();
    },
  };
}
