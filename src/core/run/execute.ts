// One run of a CLI, from options to RunResult: the tool bridge, the invocation, the environment, the
// version check, then the child (child-run.ts), then the outcome — and temp files removed however it ends.
import { resolve } from 'node:path';
import type { CoderStreamEvent, TranslatedEvent, Usage } from '../../events.js';
import { FeatureNotSupportedError, InvalidOptionsError } from '../../errors.js';
import type { RunResult } from '../../result.js';
import type { Invocation } from '../contract/adapter.js';
import { checkWorkingDirectory, prepareLaunch } from './launch.js';
import { decideOutcome, validateOutcome } from '../stream/outcome.js';
import { readChild, type ChildRequest } from '../stream/child-run.js';
import { RunTracker } from '../stream/run-tracker.js';
import { deltaRedaction, redactedAlways, runRedactor, type DeltaRedaction, type Redactor } from '../secrets/redact.js';
import { observeRun, type RunObservation } from './run-hooks.js';
import { TempDir } from '../process/temp.js';
import { askPermission, DEFAULT_PERMISSION_TIMEOUT_MS } from '../../permission.js';
import { askUserInput, DEFAULT_USER_INPUT_TIMEOUT_MS, type UserInputReply, type UserInputRequest } from '../../user-input.js';
import type { UserInputHost } from '../tools/elicitation.js';
import { bridgeGate, type BridgeGate } from '../tools/bridge-gate.js';
import { serversToFront } from '../tools/mcp-servers.js';
import type { PermissionPromptTool, ToolBridge } from '../tools/tool-bridge.js';
import { permissionToolName } from '../../schema/tool-names.js';
import { subtractUsage } from '../translate/usage.js';

/** What a session remembers between its runs. */
export interface SessionMemory {
  /** The last cumulative usage total a CLI reported, to turn the next total into a per-run share. */
  usageTotal?: Usage;
}

export interface ExecuteRequest extends ChildRequest {
  prompt: string;
  cwd: string;
  coderStateDir(): Promise<string>;
  memory: SessionMemory;
  /** What this coder remembers of a session, for a run that learns its session only from the CLI (resumeLatest()). */
  knownSession?(sessionId: string): SessionMemory | undefined;
}

/**
 * A session another process (or coder) ran: its total so far, from the CLI's store, so that a CLI
 * reporting session totals still yields this run's share. Unreadable → undefined (the whole total).
 */
async function storedUsageTotal(request: ExecuteRequest, cwd: string): Promise<Usage | undefined> {
  const { session, adapter, opts } = request;
  const read = adapter.sessionStore?.usageTotal;
  if (!read || (session.kind !== 'resume' && session.kind !== 'fork')) return undefined;
  return read({ opts, cwd, coderStateDir: request.coderStateDir }, session.sessionId).catch(() => undefined);
}

export async function execute(request: ExecuteRequest): Promise<RunResult<unknown, string>> {
  const observation = observeRun(request.adapter.name, request.opts);
  if (!observation) return executeRun(request, undefined);
  let result: RunResult<unknown, string>;
  try {
    result = await executeRun(request, observation);
  } catch (error) {
    observation.failed(error);
    throw error;
  }
  observation.ended(result);
  return result;
}

async function executeRun(request: ExecuteRequest, observation: RunObservation | undefined): Promise<RunResult<unknown, string>> {
  const { adapter, opts } = request;
  let memory = request.memory;
  const started = Date.now();
  const cwd = resolve(request.cwd);
  const tracker = new RunTracker(adapter.usageIsCumulative, { prompt: request.prompt, images: [...(opts.codexImages ?? []), ...(opts.images ?? [])] });
  const collected: CoderStreamEvent<string>[] | undefined = opts.collectEvents ? [] : undefined;
  let usageBaseline = memory.usageTotal;
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

  /**
   * A run that continues the latest session learns which one from the CLI: if this coder ran it
   * before, its shares count from the total remembered for it, and the new total goes there.
   */
  const adoptKnownSession = (sessionId: string | undefined) => {
    if (request.session.kind !== 'continue' || sessionId === undefined || lastUsageTotal) return;
    const known = request.knownSession?.(sessionId);
    if (!known) return;
    memory = known;
    usageBaseline = known.usageTotal;
  };

  /** This run's share of a session total a CLI reported; the total is remembered for the next run. */
  const shareOf = (sessionTotal: Usage): Usage => {
    lastUsageTotal = sessionTotal;
    return subtractUsage(sessionTotal, usageBaseline);
  };

  // One reading of the clock per synchronous turn: the events translated together (a batch of lines)
  // share it. Date.now() per event was 5 % of the CPU of a stream of short records (fix 17).
  let now: number | undefined;
  const timestamp = (): number => {
    if (now === undefined) {
      now = Date.now();
      queueMicrotask(() => (now = undefined));
    }
    return now;
  };

  // Known once the environment is: events of lines that hold a secret are redacted as they are read (child-run.ts).
  let redactor: Redactor | undefined;
  // Sees the CLI's records, to tell the bridge's calls that came through the CLI (bridge-gate.ts).
  let gate: BridgeGate | undefined;
  let deltas: DeltaRedaction | undefined;
  const emit = (translated: TranslatedEvent): void => {
    if (!deltas) return emitOne(translated);
    for (const event of deltas.push(translated)) emitOne(event);
  };
  const emitOne = (translated: TranslatedEvent): void => {
    // Stamped in place (translators hand their events over, see Translator): a copy per event was
    // measured as the largest cost of a fast stream (docs/performance.md).
    let event = (redactor && redactedAlways(translated) ? redactor.event(translated) : translated) as CoderStreamEvent<string>;
    event.provider = adapter.name;
    event.ts = timestamp();
    if (event.type === 'init') adoptKnownSession(event.sessionId);
    if (event.type === 'usage' && adapter.usageIsCumulative) event = { ...event, usage: shareOf(event.usage) };
    tracker.observe(event);
    gate?.observe(event);
    collected?.push(event);
    observation?.event?.(event);
    // No closure per event (or per line, below) when there is no callback to guard.
    const { onEvent } = opts;
    if (onEvent) guard(() => onEvent(event as CoderStreamEvent));
    request.sink?.push(event);
  };

  const result = (partial: Pick<RunResult, 'status' | 'error' | 'output' | 'exitCode' | 'signal' | 'pid' | 'cliVersion'>): RunResult<unknown, string> => ({
    provider: adapter.name,
    // A secret can be split across the deltas the text is joined from.
    text: redactor ? redactor.text(tracker.text) : tracker.text,
    sessionId: tracker.sessionId,
    usage: tracker.usage,
    ...tracker.conversation(redactor && ((text) => redactor!.text(text))),
    durationMs: Date.now() - started,
    ...partial,
    ...(collected ? { events: collected } : {}),
  });

  /**
   * Token counts some CLIs write to a file at exit rather than to stdout: they arrive after `done`, as
   * this run's share of the session's total (such adapters report no tokens on stdout).
   */
  const reportUsageFromExit = async (invocation: Invocation) => {
    const report = await invocation.afterExit?.().catch((error: unknown) => {
      emit({ type: 'progress', kind: 'warning', subtype: 'after_exit', message: `could not read the usage ${adapter.name} wrote at exit: ${String(error)}`, raw: null });
      return undefined;
    });
    if (!report) return;
    adoptKnownSession(tracker.sessionId);
    emit({ type: 'usage', usage: shareOf(report.sessionTotal), raw: report.raw });
  };

  const cancelledBeforeStart = (cliVersion: string | undefined) =>
    result({ status: 'cancelled', error: decideOutcome(adapter, opts, tracker, { exitCode: undefined, signal: undefined, stderrTail: '', stoppedBy: 'abort', stallTimeoutMs: 0 }).error, output: undefined, exitCode: undefined, signal: undefined, pid: undefined, cliVersion });

  if (opts.signal?.aborted) return cancelledBeforeStart(undefined);
  checkWorkingDirectory(adapter, cwd);
  usageBaseline ??= await storedUsageTotal(request, cwd);

  // canUseTool on a one-shot run: the CLI asks a tool of the bridge, which asks the callback. Where
  // the CLI's questions to the user come the same way, onUserInput needs that tool too.
  let asking = 0;
  const { canUseTool, onUserInput } = opts;
  const codec = adapter.permissionPromptTool;
  const inputCodec = onUserInput ? adapter.userInputPromptTool : undefined;
  if ((canUseTool || inputCodec) && opts.tools?.some((tool) => tool.name === permissionToolName)) {
    throw new InvalidOptionsError([`a tool may not be named ${permissionToolName} when canUseTool or onUserInput is set: the SDK serves its permission prompt under that name`], adapter.name);
  }
  if (canUseTool && !codec) throw new FeatureNotSupportedError(adapter.name, 'canUseTool', `${adapter.name} asks the host only in a live session: use coder.open().`);
  const askUser = async (request: UserInputRequest, signal: AbortSignal, raw: unknown): Promise<UserInputReply> => {
    if (!onUserInput) return { noAnswer: 'no onUserInput callback is set' };
    asking += 1;
    try {
      return await askUserInput(onUserInput, request, { timeoutMs: opts.userInputTimeoutMs ?? DEFAULT_USER_INPUT_TIMEOUT_MS, signal, emit, raw });
    } finally {
      asking -= 1;
    }
  };
  const userInput: UserInputHost | undefined = onUserInput ? { ask: askUser, emit } : undefined;
  const permissionPrompt: PermissionPromptTool | undefined = codec && (canUseTool || inputCodec)
    ? {
        async answer(args, signal) {
          const question = inputCodec?.request(args);
          const request = question ? undefined : codec.request(args);
          if (!question && !request) return JSON.stringify(codec.answer({ behavior: 'deny', message: 'The host could not read this permission request.' }, { toolName: '', input: {} }));
          // Anyone with the bridge's secret can call this tool (the agent's shell too): only the first
          // question about a tool use the CLI's records showed reaches a callback; others are refused unasked.
          const toolUseId = question ? question.toolUseId : request!.toolUseId;
          if (toolUseId === undefined || !(await gate?.claimToolUse(toolUseId))) {
            const what = question ? 'question to the user' : `permission question about ${request!.toolName}`;
            emit({ type: 'progress', kind: 'status', subtype: 'tool_bridge.permission_refused', message: `tool bridge: a ${what} that the CLI's records did not show was refused unasked`, raw: args });
            return JSON.stringify(codec.answer({ behavior: 'deny', message: 'The CLI\'s records show no such tool use.' }, request ?? { toolName: '', input: {} }));
          }
          if (question) return JSON.stringify(inputCodec!.answer(await askUser(question, signal, args), question, args));
          if (!canUseTool) return JSON.stringify(codec.answer({ behavior: 'deny', message: 'No canUseTool callback is set.' }, request!));
          asking += 1;
          try {
            const timeoutMs = opts.permissionTimeoutMs ?? DEFAULT_PERMISSION_TIMEOUT_MS;
            return JSON.stringify(codec.answer(await askPermission(canUseTool, request!, { timeoutMs, signal, emit, raw: args }), request!));
          } finally {
            asking -= 1;
          }
        },
      }
    : undefined;

  const temp = new TempDir('coderline-run-');
  let toolBridge: ToolBridge | undefined;
  try {
    const mcpServers = serversToFront(opts, cwd);
    if (opts.tools?.length || permissionPrompt || mcpServers) {
      // Loaded only for runs with custom tools, MCP servers, canUseTool or the CLI's questions: the MCP SDK is heavy.
      const { startToolBridge } = await import('../tools/tool-bridge.js');
      gate = bridgeGate(opts, emit);
      toolBridge = await startToolBridge({
        tools: opts.tools ?? [],
        runSignal: opts.signal ? AbortSignal.any([internal.signal, opts.signal]) : internal.signal,
        ...(permissionPrompt ? { permissionPrompt } : {}),
        ...(mcpServers ? { mcpServers } : {}),
        ...(userInput ? { userInput } : {}),
        gate,
      }).catch((error: unknown) => {
        // An abort while an MCP server starts is a cancelled run, not that server's failure.
        if (opts.signal?.aborted) return undefined;
        throw error;
      });
      if (!toolBridge) return cancelledBeforeStart(undefined);
    }
    const { invocation, env, executable, version, warning } = await prepareLaunch({
      adapter,
      build: (ctx) => adapter.buildInvocation(ctx),
      prompt: request.prompt,
      opts,
      session: request.session,
      cwd,
      temp,
      coderStateDir: request.coderStateDir,
      toolBridge,
    });
    redactor = runRedactor(opts, adapter, env, toolBridge?.secret);
    deltas = redactor && deltaRedaction(redactor);
    if (warning) emit({ type: 'progress', kind: 'warning', subtype: 'version', message: warning, raw: null });
    if (opts.signal?.aborted) return cancelledBeforeStart(version);

    const forwardAbort = () => internal.abort();
    opts.signal?.addEventListener('abort', forwardAbort, { once: true });
    const end = await readChild(request, { executable, args: invocation.args, stdin: invocation.stdin, env, cwd }, {
      emit,
      onRawLine: opts.onRawLine ? (line) => guard(() => opts.onRawLine!(line)) : undefined,
      abortSignal: internal.signal,
      hostBusy: () => asking > 0 || gate?.asking() === true,
      redactor,
    }).finally(() => opts.signal?.removeEventListener('abort', forwardAbort));
    for (const event of deltas?.flush() ?? []) emitOne(event);
    gate?.end();
    await reportUsageFromExit(invocation);
    if (callbackError !== undefined) throw callbackError;
    if (lastUsageTotal) memory.usageTotal = lastUsageTotal;
    const resumed = request.session.kind === 'resume' || request.session.kind === 'fork' ? request.session.sessionId : undefined;
    const outcome = await validateOutcome(adapter.name, opts, decideOutcome(adapter, opts, tracker, end, resumed));
    return result({ ...outcome, exitCode: end.exitCode, signal: end.signal, pid: end.pid, cliVersion: version });
  } finally {
    await toolBridge?.close();
    await temp.remove();
  }
}
