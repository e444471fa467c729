// The producer side: enqueue() checks a run's options with the same schema as run() and puts it on a
// BullMQ queue as plain data; a handle follows the job's event stream (live, from any process) to its
// result, and cancel() reaches the worker that runs it through Redis, or settles a job no worker has
// taken yet at once. While a handle waits, the producer also watches the job in BullMQ: a job that
// failed there without a result (past the stalled limit) or that Redis no longer holds settles too.
import { isAbsolute } from 'node:path';
import { Queue, type RedisOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { InvalidOptionsError } from '../errors.js';
import type { CoderStreamEvent } from '../events.js';
import type { RunResult } from '../result.js';
import { outputJsonSchemaOf } from '../core/options/output-schema.js';
import { isStandardSchema } from '../schema/standard-schema.js';
import { currentTraceContext } from '../core/run/run-hooks.js';
import { reporterOf } from './reported-errors.js';
import { StreamFollower } from './follower.js';
import { checkedJobData } from './job-data.js';
import { callbackOptions, DEFAULT_EVENTS, fromWire, keysOf, type JobData, type JobEventsOptions, type JobSession, type QueueRunOptions, type StreamEntry, type WireResult } from './protocol.js';
import { asWireResult, errorResult, isAfter, recordResult, storedResult, streamRecordsOf } from './results.js';

export interface QueueConfig {
  /** Where Redis is (ioredis options: host, port, username, password, tls, …). */
  connection: RedisOptions;
  /** The queue's name: producers and workers of one name share its jobs. */
  name: string;
  /** Connection trouble and unreadable stream entries, as they happen (handles go on; default: not reported). */
  onError?: (error: Error) => void;
  /** Entries of one job's stream a producer keeps for its readers; a reader further behind skips the oldest (default 10,000). */
  feedLimit?: number;
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
  /** The run's result, recorded once (a failed, refused, stalled or lost job resolves too: check `status`). */
  readonly result: Promise<RunResult<unknown, string>>;
  /** Stops the run wherever it runs (its CLI's process group included), or settles it `cancelled` at once when no worker has taken it. */
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
/** How long a result the producer records itself (a cancelled, failed or lost job) stays: as a worker's does by default. */
const RESULT_RETENTION_SECONDS = 24 * 3600;
/** How often a waiting handle's job is looked up in BullMQ (failed there, or gone from Redis). */
const WATCH_INTERVAL_MS = 2_000;
const DEFAULT_FEED_LIMIT = 10_000;
/** States of a job no worker holds: cancel() takes it off the queue. */
const NOT_TAKEN = new Set(['waiting', 'delayed', 'prioritized', 'paused', 'waiting-children']);

/** Options as data: callbacks are refused by name, a library outputSchema becomes its JSON Schema. */
function optionsAsData(options: QueueRunOptions | undefined): Record<string, unknown> {
  const data: Record<string, unknown> = { ...options };
  const issues: string[] = [];
  for (const [name, instead] of Object.entries(callbackOptions)) {
    if (typeof data[name] === 'function' || data[name] instanceof AbortSignal) issues.push(`${name} is a callback and cannot travel to a worker: ${instead}`);
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

/** What no worker could honour in a job's session, refused before anything is queued. */
function sessionIssues(session: JobSession | undefined, options: Record<string, unknown>): string[] {
  if (session?.dir === undefined || typeof session.dir !== 'string') return [];
  const issues: string[] = [];
  if (!isAbsolute(session.dir)) issues.push('session.dir must be an absolute path (every worker resolves it)');
  if (options.isolation !== 'strict') issues.push("session.dir is the CLI's config dir under isolation: 'strict': set that option too");
  return issues;
}

function retryIssues(job: EnqueueOptions): string[] {
  const issues: string[] = [];
  if (job.attempts !== undefined && !(Number.isInteger(job.attempts) && job.attempts > 0)) issues.push('attempts must be a positive integer');
  if (job.backoffMs !== undefined && !(Number.isFinite(job.backoffMs) && job.backoffMs >= 0)) issues.push('backoffMs must be a number of ms, 0 or more');
  return issues;
}

/** The job's data, checked as a worker checks it, so a mistake is found here and not after a round trip. */
function jobDataOf(cli: string, prompt: string, options: QueueRunOptions | undefined, job: EnqueueOptions): JobData {
  const asData = optionsAsData(options);
  const data: Record<string, unknown> = { cli, prompt, options: asData, events: { ...DEFAULT_EVENTS, ...job.events } };
  if (job.session !== undefined) data.session = job.session;
  const trace = currentTraceContext();
  if (trace) data.trace = trace;
  const issues = [...retryIssues(job), ...sessionIssues(job.session, asData)];
  try {
    checkedJobData(data);
  } catch (error) {
    if (!(error instanceof InvalidOptionsError)) throw error;
    issues.unshift(...error.issues);
  }
  if (issues.length) throw new InvalidOptionsError(issues, cli);
  return data as unknown as JobData;
}

/** A job's stream entries as they arrive, handed to any number of readers; the last `limit` are kept. */
class JobFeed {
  private entries: StreamEntry[] = [];
  /** The position (counted from the first entry ever pushed) of entries[0]. */
  private first = 0;
  private wakeups: Array<() => void> = [];
  /** The id of the last stream entry taken: the follower and the watch may both bring the same ones. */
  lastId: string | undefined;
  finished = false;

  constructor(private readonly limit: number) {}

  /** Takes stream records newer than those taken; a result without an id (read from its key) ends the feed too. */
  push(batch: Array<{ id?: string; entry: StreamEntry }>): boolean {
    for (const { id, entry } of batch) {
      if (this.finished) break;
      if (id !== undefined) {
        if (this.lastId !== undefined && !isAfter(id, this.lastId)) continue;
        this.lastId = id;
      }
      this.entries.push(entry);
      if (entry.t === 'result') this.finished = true;
    }
    const over = this.entries.length - this.limit;
    if (over > 0) {
      this.entries.splice(0, over);
      this.first += over;
    }
    for (const wake of this.wakeups.splice(0)) wake();
    return this.finished;
  }

  async *read(): AsyncGenerator<StreamEntry> {
    let next = this.first;
    for (;;) {
      next = Math.max(next, this.first);
      while (next - this.first < this.entries.length) yield this.entries[next++ - this.first]!;
      if (this.finished) return;
      await new Promise<void>((resolve) => this.wakeups.push(resolve));
    }
  }
}

export function createQueue(config: QueueConfig): CoderQueue {
  const connection = { ...config.connection, maxRetriesPerRequest: null };
  const keys = keysOf(config.name);
  const onError = reporterOf(config.onError);
  const bull = new Queue<JobData, WireResult>(config.name, { connection });
  bull.on('error', onError);
  const redis = new Redis(connection);
  const blocking = new Redis(connection);
  redis.on('error', onError);
  blocking.on('error', onError);
  const follower = new StreamFollower(blocking, redis, onError);
  const feeds = new Map<string, JobFeed>();
  let watching: ReturnType<typeof setInterval> | undefined;

  /** Settles a followed job from Redis itself: its recorded result, or one the producer records when BullMQ failed it or lost it. */
  const settleFromRedis = async (id: string, feed: JobFeed): Promise<void> => {
    let result = await storedResult(redis, keys, id);
    if (!result) {
      const state = await bull.getJobState(id);
      if (state === 'failed') {
        const job = await bull.getJob(id);
        const reason = job?.failedReason ?? 'unknown';
        const stalled = /stalled|started more than/.test(reason);
        result = errorResult(job?.data?.cli ?? 'unknown', stalled ? 'stalled' : 'protocol', stalled ? `job ${id}: its worker stopped more often than the stalled limit allows (maxStalledCount): ${reason}` : `job ${id} failed in the queue: ${reason}`);
      } else if (state === 'completed') {
        // Its result key is gone (expired, deleted): BullMQ keeps the processor's return value, the same result.
        const job = await bull.getJob(id);
        result = asWireResult(job?.returnvalue) ?? errorResult(job?.data?.cli ?? 'unknown', 'protocol', `job ${id} completed, but neither its result key nor BullMQ holds a result the queue wrote`);
      } else if (state === 'unknown') {
        result = errorResult('unknown', 'protocol', `job ${id} is no longer in Redis (lost with a restart without persistence, removed, or never there) and has no result`);
      } else {
        return;
      }
      result = await recordResult(redis, keys, id, result, RESULT_RETENTION_SECONDS, onError);
    }
    // The stream's entries the follower has not brought yet come first, so no reader misses an event.
    const unread = await redis.xrange(keys.stream(id), feed.lastId === undefined ? '-' : `(${feed.lastId}`, '+').catch(() => []);
    feed.push(streamRecordsOf(unread, () => {}));
    if (feed.push([{ entry: { t: 'result', result } }])) finish(id, feed);
  };

  const watch = () => {
    for (const [id, feed] of feeds) if (!feed.finished) settleFromRedis(id, feed).catch(onError);
  };

  const finish = (id: string, feed: JobFeed) => {
    if (feeds.get(id) === feed) feeds.delete(id);
    follower.unfollow(keys.stream(id));
    if (feeds.size === 0 && watching) {
      clearInterval(watching);
      watching = undefined;
    }
  };

  const feedOf = (id: string): JobFeed => {
    let feed = feeds.get(id);
    if (!feed) {
      const created = new JobFeed(config.feedLimit ?? DEFAULT_FEED_LIMIT);
      feed = created;
      feeds.set(id, created);
      follower.follow(keys.stream(id), (batch) => {
        const finished = created.push(batch);
        if (finished) finish(id, created);
        return finished;
      });
      watching ??= setInterval(watch, WATCH_INTERVAL_MS);
      watching.unref();
    }
    return feed;
  };

  /** Takes a job no worker holds off the queue and records it cancelled; false when a worker has it (or it ended). */
  const cancelIfNotTaken = async (id: string): Promise<boolean> => {
    const job = await bull.getJob(id);
    if (!job || !NOT_TAKEN.has(await job.getState())) return false;
    try {
      await job.remove();
    } catch {
      return false; // a worker took it meanwhile (its lock stops the removal): the cancel flag reaches it
    }
    const cli = typeof job.data?.cli === 'string' ? job.data.cli : 'unknown';
    await recordResult(redis, keys, id, errorResult(cli, 'aborted', `job ${id} was cancelled before any worker took it`, 'cancelled'), RESULT_RETENTION_SECONDS, onError);
    return true;
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
          for await (const entry of feedOf(id).read()) if (entry.t === 'result') return fromWire(entry.result);
          throw new Error(`job ${id}: its event stream ended without a result`);
        })();
        return result;
      },
      async cancel() {
        await redis.set(keys.cancelled(id), '1', 'EX', CANCEL_TTL_SECONDS);
        const settled = await cancelIfNotTaken(id).catch((error: Error) => {
          onError(error);
          return false;
        });
        if (settled) return;
        await redis.publish(keys.cancelChannel, id);
      },
    };
  };

  return {
    async enqueue(cli, prompt, options, job = {}) {
      const data = jobDataOf(cli, prompt, options, job);
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
      if (watching) clearInterval(watching);
      await follower.close();
      await bull.close();
      redis.disconnect();
    },
  };
}
