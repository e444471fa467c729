// Coders and sessions: a coder holds defaults, the working directory and private state for every
// session it starts; a session runs one turn at a time (later turns queue in order) and remembers
// its id so the next turn resumes it.
import { resolve } from 'node:path';
import { CoderError, FeatureNotSupportedError, InvalidOptionsError } from '../../errors.js';
import type { CoderStreamEvent } from '../../events.js';
import { optionFields, type OutputSchema, type OneShotOptsFor, type ResolvedOpts, type RunOpts, type SharedStartOpts, type StartOptsFor } from '../../options.js';
import type { RunResult, RunStream } from '../../result.js';
import type { AdapterSpec, SessionInfo, SessionTarget, StoreContext } from '../contract/adapter.js';
import { listStoredSessions, readStoredSession } from './session-store.js';
import { EventStream } from '../stream/event-stream.js';
import { assertSupportedPlatform } from '../process/platform.js';
import type { StandardSchemaV1 } from '../../schema/standard-schema.js';
import { LiveSession } from '../live/live.js';
import { execute, type SessionMemory } from '../run/execute.js';
import { TempDir } from '../process/temp.js';
import { checkSupport, parseOptions } from '../run/validate.js';
import { checkSessionId } from '../../schema/ids.js';

/** Runs a job when a slot is free (a pool), or at once. */
export type Limiter = <T>(job: () => Promise<T>) => Promise<T>;
const unlimited: Limiter = (job) => job();

/** The structured output type a run's options ask for. */
export type OutputOf<O> = O extends { outputSchema: infer S } ? (S extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S> : unknown) : unknown;

export class Coder<P extends string = string> {
  readonly adapter: AdapterSpec<P>;
  readonly options: Readonly<SharedStartOpts>;
  /** Fixed when the coder is made: sessions are stored per directory, so resume must run here too. */
  readonly cwd: string;
  private readonly state = new TempDir('coderline-coder-');
  /** Per session id, so a resumed session's usage is still counted per run. */
  private readonly memories = new Map<string, SessionMemory>();

  /** `stateDir`: a dir of the caller's (e.g. shared by queue workers) used instead of a private one, and kept on close. */
  constructor(
    adapter: AdapterSpec<P>,
    options: SharedStartOpts | undefined,
    readonly limiter: Limiter = unlimited,
    private readonly givenStateDir?: string,
  ) {
    assertSupportedPlatform();
    this.adapter = adapter;
    this.options = parseOptions(optionFields.sharedStart, options, `${adapter.name} coder options`);
    this.cwd = resolve(this.options.workingDirectory ?? process.cwd());
    checkSupport(adapter, this.options, { kind: 'new' });
  }

  /** A new session. */
  start(options?: StartOptsFor<P>): Session<P> {
    return new Session(this, this.sessionOptions(options), { kind: 'new' });
  }

  /** Continues the session with this id. */
  resume(sessionId: string, options?: StartOptsFor<P>): Session<P> {
    checkSessionId(sessionId, 'resume()', this.adapter.name);
    return new Session(this, this.sessionOptions(options), { kind: 'resume', sessionId });
  }

  /** Continues the CLI's most recent session in this coder's working directory. */
  resumeLatest(options?: StartOptsFor<P>): Session<P> {
    return new Session(this, this.sessionOptions(options), { kind: 'continue' });
  }

  /**
   * A live session: one CLI process for many turns (`send()`, `interrupt()`, `steer()`, `setModel()` …),
   * where the CLI has a live mode. Run options that are launch flags (outputSchema, maxTurns …) go
   * here, not to `send()`. `resume` opens the live process on an existing session.
   */
  async open(options?: OneShotOptsFor<P>, resume?: { sessionId: string }): Promise<LiveSession<P>> {
    if (resume) checkSessionId(resume.sessionId, 'open(options, { sessionId })', this.adapter.name);
    const target: SessionTarget = resume ? { kind: 'resume', sessionId: resume.sessionId } : { kind: 'new' };
    return LiveSession.open(this.adapter, { cwd: this.cwd, coderStateDir: () => this.stateDir() }, { ...this.options, ...options }, target);
  }

  /**
   * Sessions in the CLI's own store, newest first: those run in this coder's working directory, or
   * every directory's with `allDirectories`. Reads the store the coder's options point the CLI at.
   */
  listSessions(options: { allDirectories?: boolean } = {}): Promise<SessionInfo[]> {
    return listStoredSessions(this.adapter, this.storeContext(), options.allDirectories === true);
  }

  /** A stored session's conversation as events (user prompts are `message` events with role `user`). */
  readSession(sessionId: string): Promise<CoderStreamEvent<P>[]> {
    return readStoredSession(this.adapter, this.storeContext(), sessionId);
  }

  /**
   * Removes the coder's private state (e.g. an isolated config dir): its sessions cannot resume after.
   * A coder never closed has it removed when the host exits.
   */
  async close(): Promise<void> {
    await this.state.remove();
  }

  /** `await using coder = createCoder(…)` closes the coder when the block ends. */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** @internal */
  memoryFor(sessionId: string | undefined, fallback: SessionMemory): SessionMemory {
    if (sessionId === undefined) return fallback;
    let memory = this.memories.get(sessionId);
    if (!memory) {
      memory = { ...fallback };
      this.memories.set(sessionId, memory);
    }
    return memory;
  }

  /** @internal What this coder remembers of a session it has run, if it has. */
  knownSession(sessionId: string): SessionMemory | undefined {
    return this.memories.get(sessionId);
  }

  /** @internal */
  stateDir(): Promise<string> {
    return this.givenStateDir === undefined ? this.state.path() : Promise.resolve(this.givenStateDir);
  }

  private storeContext(): StoreContext {
    return { opts: this.options, cwd: this.cwd, coderStateDir: () => this.stateDir() };
  }

  private sessionOptions(options: SharedStartOpts | undefined): ResolvedOpts {
    const parsed = parseOptions(optionFields.sharedStart, options, `${this.adapter.name} session options`);
    return { ...this.options, ...parsed };
  }
}

export class Session<P extends string = string> {
  private sessionIdValue: string | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  /** Until the session has an id: then the coder keeps it per id. */
  private readonly newSessionMemory: SessionMemory;
  private readonly cwd: string;

  constructor(
    private readonly coder: Coder<P>,
    private readonly options: ResolvedOpts,
    private target: SessionTarget,
    /** A fork starts from its parent's totals: the CLI counts the copied history in the fork's first total. */
    inherited: SessionMemory = {},
  ) {
    this.newSessionMemory = { ...inherited };
    this.cwd = options.workingDirectory === coder.options.workingDirectory ? coder.cwd : resolve(options.workingDirectory ?? coder.cwd);
    if (target.kind === 'resume') this.sessionIdValue = target.sessionId;
    else if (target.kind === 'new' && options.sessionId) this.sessionIdValue = options.sessionId;
  }

  /** The CLI's session id, once known (after the first turn, or at once when given). */
  get id(): string | undefined {
    return this.sessionIdValue;
  }

  /** Runs one turn; resolves with its result (a failed turn resolves too: check `status`). */
  run<O extends RunOpts>(prompt: string, options?: O): Promise<RunResult<OutputOf<O>, P>> {
    try {
      const opts = this.prepare(prompt, options);
      return this.enqueue((sink) => this.turn(prompt, opts, sink), undefined) as Promise<RunResult<OutputOf<O>, P>>;
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** Runs one turn and yields its events as they happen; `.result` gives the RunResult. */
  stream<O extends RunOpts>(prompt: string, options?: O): RunStream<OutputOf<O>, P> {
    const opts = this.prepare(prompt, options);
    const abandon = new AbortController();
    const stream = new EventStream<CoderStreamEvent<P>>(this.coder.adapter.name, () => abandon.abort());
    const signal = opts.signal ? AbortSignal.any([opts.signal, abandon.signal]) : abandon.signal;
    const result = this.enqueue((sink) => this.turn(prompt, { ...opts, signal }, sink), stream);
    result.then(() => stream.end(), (error: unknown) => stream.fail(error));
    // The caller may only iterate; a rejection they never await must not crash the process.
    result.catch(() => undefined);
    return Object.assign(stream, { result }) as unknown as RunStream<OutputOf<O>, P>;
  }

  /** A new session that starts from this one's history (where the CLI can fork). */
  async fork(options?: StartOptsFor<P>): Promise<Session<P>> {
    const { adapter } = this.coder;
    if (!adapter.canFork) {
      throw new FeatureNotSupportedError(adapter.name, 'fork', `${adapter.name} cannot fork a session; start a new one, or resume this one.`);
    }
    await this.queue;
    if (!this.sessionIdValue) throw new CoderError('invalid_options', 'fork() needs a session id: run a turn first', { provider: adapter.name });
    const forkOptions = { ...this.options, ...parseOptions(optionFields.sharedStart, options, `${adapter.name} fork options`) };
    const parentMemory = this.coder.memoryFor(this.sessionIdValue, this.newSessionMemory);
    return new Session(this.coder, forkOptions, { kind: 'fork', sessionId: this.sessionIdValue }, parentMemory);
  }

  private prepare(prompt: string, options: RunOpts | undefined): ResolvedOpts {
    if (typeof prompt !== 'string' || prompt.length === 0) throw new InvalidOptionsError(['the prompt must be a non-empty string']);
    const runOpts = parseOptions(optionFields.run, options, `${this.coder.adapter.name} run options`);
    const opts: ResolvedOpts = { ...this.options, ...runOpts };
    checkSupport(this.coder.adapter, opts, this.target);
    return opts;
  }

  private enqueue<T>(job: (sink: EventStream<CoderStreamEvent<P>> | undefined) => Promise<T>, sink: EventStream<CoderStreamEvent<P>> | undefined): Promise<T> {
    const next = this.queue.then(() => job(sink));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async turn(prompt: string, opts: ResolvedOpts, sink: EventStream<CoderStreamEvent<P>> | undefined): Promise<RunResult<unknown, P>> {
    const target = this.target;
    const result = await this.coder.limiter(() =>
      execute({
        adapter: this.coder.adapter,
        prompt,
        opts,
        session: target,
        cwd: this.cwd,
        coderStateDir: () => this.coder.stateDir(),
        memory: this.coder.memoryFor(target.kind === 'resume' ? target.sessionId : undefined, this.newSessionMemory),
        knownSession: (sessionId) => this.coder.knownSession(sessionId),
        ...(sink ? { sink } : {}),
      }),
    );
    const id = result.sessionId ?? (target.kind === 'resume' ? target.sessionId : undefined);
    if (id && (result.status === 'success' || result.sessionId)) {
      this.coder.memoryFor(id, this.newSessionMemory);
      this.sessionIdValue = id;
      this.target = { kind: 'resume', sessionId: id };
    }
    return result as RunResult<unknown, P>;
  }
}

export type { OutputSchema };
