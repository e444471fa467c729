// A live session: one CLI process serving many turns over a DuplexChannel. Turns queue in order;
// each has its own translator, events and RunResult, like a one-shot run. A turn can be interrupted
// (the session goes on), a message pushed into it (steer); the model and permission mode can change
// between turns. The CLI dying fails the running turn with a typed error and closes the session.
import { resolve } from 'node:path';
import { CliVersionError, CoderError, FeatureNotInVersionError, FeatureNotSupportedError, InvalidOptionsError, LiveSessionClosedError } from '../../errors.js';
import type { CoderStreamEvent, TranslatedEvent } from '../../events.js';
import { optionFields, requestedFeatures, type OneShotOpts, type ResolvedOpts, type RunOpts } from '../../options.js';
import type { RunResult, RunStream } from '../../result.js';
import type { AdapterSpec, LiveConnection, LiveFeature, LiveSpec, SessionTarget, Translator } from '../contract/adapter.js';
import { DuplexChannel, describeEnd, type ChannelEnd } from '../protocols/channel.js';
import { DEFAULTS } from '../stream/child-run.js';
import { EventStream } from '../stream/event-stream.js';
import { decideOutcome, type ProcessEnd } from '../stream/outcome.js';
import { askPermission, DEFAULT_PERMISSION_TIMEOUT_MS, type CanUseTool, type PermissionDecision } from '../../permission.js';
import { askUserInput, DEFAULT_USER_INPUT_TIMEOUT_MS, type UserInputReply, type UserInputRequest } from '../../user-input.js';
import type { PermissionModeName } from '../options/permission-mode.js';
import { STOP_STEPS, terminateEscapedDescendants } from '../process/process-group.js';
import { RunTracker } from '../stream/run-tracker.js';
import { TempDir } from '../process/temp.js';
import type { ToolBridge } from '../tools/tool-bridge.js';
import { bridgeGate, type BridgeGate } from '../tools/bridge-gate.js';
import { serversToFront } from '../tools/mcp-servers.js';
import { nonJsonLine, translateRecord } from '../translate/translate-line.js';
import { checkSupport, parseOptions } from '../run/validate.js';
import { compareVersions } from '../versions/version.js';
import { checkWorkingDirectory, prepareLaunch } from '../run/launch.js';
import { readAttachments, type Attachments } from '../options/attachments.js';
import type { RecordedLine } from '../contract/recorded-line.js';
import { deltaRedaction, redactedAlways, runRedactor, type Redactor } from '../secrets/redact.js';

/** How the live process ended, as `live.on('exit')` reports it. */
export interface LiveExit {
  /** The exit code, when the process exited. */
  code: number | undefined;
  /** The signal that killed it, when one did. */
  signal: string | undefined;
  /** Why the session is over when close() did not end it (the CLI exited or was killed): what a later send() rejects with. */
  error?: LiveSessionClosedError;
}

/** The lifecycle notices of a live session: `idle` when its last queued turn has ended, `exit` when its process has. */
export interface LiveNotices {
  idle: undefined;
  exit: LiveExit;
}

/** How long the CLI has to acknowledge a control request (interrupt, model change …). */
const CONTROL_TIMEOUT_MS = 30_000;

/** Where a live session gets what lives as long as it: its coder's state and working directory. */
export interface LiveHost {
  cwd: string;
  coderStateDir(): Promise<string>;
  /** Sees every line both ways (live recordings, replay/live-recording.ts). */
  recordLine?(line: RecordedLine): void;
}

interface Turn {
  opts: ResolvedOpts;
  translator: Translator;
  tracker: RunTracker;
  emit(event: TranslatedEvent): void;
  stoppedBy: ProcessEnd['stoppedBy'];
  /** A throwing onEvent / onRawLine: the turn is interrupted and its result rejects with it. */
  callbackError?: { error: unknown };
  /** Permission questions waiting for canUseTool: no stall meanwhile. */
  asking: number;
  /** Messages pushed with steer() that have not started to run yet, by id, with their text. */
  waitingSteers: Map<string, string>;
  /** Aborted when the turn is over: a question still open then is moot (pi never withdraws one). */
  over: AbortController;
  lastActivity: number;
  finish(end: ChannelEnd | undefined): void;
}

/** True once the turn is over, false if it is not within `ms`. */
function endsWithin(turn: Turn, ms: number): Promise<boolean> {
  if (turn.over.signal.aborted) return Promise.resolve(true);
  return new Promise((done) => {
    const timer = setTimeout(() => done(false), ms);
    turn.over.signal.addEventListener('abort', () => (clearTimeout(timer), done(true)), { once: true });
  });
}

function liveSpecOf(adapter: AdapterSpec): LiveSpec {
  if (!adapter.live) throw new FeatureNotSupportedError(adapter.name, 'open', `${adapter.name} has no live mode in this SDK; use start() for one process per turn.`);
  return adapter.live;
}

/** Attachments go with one turn: a live session takes them per send(). */
function refuseSessionAttachments(adapter: AdapterSpec, opts: ResolvedOpts): void {
  const given = (['images', 'files'] as const).filter((key) => opts[key]?.length);
  if (given.length > 0) throw new InvalidOptionsError(given.map((key) => `${key} attach to one turn of a live session: pass them to send(), not open()`), adapter.name);
}

function checkLiveSupport(adapter: AdapterSpec, spec: LiveSpec, opts: ResolvedOpts): void {
  const missing = requestedFeatures(opts).find((feature) => spec.notLive?.includes(feature));
  if (!missing) return;
  // An option the CLI honours nowhere says why (its hint); one it honours in one-shot runs points there.
  const hint = adapter.capabilities[missing] ? `${adapter.name} honours ${missing} in one-shot runs only: use start() or run() for it.` : adapter.insteadHints?.[missing];
  throw new FeatureNotSupportedError(adapter.name, missing, hint ?? `${adapter.name} cannot take ${missing}; adapters.md lists which CLIs support it.`);
}

/** A refused handshake that says the session is not in the CLI's store is that, whatever the protocol's own error kind. */
function missingSession(error: unknown, pattern: RegExp | undefined, provider: string, sessionId: string): unknown {
  if (!(error instanceof CoderError) || !pattern?.test(error.message)) return error;
  return new CoderError('session_not_found', `${provider} has no session "${sessionId}" in its store: ${error.message}`, { provider, cause: error });
}

export class LiveSession<P extends string = string> {
  private turn: Turn | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private closing: Promise<void> | undefined;
  private end: ChannelEnd | undefined;
  private sessionId: string | undefined;
  /** The protocol's own session state, when its live mode has a handshake (LiveSpec.connect). */
  private connection: LiveConnection | undefined;
  /** Records outside any turn (e.g. the echo of a model change) are translated here. */
  private readonly idleTranslator: Translator;
  /** The live protocol's own translator, kept across turns (LiveSpec.createSessionTranslator). */
  private readonly sessionTranslator: Translator | undefined;
  /** The stdout line being handled holds a secret: its events are redacted. */
  private lineHoldsSecret = false;
  /** Turns sent and not yet started (`queued`), and whether one runs: `busy` is either. */
  private waitingTurns = 0;
  private turnRunning = false;
  private readonly listeners: { [K in keyof LiveNotices]: Set<(notice: LiveNotices[K]) => void> } = { idle: new Set(), exit: new Set() };
  private exit: LiveExit | undefined;
  /** Questions waiting for onUserInput: the CLI waits for the host meanwhile, not a stall. */
  private answering = 0;

  private constructor(
    readonly adapter: AdapterSpec<P>,
    private readonly spec: LiveSpec,
    private readonly opts: ResolvedOpts,
    private readonly channel: DuplexChannel,
    readonly cliVersion: string | undefined,
    private readonly cwd: string,
    private readonly cleanup: () => Promise<void>,
    private readonly redactor: Redactor | undefined,
    /** The tool bridge's gate, which sees the CLI's records to tell the calls that came through it. */
    private readonly gate: BridgeGate | undefined,
  ) {
    this.sessionTranslator = spec.createSessionTranslator?.({ opts });
    // An instance of its own: records between turns must not change what the turns' translator has seen.
    this.idleTranslator = spec.createSessionTranslator?.({ opts }) ?? this.newTranslator(opts);
    void channel.ended.then((end) => {
      this.end = end;
      this.turn?.finish(end);
      // A death between turns is told now, not at the next send().
      this.exit = {
        code: end.exitCode,
        signal: end.signal,
        ...(this.closing ? {} : { error: new LiveSessionClosedError(adapter.name, describeEnd(end)) }),
      };
      this.notify('exit', this.exit);
    });
  }

  /** Starts the CLI in its live mode. Everything is checked before it spawns. */
  static async open<P extends string>(adapter: AdapterSpec<P>, host: LiveHost, options: OneShotOpts | undefined, target: SessionTarget): Promise<LiveSession<P>> {
    const opts = parseOptions(optionFields.oneShot, options, `${adapter.name} live session options`);
    refuseSessionAttachments(adapter, opts);
    checkSupport(adapter, opts, target);
    const spec = liveSpecOf(adapter);
    checkLiveSupport(adapter, spec, opts);
    const cwd = resolve(opts.workingDirectory ?? host.cwd);
    checkWorkingDirectory(adapter, cwd);
    const temp = new TempDir('coderline-live-');
    const closing = new AbortController();
    let session: LiveSession<P> | undefined;
    let toolBridge: ToolBridge | undefined;
    let gate: BridgeGate | undefined;
    const cleanup = async () => {
      closing.abort();
      // The CLI is gone: calls still waiting for its record are reported now, while onEvent is there.
      gate?.end();
      await toolBridge?.close();
      await temp.remove();
    };
    try {
      const mcpServers = serversToFront(opts, cwd);
      if (opts.tools?.length || mcpServers) {
        const { startToolBridge } = await import('../tools/tool-bridge.js');
        // The session does not exist yet: the gate reaches it (and the running turn's canUseTool) when a call comes.
        gate = bridgeGate(opts, (event) => session?.deliver([event]), () => session?.canUseTool());
        toolBridge = await startToolBridge({
          tools: opts.tools ?? [],
          runSignal: closing.signal,
          ...(mcpServers ? { mcpServers } : {}),
          gate,
          ...(opts.onUserInput
            ? { userInput: { ask: (request, signal, raw) => session?.askUser(request, signal, raw) ?? Promise.resolve({ noAnswer: 'the session was not open yet' }), emit: (event) => session?.deliver([event]) } }
            : {}),
        });
      }
      const { invocation, env, executable, version } = await prepareLaunch({
        adapter,
        build: (ctx) => spec.buildInvocation(ctx),
        prompt: '',
        opts,
        session: target,
        cwd,
        temp,
        coderStateDir: host.coderStateDir,
        toolBridge,
      });
      if (version !== undefined && compareVersions(version, spec.minVersion) < 0) {
        throw new CliVersionError(adapter.name, version, `${spec.minVersion} and newer`, 'is older than the oldest version whose live mode is supported');
      }
      // The session's secrets stay out of its events, its errors and a recording of it; onRawLine gets every line as printed.
      const redactor = runRedactor(opts, adapter, env, toolBridge?.secret);
      const redact = (text: string) => (redactor ? redactor.text(text) : text);
      const channel = new DuplexChannel(
        { cli: adapter, executable, args: invocation.args, cwd, env, dialect: spec.dialect, maxLineBytes: opts.maxLineBytes ?? DEFAULTS.maxLineBytes, ...(redactor && { redact }) },
        {
          rawLine: (line) => {
            host.recordLine?.({ dir: 'cli', line: redact(line) });
            session?.onRawLine(line);
          },
          ...(host.recordLine ? { sentLine: (line: string) => host.recordLine?.({ dir: 'host', line: redact(line) }) } : {}),
          message: (message) => session?.onMessage(message),
          request: (body, signal) => session!.onRequest(body, signal),
          malformed: (problem) => session?.deliver('line' in problem ? [nonJsonLine(problem.line)] : [{ type: 'error', code: 'protocol', fatal: false, message: `skipped a stdout line of ${problem.bytes} bytes: longer than maxLineBytes`, raw: null }]),
          stderr: (printed) => {
            const line = redact(printed);
            session?.deliver([{ type: 'stderr', line, raw: line }]);
          },
          activity: () => {
            if (session?.turn) session.turn.lastActivity = Date.now();
          },
        },
      );
      session = new LiveSession(adapter, spec, opts, channel, version, cwd, cleanup, redactor, gate);
      // No pid: the process could not be started (the version probe ran it a moment ago).
      if (channel.pid === undefined) throw (await channel.ended).startError ?? new LiveSessionClosedError(adapter.name, 'the process could not be started');
      if (spec.connect) await session.connect(spec.connect, target, cwd);
      if (spec.sessionIdRequest) await session.askSessionId(spec.sessionIdRequest);
      return session;
    } catch (error) {
      await session?.channel.kill();
      await cleanup();
      throw error;
    }
  }

  private async connect(connect: NonNullable<LiveSpec['connect']>, session: SessionTarget, cwd: string): Promise<void> {
    const rpc = {
      request: (body: unknown, what: string, options?: { untimed?: boolean }) => this.channel.request(body, options?.untimed ? { what } : { timeoutMs: CONTROL_TIMEOUT_MS, what }),
      notify: (body: unknown) => this.channel.notify(body),
    };
    try {
      this.connection = await connect(rpc, { opts: this.opts, session, cwd });
    } catch (error) {
      throw session.kind === 'resume' ? missingSession(error, this.spec.sessionNotFound, this.adapter.name, session.sessionId) : error;
    }
    this.sessionId = this.connection.sessionId;
  }

  private async askSessionId({ body, idOf }: NonNullable<LiveSpec['sessionIdRequest']>): Promise<void> {
    this.sessionId = idOf(await this.channel.request(body, { timeoutMs: CONTROL_TIMEOUT_MS, what: 'the session id' }));
  }

  /** The CLI's session id, once a turn has named it. */
  get id(): string | undefined {
    return this.sessionId;
  }

  /** The pid of the CLI, which leads its own process group. */
  get pid(): number | undefined {
    return this.channel.pid;
  }

  /** False once the process has ended or close() was called. */
  get isOpen(): boolean {
    return this.closing === undefined && this.end === undefined;
  }

  /** True while a turn runs or waits in the queue. */
  get busy(): boolean {
    return this.turnRunning || this.waitingTurns > 0;
  }

  /** How many sent turns wait behind the running one. */
  get queued(): number {
    return this.waitingTurns;
  }

  /**
   * Listens for a lifecycle notice: `idle` when the last queued turn has ended (the session waits for
   * a send()), `exit` once the process has ended, however (told at once, also between turns; a
   * listener added after that is called right away). Returns a function that removes the listener.
   */
  on<K extends keyof LiveNotices>(notice: K, listener: (info: LiveNotices[K]) => void): () => void {
    if (typeof listener !== 'function') throw new InvalidOptionsError([`live.on('${String(notice)}') needs a listener function`]);
    const listeners = Object.hasOwn(this.listeners, notice) ? (this.listeners[notice] as Set<(info: LiveNotices[K]) => void>) : undefined;
    if (!listeners) throw new InvalidOptionsError([`live.on() takes 'idle' or 'exit', not ${JSON.stringify(notice)}`]);
    listeners.add(listener);
    const exit = this.exit;
    if (notice === 'exit' && exit) queueMicrotask(() => listeners.has(listener) && this.call(listener, exit as LiveNotices[K]));
    return () => void listeners.delete(listener);
  }

  /** Sends a turn (queued behind any running one); its events stream as it runs, `.result` settles at its end. */
  send(prompt: string, options?: RunOpts): RunStream<unknown, P> {
    const opts = this.prepare(prompt, options);
    const abandon = new AbortController();
    const stream = new EventStream<CoderStreamEvent<P>>(this.adapter.name, () => abandon.abort());
    this.waitingTurns += 1;
    const next = this.queue.then(async () => {
      this.waitingTurns -= 1;
      this.turnRunning = true;
      try {
        return await this.runTurn(prompt, opts, stream, abandon.signal);
      } finally {
        this.turnRunning = false;
        // A turn sent meanwhile still counts as waiting here: idle only when nothing follows.
        if (this.waitingTurns === 0 && this.isOpen) this.notify('idle', undefined);
      }
    });
    this.queue = next.catch(() => undefined);
    next.then(() => stream.end(), (error: unknown) => stream.fail(error));
    return Object.assign(stream, { result: next }) as unknown as RunStream<unknown, P>;
  }

  /**
   * Pushes a message into the running turn. Resolves true once the CLI took it (the turn's stream
   * gets a `user_message` event where the CLI let it in), false when it was not taken: no turn was
   * running (nothing is sent), or the CLI refused it because the turn had just ended — send it as
   * the next turn then. Throws at once where the CLI has no steer or the prompt is empty.
   */
  steer(prompt: string): Promise<boolean> {
    this.need('steer');
    if (typeof prompt !== 'string' || prompt.length === 0) throw new InvalidOptionsError(['the prompt must be a non-empty string']);
    const turn = this.turn;
    if (!turn || !this.isOpen) return Promise.resolve(false);
    if (this.connection?.steer) return this.steered(this.connection.steer(prompt), turn, prompt);
    // The global Web Crypto: node:crypto would load with the package (core/translate/sha256.ts says what that costs).
    const id = crypto.randomUUID();
    const message = this.spec.userMessage!(prompt, id, this.sessionId);
    // A CLI that says when a pushed message runs keeps the turn open for it, and that is where the event goes.
    if (this.spec.steerStarted) turn.waitingSteers.set(id, prompt);
    if (this.spec.userMessageIsRequest) return this.steered(this.channel.request(message, { timeoutMs: CONTROL_TIMEOUT_MS, what: 'the pushed message' }), turn, prompt);
    this.channel.write(message);
    if (!this.spec.steerStarted && !this.spec.echoesSteer) turn.emit({ type: 'user_message', text: prompt, raw: message });
    return Promise.resolve(true);
  }

  /** Ends the running turn (`status: 'cancelled'`); the session goes on. No turn running: nothing happens. */
  async interrupt(): Promise<void> {
    this.need('interrupt');
    const turn = this.turn;
    if (!turn) return;
    turn.stoppedBy ??= 'abort';
    try {
      if (this.connection) await this.connection.interrupt();
      else await this.channel.request(this.spec.interruptRequest, { timeoutMs: CONTROL_TIMEOUT_MS, what: 'the interrupt' });
    } catch {
      // A CLI that cannot be interrupted is stopped: the turn still ends, as cancelled.
      if (this.turn === turn) await this.channel.kill();
      return;
    }
    // Nor may one that took the interrupt but never ends the turn hold it: the stall watch is off
    // for an interrupted turn, so this wait is all there is.
    const graceMs = Math.min(CONTROL_TIMEOUT_MS, turn.opts.stallTimeoutMs ?? DEFAULTS.stallTimeoutMs);
    if (!(await endsWithin(turn, graceMs)) && this.turn === turn) await this.channel.kill();
  }

  /** Changes the model for the next turns. */
  async setModel(model: string): Promise<void> {
    this.need('setModel');
    if (typeof model !== 'string' || model === '') throw new InvalidOptionsError(['setModel() needs a model id']);
    if (!this.connection?.setModel) return this.control(this.spec.setModelRequest!(model, this.opts, this.sessionId), 'the model change');
    if (!this.isOpen) throw this.closedError();
    await this.connection.setModel(model);
  }

  /**
   * Changes the permission mode: Claude's from the next tool use on; where the CLI would apply it
   * inside a running turn, from the next turn on (it waits for the turns sent before it).
   */
  async setPermissionMode(mode: PermissionModeName): Promise<void> {
    this.need('setPermissionMode');
    if (!this.isOpen) throw this.closedError();
    if (this.connection?.setPermissionMode) return this.connection.setPermissionMode(mode);
    // Mapped (and refused) before anything is sent or queued.
    const requests = this.spec.setPermissionModeRequests!(mode, this.opts, this.sessionId);
    const apply = async () => {
      for (const body of requests) await this.control(body, 'the permission mode change');
    };
    if (!this.spec.permissionModeBetweenTurns) return apply();
    const applied = this.queue.then(apply);
    this.queue = applied.catch(() => undefined);
    return applied;
  }

  /** Interrupts a running turn, fails queued ones, closes stdin, then stops the process group. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const interruptible = this.connection !== undefined || this.spec.interruptRequest !== undefined;
      if (this.turn && interruptible && this.channel.isOpen) await this.interrupt().catch(() => undefined);
      await this.channel.close(this.opts.terminalGraceMs ?? DEFAULTS.terminalGraceMs);
      await this.cleanup();
    })();
    return this.closing;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  /** The outcome of a pushed message the CLI answers: taken, or refused (an error event while the turn still runs). */
  private async steered(answer: Promise<unknown>, turn: Turn, prompt: string): Promise<boolean> {
    try {
      await answer;
    } catch (error) {
      if (this.turn === turn && !(error instanceof LiveSessionClosedError)) {
        turn.emit({ type: 'error', code: 'protocol', fatal: false, message: `the pushed message was not taken: ${error instanceof Error ? error.message : String(error)}`, raw: null });
      }
      return false;
    }
    // Where the CLI's own records show the message, the translator gives its event; else it is placed here.
    if (this.turn === turn && !this.spec.echoesSteer) turn.emit({ type: 'user_message', text: prompt, raw: null });
    return true;
  }

  private notify<K extends keyof LiveNotices>(notice: K, info: LiveNotices[K]): void {
    for (const listener of [...this.listeners[notice]]) this.call(listener as (info: LiveNotices[K]) => void, info);
  }

  /** A throwing listener must not take the session down. */
  private call<T>(listener: (info: T) => void, info: T): void {
    try {
      listener(info);
    } catch {
      // Nothing to fail: a notice belongs to no turn.
    }
  }

  private newTranslator(opts: ResolvedOpts): Translator {
    return (this.spec.createTranslator ?? this.adapter.createTranslator)({ opts });
  }

  private need(feature: LiveFeature): void {
    const support = this.spec.capabilities[feature];
    if (!support) throw new FeatureNotSupportedError(this.adapter.name, feature, `${this.adapter.name}'s live protocol has no ${feature}; adapters.md lists what each CLI's live mode can do.`);
    // A control older versions lack (or misframe) fails before anything is written.
    if (support.since !== undefined && this.cliVersion !== undefined && compareVersions(this.cliVersion, support.since) < 0) {
      throw new FeatureNotInVersionError(this.adapter.name, feature, this.cliVersion, support.since);
    }
  }

  private async control(body: unknown, what: string): Promise<void> {
    if (!this.isOpen) throw this.closedError();
    await this.channel.request(body, { timeoutMs: CONTROL_TIMEOUT_MS, what });
  }

  private closedError(): LiveSessionClosedError {
    return new LiveSessionClosedError(this.adapter.name, this.closing || !this.end ? 'close() was called' : describeEnd(this.end));
  }

  private prepare(prompt: string, options: RunOpts | undefined): ResolvedOpts {
    if (typeof prompt !== 'string' || prompt.length === 0) throw new InvalidOptionsError(['the prompt must be a non-empty string']);
    const runOpts = parseOptions(optionFields.run, options, `${this.adapter.name} send options`);
    checkLiveSupport(this.adapter, this.spec, runOpts);
    const fixed = requestedFeatures(runOpts).filter((feature) => this.spec.launchOnly.includes(feature));
    if (fixed.length > 0) {
      throw new InvalidOptionsError(fixed.map((key) => `${key} is a launch option of a ${this.adapter.name} live session: pass it to open(), not send()`), this.adapter.name);
    }
    return { ...this.opts, ...runOpts };
  }

  private async runTurn(prompt: string, opts: ResolvedOpts, sink: EventStream<CoderStreamEvent<P>>, abandoned: AbortSignal): Promise<RunResult<unknown, P>> {
    // Read before anything is written: a missing file fails this turn alone, with InvalidOptionsError.
    const attachments = opts.images?.length || opts.files?.length ? await readAttachments(opts, this.cwd, this.adapter.name) : undefined;
    if (!this.isOpen) throw this.closedError();
    const started = Date.now();
    const tracker = new RunTracker(this.adapter.usageIsCumulative, { prompt, images: opts.images });
    const collected: CoderStreamEvent<P>[] | undefined = opts.collectEvents ? [] : undefined;
    let finished!: (end: ChannelEnd | undefined) => void;
    const over = new Promise<ChannelEnd | undefined>((done) => (finished = done));
    const deltas = this.redactor && deltaRedaction(this.redactor);
    const deliverOne = (event: CoderStreamEvent<P>) => {
      event.provider = this.adapter.name;
      event.ts = Date.now();
      if (event.type === 'init' && event.sessionId) this.sessionId = event.sessionId;
      tracker.observe(event);
      collected?.push(event);
      this.guard(turn, () => opts.onEvent?.(event as CoderStreamEvent));
      sink.push(event);
    };
    const turn: Turn = {
      opts,
      translator: this.sessionTranslator ?? this.newTranslator(opts),
      tracker,
      stoppedBy: undefined,
      asking: 0,
      waitingSteers: new Map(),
      over: new AbortController(),
      lastActivity: started,
      emit: (translated) => {
        const redacted = this.redacted(translated);
        for (const event of deltas ? deltas.push(redacted) : [redacted]) deliverOne(event as CoderStreamEvent<P>);
      },
      finish: (end) => {
        for (const event of deltas?.flush() ?? []) deliverOne(event as CoderStreamEvent<P>);
        // The turn's records are all in: the bridge calls still waiting for one are reported in this turn.
        this.gate?.flush();
        finished(end);
      },
    };
    this.turn = turn;

    const stallTimeoutMs = opts.stallTimeoutMs ?? DEFAULTS.stallTimeoutMs;
    const stallWatch = setInterval(() => {
      if (turn.asking > 0 || this.answering > 0 || this.gate?.asking()) turn.lastActivity = Date.now();
      else if (Date.now() - turn.lastActivity >= stallTimeoutMs && turn.stoppedBy === undefined) {
        turn.stoppedBy = 'stall';
        void this.channel.kill(STOP_STEPS);
      }
    }, Math.min(1_000, stallTimeoutMs));
    const signal = opts.signal ? AbortSignal.any([opts.signal, abandoned]) : abandoned;
    const onAbort = () => void this.interrupt().catch(() => undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const sent = !signal.aborted;
      if (!sent) turn.stoppedBy = 'abort';
      else if (this.connection) this.startConnectedTurn(this.connection, prompt, opts, attachments, turn);
      else this.sendUserMessage(this.spec.userMessage!(prompt, undefined, this.sessionId, attachments), turn);
      const end = sent ? await over : undefined;
      // An interrupted turn of such a CLI leaves its command running: the SDK stops it.
      if (turn.stoppedBy === 'abort' && this.spec.interruptLeavesCommands && this.channel.pid !== undefined) {
        await terminateEscapedDescendants(this.channel.pid, STOP_STEPS);
      }
      if (turn.callbackError) throw turn.callbackError.error;
      const processEnd: ProcessEnd = {
        exitCode: end?.exitCode,
        signal: end?.signal,
        stderrTail: end?.stderrTail ?? '',
        stoppedBy: turn.stoppedBy,
        stallTimeoutMs,
      };
      const outcome = decideOutcome(this.adapter, opts, tracker, processEnd);
      return {
        provider: this.adapter.name,
        ...outcome,
        // A secret can be split across the deltas the text is joined from.
        text: this.redactor ? this.redactor.text(tracker.text) : tracker.text,
        sessionId: tracker.sessionId ?? this.sessionId,
        usage: tracker.usage,
        ...tracker.conversation(this.redactor && ((text) => this.redactor!.text(text))),
        exitCode: end?.exitCode,
        signal: end?.signal,
        durationMs: Date.now() - started,
        pid: this.channel.pid,
        cliVersion: this.cliVersion,
        ...(collected ? { events: collected } : {}),
      };
    } finally {
      clearInterval(stallWatch);
      turn.over.abort();
      signal.removeEventListener('abort', onAbort);
      this.turn = undefined;
    }
  }

  /** Writes a user message; where the CLI answers it, a refusal ends the turn as an error. */
  private sendUserMessage(message: unknown, turn: Turn): void {
    if (!this.spec.userMessageIsRequest) return this.channel.write(message);
    this.failOnRefusal(this.channel.request(message, { timeoutMs: CONTROL_TIMEOUT_MS, what: 'the message' }), turn);
  }

  /** A turn sent by the connection; with answerRecord, the answer to it is the turn's last record. */
  private startConnectedTurn(connection: LiveConnection, prompt: string, opts: ResolvedOpts, attachments: Attachments | undefined, turn: Turn): void {
    const started = connection.startTurn(prompt, opts, attachments);
    const { answerRecord, refusalRecord } = this.spec;
    if (!answerRecord) return this.failOnRefusal(started, turn);
    const ended = started.then(
      (answer) => {
        if (this.turn === turn) this.onMessage(answerRecord(answer));
      },
      (error: unknown) => {
        // The CLI's refusal (not a process that ended) is the turn's last record where the protocol says so.
        const refused = refusalRecord && error instanceof CoderError && !(error instanceof LiveSessionClosedError) && error.code === 'protocol';
        if (!refused) throw error;
        if (this.turn === turn) this.onMessage(refusalRecord(error.message));
      },
    );
    this.failOnRefusal(ended, turn);
  }

  /** A refused turn start is a fatal error event of its turn, and ends it. */
  private failOnRefusal(sent: Promise<unknown>, turn: Turn): void {
    sent.catch((error: unknown) => {
      // A process that ended ends the turn itself, with how it ended.
      if (this.turn !== turn || error instanceof LiveSessionClosedError) return;
      turn.emit({ type: 'error', code: 'protocol', fatal: true, message: error instanceof Error ? error.message : String(error), raw: null });
      turn.finish(undefined);
    });
  }

  private guard(turn: Turn | undefined, callback: () => void): void {
    try {
      callback();
    } catch (error) {
      // Between turns there is no result to fail; a throwing callback must not take the session down.
      if (!turn || turn.callbackError) return;
      turn.callbackError = { error };
      void this.interrupt().catch(() => undefined);
    }
  }

  private onRawLine(line: string): void {
    this.lineHoldsSecret = this.redactor?.holds(line) ?? false;
    const turn = this.turn;
    const onRawLine = turn ? turn.opts.onRawLine : this.opts.onRawLine;
    if (!onRawLine) return;
    this.guard(turn, () => onRawLine(line));
  }

  /** Events of a record or a line: to the running turn, or between turns to the session's onEvent. */
  private deliver(events: TranslatedEvent[]): void {
    if (this.gate) for (const event of events) this.gate.observe(event);
    if (this.turn) {
      for (const event of events) this.turn.emit(event);
      return;
    }
    for (const translated of events) {
      const event = this.redacted(translated) as CoderStreamEvent<P>;
      event.provider = this.adapter.name;
      event.ts = Date.now();
      this.guard(undefined, () => this.opts.onEvent?.(event as CoderStreamEvent));
    }
  }

  /** An event of the line being handled, or one made outside stdout, with the session's secrets redacted. */
  private redacted(event: TranslatedEvent): TranslatedEvent {
    const { redactor } = this;
    return redactor && (this.lineHoldsSecret || redactedAlways(event)) ? redactor.event(event) : event;
  }

  private onMessage(record: unknown): void {
    this.connection?.observe?.(record);
    const turn = this.turn;
    this.deliver(translateRecord(turn?.translator ?? this.idleTranslator, this.adapter.name, record));
    if (!turn) return;
    const steered = this.spec.steerStarted?.(record);
    const text = steered === undefined ? undefined : turn.waitingSteers.get(steered);
    if (steered !== undefined && text !== undefined) {
      turn.waitingSteers.delete(steered);
      turn.emit({ type: 'user_message', text, raw: record });
    }
    if (!this.spec.endsTurn(record)) return;
    if (turn.waitingSteers.size === 0) turn.finish(undefined);
    // A pushed message still waits: it runs next, and its last record is the one that decides.
    else turn.tracker.done = undefined;
  }

  /** The callback that decides now: the running turn's, else the session's. */
  private canUseTool(): CanUseTool | undefined {
    return this.turn?.opts.canUseTool ?? this.opts.canUseTool;
  }

  /** Asks onUserInput (the session has it: the bridge and onRequest ask only then), with the session's timeout and events. */
  private async askUser(request: UserInputRequest, signal: AbortSignal, raw: unknown): Promise<UserInputReply> {
    const onUserInput = this.opts.onUserInput;
    if (!onUserInput) return { noAnswer: 'no onUserInput callback is set' };
    const turn = this.turn;
    this.answering += 1;
    try {
      return await askUserInput(onUserInput, request, {
        timeoutMs: this.opts.userInputTimeoutMs ?? DEFAULT_USER_INPUT_TIMEOUT_MS,
        signal: turn ? AbortSignal.any([signal, turn.over.signal]) : signal,
        emit: (event) => this.deliver([event]),
        raw,
      });
    } finally {
      this.answering -= 1;
    }
  }

  private async onRequest(body: unknown, signal: AbortSignal): Promise<unknown> {
    // The agent asking the user goes to onUserInput when it is set; otherwise it is a permission question as before.
    const inputCodec = this.opts.onUserInput ? (this.connection?.userInput ?? this.spec.userInput) : undefined;
    const question = inputCodec?.request(body);
    if (inputCodec && question) return inputCodec.answer(await this.askUser(question, signal, body), question, body);
    const codec = this.connection?.permission ?? this.spec.permission;
    const request = codec.request(body);
    if (!request) throw new Error('this host does not answer that request');
    if (this.spec.questionsAreRecords) this.onMessage(body);
    const turn = this.turn;
    const canUseTool = this.canUseTool();
    if (turn) turn.asking += 1;
    try {
      const decision = canUseTool
        ? await askPermission(canUseTool, request, {
            timeoutMs: this.opts.permissionTimeoutMs ?? DEFAULT_PERMISSION_TIMEOUT_MS,
            signal: turn ? AbortSignal.any([signal, turn.over.signal]) : signal,
            emit: (event) => this.deliver([event]),
            raw: body,
            ...(codec.refuses ? { refuses: (decision: PermissionDecision) => codec.refuses!(decision, request) } : {}),
          })
        : ({ behavior: 'deny', message: 'No canUseTool callback is set.' } as const);
      return codec.answer(decision, request);
    } finally {
      if (turn) turn.asking -= 1;
    }
  }
}
