// The child process of one run: spawned as the leader of its own process group, the prompt written
// to stdin and stdin closed, stdout and stderr read independently (backpressure from a slow stream()
// consumer pauses the pipe that fed it), lines translated as they come, stall and linger watched, and
// the group stopped however the run ends.
import type { Readable } from 'node:stream';
import type { CoderStreamEvent, TranslatedEvent } from '../../events.js';
import type { ResolvedOpts } from '../../options.js';
import type { AdapterSpec, SessionTarget } from '../contract/adapter.js';
import { LineSplitter } from './lines.js';
import type { ProcessEnd } from './outcome.js';
import { ABORT_STEPS, isGroupAlive, STOP_STEPS, terminateGroup, trackGroup, untrackGroup } from '../process/process-group.js';
import { spawnCli, startError } from '../process/spawn.js';
import type { Redactor } from '../secrets/redact.js';
import { StderrTail } from './stderr-tail.js';
import { translateLine } from '../translate/translate-line.js';

export const DEFAULTS = {
  stallTimeoutMs: 300_000,
  terminalGraceMs: 3_000,
  maxLineBytes: 32 * 1024 * 1024,
  stderrTailLines: 40,
} as const;

const STDERR_MAX_LINE_BYTES = 64 * 1024;
/** Bytes a pipe may have waiting for a stream() consumer before it is paused. */
const MAX_HELD_BYTES = 256 * 1024;
/**
 * A stdout of short records (Codex's) is handed to a stream() consumer a whole pipe read at a time.
 * stderr keeps small batches: a flood of its short lines waits in the queue beside stdout's events,
 * and with both large the flooded stream grew again (docs/performance.md, fix 16).
 */
const STDOUT_SHORT_LINE_BATCH_BYTES = 64 * 1024;
/** After the CLI exited, how often pipes still open are looked at. */
const PIPE_LOOK_MS = 1_000;
/** A leftover that keeps writing after the CLI exited is read for this many looks, then given up on. */
const MAX_LOOKS_WHILE_WRITTEN = 10;

/** Where events go besides onEvent; a consumer that pulls (stream()) paces the readers. */
export interface EventSink {
  push(event: CoderStreamEvent<string>): void;
  /** True while the consumer has not taken all it was given: readers keep further lines back. */
  isFull?(): boolean;
  /** Calls `refill` once the consumer has taken everything and asks for more. */
  whenEmpty?(refill: () => void): void;
  /** Called after each pipe read with its size: the events pushed since the last call came from it (while nobody paces the run). */
  received?(bytes: number): void;
}

interface Spawn {
  executable: string;
  args: string[];
  stdin: string;
  env: Record<string, string>;
  cwd: string;
}

/** What reading a child needs of the run: the adapter that translates it, the options, the session it targets. */
export interface ChildRequest {
  adapter: AdapterSpec;
  opts: ResolvedOpts;
  session: SessionTarget;
  sink?: EventSink;
}

interface RunHooks {
  emit(event: TranslatedEvent): void;
  onRawLine: ((line: string) => void) | undefined;
  abortSignal: AbortSignal;
  /** True while the host is answering the CLI (a canUseTool callback): the CLI's silence is no stall. */
  hostBusy?: () => boolean;
  /** The run's secrets: out of the events of a line that holds one, of stderr and of its tail (onRawLine gets the line as printed). */
  redactor?: Redactor | undefined;
}

export async function readChild(
  request: ChildRequest,
  { executable, args, stdin, env, cwd }: Spawn,
  { emit, onRawLine, abortSignal, hostBusy, redactor }: RunHooks,
): Promise<ProcessEnd & { pid: number | undefined }> {
  const { adapter, opts, sink } = request;
  const stallTimeoutMs = opts.stallTimeoutMs ?? DEFAULTS.stallTimeoutMs;
  const terminalGraceMs = opts.terminalGraceMs ?? DEFAULTS.terminalGraceMs;
  const translator = adapter.createTranslator({ opts, session: request.session });
  const stderrTail = new StderrTail(DEFAULTS.stderrTailLines);

  const { child, closed } = spawnCli(executable, args, stdin, { cwd, env });
  const pid = child.pid;
  if (pid !== undefined) trackGroup(pid);

  let stoppedBy: ProcessEnd['stoppedBy'];
  let stopping: Promise<void> | undefined;
  const stop = (reason: NonNullable<ProcessEnd['stoppedBy']>, steps: typeof ABORT_STEPS | typeof STOP_STEPS) => {
    if (stopping || pid === undefined) return;
    stoppedBy = reason;
    stopping = terminateGroup(pid, steps);
  };

  // Stall watch: any output counts as activity; time a stream() consumer takes for lines kept back for
  // it does not count.
  let lastActivity = Date.now();
  let holdingPipes = 0;
  let stallTimer: NodeJS.Timeout | undefined;
  const watchStall = (delay: number) => {
    stallTimer = setTimeout(() => {
      if (hostBusy?.()) lastActivity = Date.now();
      const idle = Date.now() - lastActivity;
      if (holdingPipes > 0) watchStall(stallTimeoutMs);
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
    } else if (event.type === 'compaction' && lingerTimer) {
      // The turn goes on after what looked like its end (the tracker waits for the next final record).
      clearTimeout(lingerTimer);
      lingerTimer = undefined;
    }
  };

  const full = sink?.isFull && (() => sink.isFull!());
  const stdoutLines = new LineSplitter(opts.maxLineBytes ?? DEFAULTS.maxLineBytes, {
    ...(full && { full }),
    line: (line) => {
      onRawLine?.(line);
      const events = translateLine(translator, adapter.name, line);
      // One scan of the line: the events of a line without a secret are not walked.
      if (redactor?.holds(line)) for (const event of events) onEvent(redactor.event(event));
      else for (const event of events) onEvent(event);
    },
    oversized: (bytes) =>
      onEvent({ type: 'error', code: 'protocol', fatal: false, message: `skipped a stdout line of ${bytes} bytes: longer than maxLineBytes (${opts.maxLineBytes ?? DEFAULTS.maxLineBytes})`, raw: null }),
  }, { shortLineBatchBytes: STDOUT_SHORT_LINE_BATCH_BYTES });
  const stderrLines = new LineSplitter(STDERR_MAX_LINE_BYTES, {
    ...(full && { full }),
    line: (printed) => {
      const line = redactor ? redactor.text(printed) : printed;
      onEvent({ type: 'stderr', line, raw: line });
    },
    oversized: (bytes) =>
      onEvent({ type: 'progress', kind: 'warning', subtype: 'stderr_line_skipped', message: `skipped a stderr line of ${bytes} bytes: longer than ${STDERR_MAX_LINE_BYTES}`, raw: null }),
  });

  // Backpressure: lines a stream() consumer has not asked for yet wait as bytes, and their pipe pauses
  // once they pass MAX_HELD_BYTES (so a consumer that keeps up never has the pipe paused and resumed
  // at every read) — each pipe on its own, so a stderr flood is held back too.
  const readPipe = (pipe: Readable, lines: LineSplitter, tail?: StderrTail) => {
    let asked = false;
    const refill = () => {
      lines.resume();
      if (lines.holding) return sink?.whenEmpty?.(refill);
      asked = false;
      holdingPipes -= 1;
      lastActivity = Date.now();
      if (pipe.isPaused()) pipe.resume();
    };
    pipe.on('data', (chunk: Buffer) => {
      lastActivity = Date.now();
      tail?.push(chunk);
      lines.push(chunk);
      sink?.received?.(chunk.length);
      if (!lines.holding || !sink?.whenEmpty) return;
      if (!asked) {
        asked = true;
        holdingPipes += 1;
        sink.whenEmpty(refill);
      }
      if (lines.holdingBytes > MAX_HELD_BYTES) pipe.pause();
    });
    // 'close', not 'end': a pipe given up on below closes without ending.
    pipe.on('close', () => lines.end());
  };
  readPipe(child.stdout, stdoutLines);
  readPipe(child.stderr, stderrLines, stderrTail);

  // Leftovers: a grandchild still holding the pipes after the leader exited is stopped too. One that
  // left the group for a session of its own cannot be found any more (init adopted it): the pipes it
  // holds are given up on, so the run still ends. A pipe is looked at again a second later while it is
  // open because of us (paused for a stream() consumer), and for a while as long as it is still
  // written to. The look waits for the loop's reads first (setImmediate): on a loaded machine the
  // timer can come due before output that was already waiting has been read.
  let looksWhileWritten = 0;
  const lookAtPipesLater = () => setTimeout(() => setImmediate(giveUpOnPipes), PIPE_LOOK_MS).unref();
  const giveUpOnPipes = (): void => {
    const open = [child.stdout, child.stderr].filter((pipe) => !pipe.closed);
    if (open.length === 0) return;
    if (open.some((pipe) => pipe.isPaused())) return void lookAtPipesLater();
    const writtenSinceLastLook = Date.now() - lastActivity < PIPE_LOOK_MS;
    if (writtenSinceLastLook && (looksWhileWritten += 1) <= MAX_LOOKS_WHILE_WRITTEN) return void lookAtPipesLater();
    onEvent({ type: 'progress', kind: 'warning', subtype: 'pipes_held', message: 'a process outside the CLI\'s process group kept its output open after the CLI exited; stopped reading it', raw: null });
    for (const pipe of open) pipe.destroy();
  };
  child.on('exit', () => {
    setTimeout(async () => {
      if (pid !== undefined && !stopping && (await isGroupAlive(pid)) && !stopping) stopping = terminateGroup(pid, STOP_STEPS);
      await stopping;
      lookAtPipesLater();
    }, Math.min(terminalGraceMs, 500)).unref();
  });

  const onAbort = () => stop('abort', ABORT_STEPS);
  if (abortSignal.aborted) onAbort();
  else abortSignal.addEventListener('abort', onAbort, { once: true });

  try {
    const ended = await closed;
    // The version probe started this executable a moment ago; it may still be gone now.
    if (ended.spawnError) throw startError(adapter, executable, ended.spawnError);
    await stopping;
    return {
      pid,
      exitCode: ended.exitCode,
      signal: ended.signal,
      stderrTail: redactor ? redactor.text(stderrTail.toString()) : stderrTail.toString(),
      stoppedBy,
      stallTimeoutMs,
    };
  } finally {
    clearTimeout(stallTimer);
    clearTimeout(lingerTimer);
    abortSignal.removeEventListener('abort', onAbort);
    if (pid !== undefined) {
      if (await isGroupAlive(pid)) await terminateGroup(pid, STOP_STEPS);
      untrackGroup(pid);
    }
  }
}
