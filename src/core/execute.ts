// One run of a CLI: spawn it in its own process group, send the prompt on stdin and close it, read
// stdout and stderr independently, translate, watch for stalls, and stop the group however it ends.
import { resolve } from 'node:path';
import type { Readable } from 'node:stream';
import type { CoderStreamEvent, TranslatedEvent, Usage } from '../events.js';
import type { ResolvedOpts } from '../options.js';
import type { RunResult } from '../result.js';
import type { AdapterSpec, SessionTarget } from './adapter.js';
import { buildEnv } from './env.js';
import { LineSplitter } from './lines.js';
import { decideOutcome, type ProcessEnd } from './outcome.js';
import { toJsonSchema } from './output-schema.js';
import { ABORT_STEPS, isGroupAlive, STOP_STEPS, terminateGroup, trackGroup, untrackGroup } from './process-group.js';
import { RunTracker } from './run-tracker.js';
import { TempDir } from './temp.js';
import { translateLine } from './translate-line.js';
import type { ToolBridge } from './tool-bridge.js';
import { subtractUsage } from './usage.js';
import { checkVersion } from './version.js';

export const DEFAULTS = {
  stallTimeoutMs: 300_000,
  terminalGraceMs: 3_000,
  maxLineBytes: 32 * 1024 * 1024,
  stderrTailLines: 40,
} as const;

/** What a session remembers between its runs. */
export interface SessionMemory {
  /** The last cumulative usage total a CLI reported, to turn the next total into a per-run share. */
  usageTotal?: Usage;
}

/** Where events go besides onEvent; a slow consumer may ask the reader to pause. */
export interface EventSink {
  push(event: CoderStreamEvent<string>): void;
  /** True while the consumer is behind: stdout reading pauses until `whenDrained` resolves. */
  backlogged?(): boolean;
  whenDrained?(): Promise<void>;
}

export interface ExecuteRequest {
  adapter: AdapterSpec;
  prompt: string;
  opts: ResolvedOpts;
  session: SessionTarget;
  cwd: string;
  coderStateDir(): Promise<string>;
  memory: SessionMemory;
  sink?: EventSink;
  clock?: () => number;
}

class StderrTail {
  private lines: string[] = [];
  constructor(private readonly max: number) {}
  add(line: string): void {
    this.lines.push(line.length > 2_000 ? `${line.slice(0, 2_000)}…` : line);
    if (this.lines.length > this.max) this.lines.shift();
  }
  toString(): string {
    return this.lines.join('\n');
  }
}

export async function execute(request: ExecuteRequest): Promise<RunResult<unknown, string>> {
  const { adapter, opts, memory } = request;
  const clock = request.clock ?? Date.now;
  const started = Date.now();
  const cwd = resolve(request.cwd);
  const tracker = new RunTracker(adapter.usageIsCumulative);
  const collected: CoderStreamEvent<string>[] | undefined = opts.collectEvents ? [] : undefined;
  const usageBaseline = memory.usageTotal;
  let lastUsageTotal: Usage | undefined;
  // A throwing user callback stops the run, and its error is what the caller gets.
  let callbackError: unknown;
  const internal = new AbortController();
  const guard = (callback: () => void) => {
    try {
      callback();
    } catch (error) {
      callbackError ??= error;
      internal.abort();
    }
  };

  const emit = (translated: TranslatedEvent): void => {
    // Stamped in place (translators hand their events over, see Translator): a copy per event was
    // measured as the largest cost of a fast stream (docs/performance.md).
    let event = translated as CoderStreamEvent<string>;
    event.provider = adapter.name;
    event.ts = clock();
    if (event.type === 'usage' && adapter.usageIsCumulative) {
      lastUsageTotal = event.usage;
      event = { ...event, usage: subtractUsage(event.usage, usageBaseline) };
    }
    tracker.observe(event);
    collected?.push(event);
    // No closure per event (or per line, below) when there is no callback to guard.
    const { onEvent } = opts;
    if (onEvent) guard(() => onEvent(event as CoderStreamEvent));
    request.sink?.push(event);
  };

  const result = (partial: Pick<RunResult, 'status' | 'error' | 'output' | 'exitCode' | 'signal' | 'pid' | 'cliVersion'>): RunResult<unknown, string> => ({
    provider: adapter.name,
    text: tracker.text,
    sessionId: tracker.sessionId,
    usage: tracker.usage,
    durationMs: Date.now() - started,
    ...partial,
    ...(collected ? { events: collected } : {}),
  });

  const cancelledBeforeStart = (cliVersion: string | undefined) =>
    result({ status: 'cancelled', error: decideOutcome(adapter, opts, tracker, { exitCode: undefined, signal: undefined, stderrTail: '', stoppedBy: 'abort', stallTimeoutMs: 0 }).error, output: undefined, exitCode: undefined, signal: undefined, pid: undefined, cliVersion });

  if (opts.signal?.aborted) return cancelledBeforeStart(undefined);

  const temp = new TempDir('coderline-run-');
  let toolBridge: ToolBridge | undefined;
  try {
    if (opts.tools?.length) {
      // Loaded only for runs with custom tools: the MCP SDK is heavy.
      const { startToolBridge } = await import('./tool-bridge.js');
      toolBridge = await startToolBridge(opts.tools, opts.signal ? AbortSignal.any([internal.signal, opts.signal]) : internal.signal);
    }
    const invocation = await adapter.buildInvocation({
      prompt: request.prompt,
      opts,
      session: request.session,
      cwd,
      writeTempFile: (name, content) => temp.writeFile(name, content),
      coderStateDir: request.coderStateDir,
      outputJsonSchema: opts.outputSchema ? toJsonSchema(opts.outputSchema) : undefined,
      ...(toolBridge ? { toolBridge } : {}),
    });
    const env = buildEnv({ inherited: process.env, adapter: invocation.env, extra: opts.extraEnv, unset: opts.unsetEnv });
    const executable = opts.executablePath ?? adapter.binary;
    const { version, warning } = await checkVersion(adapter, executable, env, cwd);
    if (warning) emit({ type: 'progress', kind: 'warning', subtype: 'version', message: warning, raw: null });
    if (opts.signal?.aborted) return cancelledBeforeStart(version);

    const forwardAbort = () => internal.abort();
    opts.signal?.addEventListener('abort', forwardAbort, { once: true });
    const end = await spawnAndRead(request, { executable, args: invocation.args, stdin: invocation.stdin, env, cwd }, {
      emit,
      onRawLine: opts.onRawLine ? (line) => guard(() => opts.onRawLine!(line)) : undefined,
      abortSignal: internal.signal,
    }).finally(() => opts.signal?.removeEventListener('abort', forwardAbort));
    if (callbackError !== undefined) throw callbackError;
    if (adapter.usageIsCumulative && lastUsageTotal) memory.usageTotal = lastUsageTotal;
    const outcome = decideOutcome(adapter, opts, tracker, end);
    return result({ ...outcome, exitCode: end.exitCode, signal: end.signal, pid: end.pid, cliVersion: version });
  } finally {
    await toolBridge?.close();
    await temp.remove();
  }
}

interface Spawn {
  executable: string;
  args: string[];
  stdin: string;
  env: Record<string, string>;
  cwd: string;
}

interface RunHooks {
  emit(event: TranslatedEvent): void;
  onRawLine: ((line: string) => void) | undefined;
  abortSignal: AbortSignal;
}

async function spawnAndRead(
  request: ExecuteRequest,
  { executable, args, stdin, env, cwd }: Spawn,
  { emit, onRawLine, abortSignal }: RunHooks,
): Promise<ProcessEnd & { pid: number | undefined }> {
  const { adapter, opts, sink } = request;
  const stallTimeoutMs = opts.stallTimeoutMs ?? DEFAULTS.stallTimeoutMs;
  const terminalGraceMs = opts.terminalGraceMs ?? DEFAULTS.terminalGraceMs;
  const translator = adapter.createTranslator({ opts, session: request.session });
  const stderrTail = new StderrTail(DEFAULTS.stderrTailLines);

  // Loaded on first use: importing execa costs more than the rest of the SDK.
  const { execa } = await import('execa');
  const child = execa(executable, args, {
    cwd,
    env,
    extendEnv: false,
    input: stdin,
    stdout: 'pipe',
    stderr: 'pipe',
    buffer: false,
    detached: true,
    reject: false,
    cleanup: false,
    stripFinalNewline: false,
  });
  const pid = child.pid;
  if (pid !== undefined) trackGroup(pid);

  let stoppedBy: ProcessEnd['stoppedBy'];
  let stopping: Promise<void> | undefined;
  const stop = (reason: NonNullable<ProcessEnd['stoppedBy']>, steps: typeof ABORT_STEPS | typeof STOP_STEPS) => {
    if (stopping || pid === undefined) return;
    stoppedBy = reason;
    stopping = terminateGroup(pid, steps);
  };

  // Stall watch: any output counts as activity; time spent paused for a slow consumer does not count.
  let lastActivity = Date.now();
  let pausedPipes = 0;
  let stallTimer: NodeJS.Timeout | undefined;
  const watchStall = (delay: number) => {
    stallTimer = setTimeout(() => {
      const idle = Date.now() - lastActivity;
      if (pausedPipes > 0) watchStall(stallTimeoutMs);
      else if (idle >= stallTimeoutMs) stop('stall', STOP_STEPS);
      else watchStall(stallTimeoutMs - idle);
    }, delay);
  };
  watchStall(stallTimeoutMs);

  let lingerTimer: NodeJS.Timeout | undefined;
  const onEvent = (event: TranslatedEvent) => {
    emit(event);
    if (event.type === 'done' && !lingerTimer) {
      lingerTimer = setTimeout(() => stop('linger', STOP_STEPS), terminalGraceMs);
    }
  };

  const stdoutLines = new LineSplitter(opts.maxLineBytes ?? DEFAULTS.maxLineBytes, {
    line: (line) => {
      onRawLine?.(line);
      for (const event of translateLine(translator, adapter.name, line)) onEvent(event);
    },
    oversized: (bytes) =>
      onEvent({ type: 'error', code: 'protocol', fatal: false, message: `skipped a stdout line of ${bytes} bytes: longer than maxLineBytes (${opts.maxLineBytes ?? DEFAULTS.maxLineBytes})`, raw: null }),
  });
  const stderrLines = new LineSplitter(64 * 1024, {
    line: (line) => {
      stderrTail.add(line);
      onEvent({ type: 'stderr', line, raw: line });
    },
    oversized: (bytes) => stderrTail.add(`[stderr line of ${bytes} bytes skipped]`),
  });

  // Backpressure: when a stream() consumer falls behind, the pipe that fed it pauses until it caught
  // up — each pipe on its own, so a stderr flood is held back as well as a fast stdout.
  const readPipe = (pipe: Readable, lines: LineSplitter) => {
    let paused = false;
    pipe.on('data', (chunk: Buffer) => {
      lastActivity = Date.now();
      lines.push(chunk);
      if (paused || !sink?.backlogged?.() || !sink.whenDrained) return;
      paused = true;
      pausedPipes += 1;
      pipe.pause();
      void sink.whenDrained().then(() => {
        paused = false;
        pausedPipes -= 1;
        lastActivity = Date.now();
        pipe.resume();
      });
    });
    pipe.on('end', () => lines.end());
  };
  readPipe(child.stdout, stdoutLines);
  readPipe(child.stderr, stderrLines);

  // Leftovers: a grandchild still holding the pipes after the leader exited is stopped too.
  child.on('exit', () => {
    if (pid !== undefined && isGroupAlive(pid)) {
      setTimeout(() => {
        if (isGroupAlive(pid) && !stopping) stopping = terminateGroup(pid, STOP_STEPS);
      }, Math.min(terminalGraceMs, 500)).unref();
    }
  });

  const onAbort = () => stop('abort', ABORT_STEPS);
  if (abortSignal.aborted) onAbort();
  else abortSignal.addEventListener('abort', onAbort, { once: true });

  try {
    const ended = await child;
    await stopping;
    return {
      pid,
      exitCode: ended.exitCode,
      signal: ended.signal,
      stderrTail: stderrTail.toString(),
      stoppedBy,
      stallTimeoutMs,
    };
  } finally {
    clearTimeout(stallTimer);
    clearTimeout(lingerTimer);
    abortSignal.removeEventListener('abort', onAbort);
    if (pid !== undefined) {
      if (isGroupAlive(pid)) await terminateGroup(pid, STOP_STEPS);
      untrackGroup(pid);
    }
  }
}
