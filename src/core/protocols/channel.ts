// A duplex JSONL channel to a long-lived CLI: one JSON message per line on stdin and stdout, our
// requests matched to their answers by id, requests from the CLI answered by a handler, per-request
// timeouts, and everything pending failed with a typed error when the process ends. The CLI leads a
// process group of its own (spawn.ts), its stdout is split by the same LineSplitter as a one-shot
// run, and a line that is not JSON is handed on as such, never thrown. How ids and replies are spelled
// is the dialect's business: JSON-RPC 2.0 is core/contract/json-rpc.ts, a CLI's own dialect lives in its adapter.
import { CoderError, LiveSessionClosedError } from '../../errors.js';
import type { AdapterSpec } from '../contract/adapter.js';
import type { MessageId, ReplyOutcome, RpcDialect } from '../contract/dialect.js';
import { LineSplitter } from '../stream/lines.js';
import { ABORT_STEPS, isGroupAlive, STOP_STEPS, terminateGroup, trackGroup, untrackGroup } from '../process/process-group.js';
import { spawnCli, startError, type SpawnOptions } from '../process/spawn.js';
import { StderrTail } from '../stream/stderr-tail.js';

export interface ChannelHandlers {
  /** Every stdout line, before anything else looks at it. */
  rawLine?(line: string): void;
  /** Every line written to stdin (for recordings that keep both directions). */
  sentLine?(line: string): void;
  /** A message that is neither an answer to us nor a request to us. */
  message(message: unknown): void;
  /** A request from the CLI: resolve with the result, throw for an error reply. `signal` fires when it is withdrawn or the channel ends. */
  request(body: unknown, signal: AbortSignal): Promise<unknown>;
  /** A stdout line that is not JSON (`line`), or one longer than the cap (`bytes`). */
  malformed(problem: { line: string } | { bytes: number }): void;
  stderr(line: string): void;
  /** Output arrived (for a stall watch). */
  activity?(): void;
}

export interface ChannelEnd {
  exitCode: number | undefined;
  signal: string | undefined;
  stderrTail: string;
  /** The process could not be started. */
  startError?: CoderError;
}

export interface ChannelOptions extends SpawnOptions {
  cli: Pick<AdapterSpec, 'name' | 'installHint'>;
  executable: string;
  args: string[];
  dialect: RpcDialect;
  maxLineBytes: number;
  /** Takes the session's secrets out of what its errors quote (the CLI's stderr, its refusals). */
  redact?(text: string): string;
}

/** How an ended process is described in errors. */
export function describeEnd(end: ChannelEnd): string {
  if (end.startError) return end.startError.message;
  const how = end.signal ? `the process was killed by ${end.signal}` : `the process exited with code ${end.exitCode}`;
  const tail = end.stderrTail.trim().split('\n').slice(-5).join('\n');
  return tail ? `${how}\n--- stderr (tail) ---\n${tail}` : how;
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  timer: NodeJS.Timeout | undefined;
}

const STDERR_MAX_LINE_BYTES = 64 * 1024;

export class DuplexChannel {
  readonly pid: number | undefined;
  /** Settles once the process has exited and its pipes are closed (never rejects). */
  readonly ended: Promise<ChannelEnd>;
  private readonly child: ReturnType<typeof spawnCli>['child'];
  private readonly pending = new Map<MessageId, Pending>();
  private readonly incoming = new Map<MessageId, AbortController>();
  private nextId = 0;
  private endInfo: ChannelEnd | undefined;
  private stopping: Promise<void> | undefined;

  constructor(private readonly options: ChannelOptions, private readonly handlers: ChannelHandlers) {
    const { child, closed } = spawnCli(options.executable, options.args, undefined, { cwd: options.cwd, env: options.env });
    this.child = child;
    this.pid = child.pid;
    if (this.pid !== undefined) trackGroup(this.pid);
    const tail = new StderrTail(40);

    const stdout = new LineSplitter(options.maxLineBytes, {
      line: (line) => this.onLine(line),
      oversized: (bytes) => handlers.malformed({ bytes }),
    });
    const stderr = new LineSplitter(STDERR_MAX_LINE_BYTES, { line: (line) => handlers.stderr(line), oversized: () => {} });
    child.stdout.on('data', (chunk: Buffer) => {
      handlers.activity?.();
      stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      handlers.activity?.();
      tail.push(chunk);
      stderr.push(chunk);
    });
    child.stdout.on('close', () => stdout.end());
    child.stderr.on('close', () => stderr.end());
    // Leftovers holding the pipes after the CLI exited are stopped with it.
    child.on('exit', () => {
      const pid = this.pid;
      if (pid !== undefined) this.stopping ??= isGroupAlive(pid).then((alive) => (alive ? terminateGroup(pid, STOP_STEPS) : undefined));
    });

    this.ended = closed.then(async (exit) => {
      await this.stopping;
      if (this.pid !== undefined) untrackGroup(this.pid);
      const end: ChannelEnd = { exitCode: exit.exitCode, signal: exit.signal, stderrTail: options.redact?.(tail.toString()) ?? tail.toString() };
      if (exit.spawnError) end.startError = startError(options.cli, options.executable, exit.spawnError);
      this.endInfo = end;
      this.failEverything(end);
      return end;
    });
  }

  /** False once stdin is closed or the process has ended. */
  get isOpen(): boolean {
    return this.endInfo === undefined && this.child.stdin.writable;
  }

  /** Writes one message as a line. Throws LiveSessionClosedError when the channel is closed. */
  write(message: unknown): void {
    if (!this.isOpen) throw this.closedError();
    const line = JSON.stringify(message);
    this.handlers.sentLine?.(line);
    this.child.stdin.write(`${line}\n`);
  }

  /** Tells the CLI something that expects no answer. Throws LiveSessionClosedError when the channel is closed. */
  notify(body: unknown): void {
    this.write(this.options.dialect.notification?.(body) ?? body);
  }

  /**
   * Asks the CLI and waits for its answer; an error answer rejects with a `protocol` CoderError.
   * Without `timeoutMs` it waits until the answer comes or the process ends.
   */
  request(body: unknown, { timeoutMs, what }: { timeoutMs?: number; what: string }): Promise<unknown> {
    const id = `coderline-${(this.nextId += 1)}`;
    return new Promise((resolve, reject) => {
      const entry: Pending = { resolve, reject, timer: undefined };
      if (timeoutMs !== undefined) {
        entry.timer = setTimeout(() => {
          this.pending.delete(id);
          reject(new CoderError('protocol', `${this.options.cli.name} did not answer ${what} within ${timeoutMs} ms`, { provider: this.options.cli.name }));
        }, timeoutMs);
      }
      this.pending.set(id, entry);
      try {
        this.write(this.options.dialect.request(id, body));
      } catch (error) {
        clearTimeout(entry.timer);
        this.pending.delete(id);
        reject(error);
      }
    });
  }

  /** Closes stdin, waits up to `graceMs` for the CLI to exit on its own, then stops its process group. */
  async close(graceMs: number): Promise<ChannelEnd> {
    if (!this.child.stdin.writableEnded) this.child.stdin.end();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
    const first = await Promise.race([this.ended, late]);
    clearTimeout(timer);
    if (first === 'late') this.kill(STOP_STEPS);
    return this.ended;
  }

  /** Stops the whole process group now. */
  kill(steps: typeof ABORT_STEPS | typeof STOP_STEPS = ABORT_STEPS): Promise<ChannelEnd> {
    if (this.pid !== undefined && this.endInfo === undefined) this.stopping ??= terminateGroup(this.pid, steps);
    return this.ended;
  }

  private closedError(): LiveSessionClosedError {
    return new LiveSessionClosedError(this.options.cli.name, this.endInfo ? describeEnd(this.endInfo) : 'its input was closed');
  }

  private onLine(line: string): void {
    this.handlers.rawLine?.(line);
    if (line.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.handlers.malformed({ line });
      return;
    }
    const { dialect } = this.options;
    const answer = dialect.response(message);
    const waiting = answer && this.pending.get(answer.id);
    if (answer && waiting) {
      this.pending.delete(answer.id);
      clearTimeout(waiting.timer);
      if (answer.ok) waiting.resolve(answer.result);
      else waiting.reject(new CoderError('protocol', `${this.options.cli.name} refused a request: ${this.options.redact?.(String(answer.error)) ?? answer.error}`, { provider: this.options.cli.name }));
      return;
    }
    const asked = dialect.incoming(message);
    if (asked) {
      this.answer(asked.id, asked.body);
      return;
    }
    const withdrawn = dialect.cancelled?.(message);
    if (withdrawn !== undefined) {
      this.incoming.get(withdrawn)?.abort();
      return;
    }
    this.handlers.message(message);
  }

  private answer(id: MessageId, body: unknown): void {
    const controller = new AbortController();
    this.incoming.set(id, controller);
    const send = (outcome: ReplyOutcome) => {
      this.incoming.delete(id);
      if (this.isOpen) this.write(this.options.dialect.reply(id, outcome));
    };
    // A handler that throws is an error reply, never a crash.
    Promise.resolve()
      .then(() => this.handlers.request(body, controller.signal))
      .then((result) => send({ ok: true, result }), (error: unknown) => send({ ok: false, error: error instanceof Error ? error.message : String(error) }));
  }

  private failEverything(end: ChannelEnd): void {
    const error = new LiveSessionClosedError(this.options.cli.name, describeEnd(end));
    for (const [id, entry] of this.pending) {
      clearTimeout(entry.timer);
      this.pending.delete(id);
      entry.reject(error);
    }
    for (const controller of this.incoming.values()) controller.abort();
    this.incoming.clear();
  }
}
