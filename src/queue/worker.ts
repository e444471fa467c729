// The worker side: BullMQ hands a job over, its data is checked (anyone with access to Redis may have
// written it) and what it asks for is held against what this worker allows; the run goes through the
// same core as run() (its CLI in a process group of its own, watched by the host-death watchdog), its
// events go to the job's Redis stream in order, and its result is recorded once. Nothing a job holds,
// and no refused Redis write, ends the worker: each becomes that job's result or an onError report.
import { mkdir } from 'node:fs/promises';
import { Worker, type Job, type JobJson, type RedisOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { CoderError, InvalidOptionsError } from '../errors.js';
import type { CoderStreamEvent } from '../events.js';
import type { AdapterSpec, CanUseTool, OneShotOpts, Tool } from '../index.js';
import { isJsonObject } from '../schema/json.js';
import type { McpServerConfig } from '../core/tools/mcp-servers.js';
import { runRedactor } from '../core/secrets/redact.js';
import { runOnce, type RunTarget } from '../core/session/run-once.js';
import { resolveAdapter, builtInAdapters } from '../registry.js';
import { withRunOrigin, type RunOrigin } from '../core/run/run-hooks.js';
import { checkedJobData } from './job-data.js';
import { jobLimitsOf, limitIssues, type JobLimits, type JobRetries } from './job-limits.js';
import { refusedOptions, workingDirectoryOf, type JobPolicy, type RefusableOption } from './job-policy.js';
import { keysOf, toWire, type JobData, type JobSession, type WireResult } from './protocol.js';
import { errorResult, recordResult } from './results.js';
import { exponentialDelay, isRetried, retryAfterOf } from './retry.js';
import { reporterOf } from './reported-errors.js';
import { StreamWriter } from './stream-writer.js';

/** Run options a worker gives a job's run: everything but what the worker itself wires (signal, event callbacks). */
export type WorkerRunOptions = Omit<OneShotOpts, 'signal' | 'onEvent' | 'onRawLine'>;

/** A job as the jobOptions hook sees it: checked, held against the allowlist, names resolved. */
export interface CheckedJob {
  readonly id: string;
  readonly cli: string;
  readonly prompt: string;
  readonly options: WorkerRunOptions;
  readonly session: JobSession | undefined;
}

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
  /** External MCP servers jobs may name in their `mcpServers` option (a job cannot bring its own). */
  mcpServers?: Record<string, McpServerConfig>;
  /** Adapters beyond the built-in CLIs, by their name. */
  adapters?: AdapterSpec<string>[];
  /**
   * Options a job may set that are refused by default (they choose what runs, with which environment,
   * or where): `executablePath`, `extraArgs`, `extraEnv`, `unsetEnv`, `inheritEnv`, `codexConfig`,
   * `copilotAdditionalMcpConfig`, `codexDangerouslyBypassApprovalsAndSandbox`, the bypass values of
   * `permissionMode`, `permissionPolicy` (mode), `codexSandbox`, `copilotMode`, `isolation: 'none'`, and paths
   * outside `workspaceRoot` (`workingDirectory`, `addDirs`, `files`, `images`, `codexImages`, `piSessionDir`).
   * Only for producers as trusted as the worker itself (docs/scale.md, trust model).
   */
  allowOptions?: RefusableOption[];
  /** The directory jobs work in (the default working directory) and the only one their paths may point into. */
  workspaceRoot?: string;
  /** The directory a job's `session.dir` must be inside (none: jobs may name no session dir). */
  sessionRoot?: string;
  /** How much of this worker one job may hold (prompt size, timeouts, attempts, attachments, schema size); defaults in docs/scale.md. */
  jobLimits?: Partial<JobLimits>;
  /**
   * The run's options from a job's, after the checks (refusals, names resolved, `inheritEnv: 'minimal'` and
   * the workspace root as defaults): what it returns is run as the worker's own word, unchecked by the allowlist.
   * Throwing refuses the job (an InvalidOptionsError keeps its issues).
   */
  jobOptions?: (job: CheckedJob) => WorkerRunOptions | Promise<WorkerRunOptions>;
  /** What SIGTERM/SIGINT and close() do with running jobs: let them finish (default) or cancel them. */
  onShutdown?: 'finish' | 'cancel';
  /** Stop on SIGTERM and SIGINT as onShutdown says, then let the signal take its course (default true). */
  handleSignals?: boolean;
  /** BullMQ's stalled-job check: how often (default 30 s), and how long a job's lock lasts without renewal (default 30 s). */
  stalledIntervalMs?: number;
  lockDurationMs?: number;
  /** How many times a job may lose its worker (killed, lost) and start again; one more ends it `stalled` (default 1). */
  maxStalledCount?: number;
  /** How long a finished job's event stream and result stay in Redis (default 1 day). */
  retentionSeconds?: number;
  /** Connection trouble and refused Redis writes, as they happen (the worker goes on; default: not reported). */
  onError?: (error: Error) => void;
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

/**
 * BullMQ's worker, reading a job whose hash holds text that is no JSON (written past BullMQ) as one with
 * no data: BullMQ's own parse would throw in its fetch loop, again on every fetch, and stop the worker
 * taking jobs; this way the job reaches the processor, which refuses it like any other bad data.
 */
class TolerantWorker extends Worker<unknown, WireResult> {
  protected override createJob(data: JobJson, jobId: string): Job<unknown, WireResult> {
    try {
      return super.createJob(data, jobId);
    } catch {
      return super.createJob({ ...data, data: 'null', opts: optsAreJson(data.opts) ? data.opts : '{}' } as JobJson, jobId);
    }
  }
}

function optsAreJson(opts: unknown): boolean {
  try {
    JSON.parse(typeof opts === 'string' ? opts : '{}');
    return true;
  } catch {
    return false;
  }
}

const DEFAULT_RETENTION_SECONDS = 24 * 3600;
/** Error events kept for a retry-after: the last few say it. */
const KEPT_ERROR_EVENTS = 20;

export function createWorker(config: WorkerConfig): CoderWorker {
  const connection = { ...config.connection, maxRetriesPerRequest: null };
  const keys = keysOf(config.name);
  const retention = config.retentionSeconds ?? DEFAULT_RETENTION_SECONDS;
  const onError = reporterOf(config.onError);
  const tools = new Map((config.tools ?? []).map((tool) => [tool.name, tool]));
  const policies = new Map(Object.entries(config.permissionPolicies ?? {}));
  const mcpServers = new Map(Object.entries(config.mcpServers ?? {}));
  const adapters = new Map((config.adapters ?? []).map((adapter) => [adapter.name, adapter]));
  const policy: JobPolicy = {
    allowOptions: new Set(config.allowOptions ?? []),
    workspaceRoot: config.workspaceRoot,
    sessionRoot: config.sessionRoot,
  };
  const limits = jobLimitsOf(config.jobLimits);
  const redis = new Redis(connection);
  const subscriber = new Redis(connection);
  redis.on('error', onError);
  subscriber.on('error', onError);
  const running = new Map<string, AbortController>();

  subscriber.on('message', (_channel: string, id: string) => running.get(id)?.abort());
  const subscribed = subscriber.subscribe(keys.cancelChannel);
  // Refused (an ACL without the channel, say): ready() rejects with it; until then it is no unhandled rejection.
  subscribed.catch(() => {});

  const adapterOf = (cli: string): AdapterSpec<string> => {
    const registered = adapters.get(cli);
    if (registered) return registered;
    // A name such as "constructor" is no built-in CLI, whatever an object's prototype holds.
    if (!Object.hasOwn(builtInAdapters, cli)) throw new InvalidOptionsError([`cli: no CLI "${cli}" on this worker; it runs ${[...adapters.keys(), ...Object.keys(builtInAdapters)].join(', ')}`], cli);
    return resolveAdapter(cli);
  };

  /** The run options of a checked job: refusals first, then the names it gives resolved against this worker's registries. */
  const runOptionsOf = async (id: string, data: JobData, retries: JobRetries): Promise<WorkerRunOptions> => {
    const issues = await refusedOptions(data, policy);
    const cwd = workingDirectoryOf(data.options, policy);
    issues.push(...(await limitIssues(data, retries, limits, issues.length === 0 ? (cwd ?? process.cwd()) : undefined)));
    const { tools: toolNames, canUseTool: policyName, mcpServers: serverNames, ...rest } = data.options as { tools?: string[]; canUseTool?: string; mcpServers?: string[] };
    const lookup = <T>(registry: Map<string, T>, what: string, option: string, name: string): T | undefined => {
      const found = registry.get(name);
      if (found === undefined) issues.push(`${option}: no ${what} "${name}" is registered on this worker`);
      return found;
    };
    const resolvedTools = (toolNames ?? []).map((name) => lookup(tools, 'tool', 'tools', name));
    const canUseTool = policyName === undefined ? undefined : lookup(policies, 'policy', 'canUseTool', policyName);
    const servers = (serverNames ?? []).map((name) => [name, lookup(mcpServers, 'MCP server', 'mcpServers', name)] as const);
    if (issues.length > 0) throw new InvalidOptionsError(issues, data.cli);
    const options = {
      inheritEnv: 'minimal',
      ...rest,
      ...(cwd === undefined ? {} : { workingDirectory: cwd }),
      ...(toolNames ? { tools: resolvedTools } : {}),
      ...(canUseTool ? { canUseTool } : {}),
      ...(serverNames ? { mcpServers: Object.fromEntries(servers) } : {}),
    } as WorkerRunOptions;
    return config.jobOptions ? config.jobOptions({ id, cli: data.cli, prompt: data.prompt, options, session: data.session }) : options;
  };

  /** A job that cannot run: refused options and unreadable data are invalid_options, anything else a protocol error. */
  const refusal = (cli: string, error: unknown): WireResult => {
    if (error instanceof CoderError) return errorResult(cli, error.code, error.message, 'error', error.name);
    return errorResult(cli, 'protocol', `the job could not run: ${error instanceof Error ? error.message : String(error)}`);
  };

  const processJob = async (job: Job<unknown>, _token?: string, bullSignal?: AbortSignal): Promise<WireResult> => {
    const id = job.id!;
    const controller = new AbortController();
    running.set(id, controller);
    bullSignal?.addEventListener('abort', () => controller.abort(), { once: true });
    let writer: StreamWriter | undefined;
    try {
      let data: JobData;
      let result: WireResult;
      const errorEvents: CoderStreamEvent<string>[] = [];
      try {
        data = checkedJobData(job.data);
        writer = new StreamWriter(redis, keys.stream(id), { maxLen: data.events.maxLen, maxEntryBytes: limits.streamEntryBytes, provider: data.cli }, onError);
        const events = writer;
        // BullMQ starts a job again when its worker stopped renewing its lock (killed, lost): readers learn
        // that here, as after a retried error, and can drop that attempt's partial text. Starts that ended
        // in neither a result nor a retry are the lost ones; those before the last retry were told then.
        if (lostStarts(job) > (data.lostStarts ?? 0)) {
          events.push({ t: 'event', event: { type: 'progress', kind: 'retry', subtype: 'queue_worker_lost', message: `attempt ${job.attemptsStarted - 1} lost its worker; starting again`, provider: data.cli, ts: Date.now(), raw: { attempt: job.attemptsStarted } } });
        }
        if (await redis.exists(keys.cancelled(id))) controller.abort();
        const adapter = adapterOf(data.cli);
        const options = await runOptionsOf(id, data, retriesOf(job));
        const origin: RunOrigin = { jobId: id, attempt: job.attemptsMade + 1, ...(data.trace ? { trace: data.trace } : {}), ...(data.previousAttempt ? { previousAttempt: data.previousAttempt } : {}) };
        if (data.session?.dir) await sessionDirReady(data.session.dir, data.cli);
        // Raw lines come as the CLI printed them (the run redacts its events, not onRawLine), and the stream is
        // read by anyone with access to Redis: the run's secrets are taken out here, as a recording's are.
        const redactor = data.events.raw ? runRedactor(options, adapter, { ...process.env, ...options.extraEnv }) : undefined;
        const run = await withRunOrigin(origin, () =>
          runOnce(adapter, data.prompt, {
            ...options,
            signal: controller.signal,
            onEvent: (event) => {
              if (event.type === 'error' && errorEvents.push(event) > KEPT_ERROR_EVENTS) errorEvents.shift();
              events.push({ t: 'event', event });
            },
            ...(data.events.raw ? { onRawLine: (line: string) => events.push({ t: 'raw', line: redactor ? redactor.text(line) : line }) } : {}),
          }, { session: sessionTarget(data.session), ...(data.session?.dir ? { stateDir: data.session.dir } : {}) }),
        );
        result = toWire(run);
      } catch (error) {
        return await record(id, refusal(cliNameOf(job.data), error), writer);
      }
      const attempts = job.opts.attempts ?? 1;
      if (result.status === 'error' && isRetried(result.error?.code) && job.attemptsMade + 1 < attempts) {
        const retryAfter = retryAfterOf(result.error?.message, errorEvents);
        const delayMs = retryAfter ?? exponentialDelay(job.opts.backoff && typeof job.opts.backoff === 'object' ? job.opts.backoff.delay ?? 1_000 : 1_000, job.attemptsMade + 1);
        const message = `${result.error?.code}: attempt ${job.attemptsMade + 1} failed; retrying in ${delayMs} ms (${retryAfter === undefined ? 'exponential backoff' : 'retry-after'})`;
        writer!.push({ t: 'event', event: { type: 'progress', kind: 'retry', subtype: 'queue_retry', message, provider: data.cli, ts: Date.now(), raw: { attempt: job.attemptsMade + 1, delayMs, errorCode: result.error?.code } } });
        await writer!.drained();
        await job.updateData({ ...data, previousAttempt: { errorCode: result.error?.code, message: result.error?.message ?? '', delayMs }, lostStarts: lostStarts(job) });
        throw new RetryAttempt(result, delayMs);
      }
      return await record(id, result, writer);
    } finally {
      running.delete(id);
    }
  };

  /** The job's events written, then its result recorded once (the first recorded wins). */
  const record = async (id: string, wire: WireResult, writer: StreamWriter | undefined): Promise<WireResult> => {
    await writer?.drained();
    return recordResult(redis, keys, id, wire, retention, onError);
  };

  const worker = new TolerantWorker(config.name, processJob, {
    connection,
    concurrency: config.concurrency ?? 1,
    ...(config.workerName ? { name: config.workerName } : {}),
    ...(config.stalledIntervalMs ? { stalledInterval: config.stalledIntervalMs } : {}),
    ...(config.lockDurationMs ? { lockDuration: config.lockDurationMs } : {}),
    ...(config.maxStalledCount === undefined ? {} : { maxStalledCount: config.maxStalledCount }),
    settings: {
      backoffStrategy: (_attempts, _type, error) => (error instanceof RetryAttempt ? error.delayMs : 1_000),
    },
  });
  worker.on('error', onError);
  // A job BullMQ failed without a result from the processor (past the stalled limit, or one whose result
  // could not be written): its result is recorded here, so every reader's handle settles.
  worker.on('failed', (job, error) => {
    if (!job?.id || error instanceof RetryAttempt) return;
    const cli = cliNameOf(job.data);
    const stalled = /stalled|started more than/.test(error.message);
    const wire = errorResult(cli, stalled ? 'stalled' : 'protocol', stalled ? `job ${job.id}: its worker stopped more often than the stalled limit allows (maxStalledCount): ${error.message}` : `job ${job.id} failed in the queue: ${error.message}`);
    recordResult(redis, keys, job.id, wire, retention, onError).catch(onError);
  });

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

/** How many of a job's starts so far lost their worker: every start but this one ended in a retry or was lost. */
function lostStarts(job: Job<unknown>): number {
  return job.attemptsStarted - 1 - job.attemptsMade;
}

/** The CLI a job's data names, for its result's provider, whatever the data is. */
function cliNameOf(data: unknown): string {
  const cli: unknown = isJsonObject(data) ? data.cli : undefined;
  return typeof cli === 'string' ? cli : 'unknown';
}

/** The shared session dir, made on first use; one this worker cannot make fails the job as invalid. */
async function sessionDirReady(dir: string, provider: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new CoderError('invalid_options', `session.dir ${dir}: ${(error as Error).message}`, { provider });
  }
}

/** The session a job names: a resume, a fork, else a new one (the ids were checked with the job's data). */
function sessionTarget(session: JobSession | undefined): RunTarget {
  // Present, not truthy: a resume that names no session is refused by the data check, never a new session.
  if (session?.resume !== undefined) return { kind: 'resume', sessionId: session.resume };
  if (session?.fork !== undefined) return { kind: 'fork', sessionId: session.fork };
  return { kind: 'new' };
}

/** A job's retries as BullMQ holds them: a number backoff is its delay, an object one has a delay field. */
function retriesOf(job: Job<unknown>): JobRetries {
  const { backoff } = job.opts;
  const delay: unknown = typeof backoff === 'number' ? backoff : isJsonObject(backoff) ? backoff.delay : undefined;
  return { attempts: job.opts.attempts, backoffMs: typeof delay === 'number' ? delay : undefined };
}
