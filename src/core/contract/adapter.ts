// The contract between the core and one CLI. The core knows CLIs only through this shape.
import type { PlanItem, SubagentEvent, TranslatedEvent, Usage } from '../../events.js';
import type { ErrorCode } from '../../errors.js';
import type { FeatureName, ResolvedOpts, SharedStartOpts } from '../../options.js';
import type { Attachments } from '../options/attachment-types.js';
import type { RpcDialect } from './dialect.js';
import type { PermissionDecision, PermissionRequest } from '../../permission.js';
import type { UserInputReply, UserInputRequest } from '../../user-input.js';
import type { PermissionModeName } from '../options/permission-mode.js';
import type { ToolBridgeInfo } from './bridge-info.js';
import type { ScriptedToolCall, ScriptStep } from './model-reply.js';
import type { ToolCatalog } from './tool-catalog.js';

export interface ExitInfo {
  exitCode: number | undefined;
  signal: string | undefined;
  stderrTail: string;
}

export type SupportLevel = 'native' | 'best-effort';

export interface FeatureSupport {
  level: SupportLevel;
  /** How the CLI is told (a flag, a config key, or what the SDK does): shown in adapters.md. */
  how: string;
  /** The oldest version that has it, when older supported versions do not: they fail before spawning. */
  since?: string;
}

/** A feature the CLI has natively, told this way. */
export const native = (how: string): FeatureSupport => ({ level: 'native', how });

/** The events whose meaning is the same on every CLI but that not every CLI prints. */
export type MeaningEventType = 'plan' | 'subagent' | 'compaction';

/**
 * Whether a CLI emits one of them: since which version and how, or why not. A claim is checked
 * against the recorded fixtures (test/replay/event-capabilities.test.ts): those of the `since`
 * version must show it.
 */
export type EventSupport = { since: string; how: string } | { none: string };

export type EventTable = Record<MeaningEventType, EventSupport>;

/** Capabilities as data: a feature missing from the table is unsupported and fails fast. */
export type CapabilityTable = Partial<Record<FeatureName, FeatureSupport>>;

/** How this run relates to earlier ones. */
export type SessionTarget =
  | { kind: 'new' }
  | { kind: 'resume'; sessionId: string }
  | { kind: 'continue' }
  | { kind: 'fork'; sessionId: string };

export interface InvocationContext {
  prompt: string;
  opts: ResolvedOpts;
  session: SessionTarget;
  /** The directory the CLI runs in (already resolved to an absolute path). */
  cwd: string;
  /** The CLI's version (`--version`), for argv that differs between versions; undefined when unreadable. */
  cliVersion?: string | undefined;
  /** Writes a private temp file (0600 in a 0700 dir) that is removed when the run ends, however it ends. */
  writeTempFile(name: string, content: string): Promise<string>;
  /**
   * A private directory that lives as long as the coder (for state a CLI must find again on resume,
   * such as an isolated config dir). Created on first use.
   */
  coderStateDir(): Promise<string>;
  /** The JSON Schema of `opts.outputSchema`, when one was given. */
  outputJsonSchema: Record<string, unknown> | undefined;
  /** The MCP server serving `opts.tools` for this run, when it has tools: the CLI must be told of it. */
  toolBridge?: ToolBridgeInfo;
}

export interface Invocation {
  args: string[];
  /** Added to the environment before the caller's extraEnv/unsetEnv (so the caller can override). */
  env?: Record<string, string>;
  /** Written to stdin, which is then closed. */
  stdin: string;
  /**
   * Read after the CLI exited, for what it writes to a side file instead of stdout: the session's
   * cumulative token total (the core turns it into this run's share and emits a `usage` event after
   * `done`). Undefined when the file says nothing (the CLI was killed before writing it).
   */
  afterExit?(): Promise<SessionUsageReport | undefined>;
}

export interface SessionUsageReport {
  /** Tokens of the whole session so far, this run included. */
  sessionTotal: Usage;
  /** What the file held, as the event's `raw`. */
  raw: unknown;
}

/** Where a CLI's session store is for a coder's options. */
export interface StoreContext {
  opts: ResolvedOpts;
  /** The coder's working directory (absolute). */
  cwd: string;
  /** The coder's private state dir (where strict isolation keeps a CLI's config). */
  coderStateDir(): Promise<string>;
}

/** One session found in a CLI's store. */
export interface SessionInfo {
  id: string;
  /** The CLI's title for it, else its first prompt (undefined when the store has neither). */
  title: string | undefined;
  /** When the CLI last wrote to it (ISO 8601). */
  updatedAt: string;
  /** The directory it ran in, when the store says. */
  workingDirectory: string | undefined;
}

/**
 * Reading a CLI's own session store (its files on disk). Records are read as tolerantly as the
 * translators read stdout: a record of unknown shape becomes a progress event, never a throw.
 */
export interface SessionStoreSpec {
  /** Sessions in the store; with `cwd`, only those that ran there. */
  list(ctx: StoreContext, cwd: string | undefined): Promise<SessionInfo[]>;
  /** The conversation, one record at a time; undefined when the store has no session with this id. */
  read(ctx: StoreContext, sessionId: string): Promise<TranslatedEvent[] | undefined>;
  /**
   * For CLIs whose usage counts the whole session: the total the store holds for it, read before a
   * run that resumes or forks it, so the run's share is right even when another process ran the rest.
   */
  usageTotal?(ctx: StoreContext, sessionId: string): Promise<Usage | undefined>;
}

/** Per-run translation state. `translate` must be deterministic: same lines in, same events out. */
export interface Translator {
  /**
   * `record` is the parsed JSON line. Unknown records must still yield an event (progress with raw).
   * The returned events are handed over: the core stamps `provider` and `ts` on them in place, so
   * return new objects, never one kept in the translator's state or shared between calls.
   */
  translate(record: unknown): TranslatedEvent[];
}

export interface TranslatorContext {
  /** Options of the run, for translators whose output depends on them (e.g. partial messages). */
  opts: ResolvedOpts;
  /** How this run relates to earlier ones (lets a translator notice a resume that started afresh). */
  session?: SessionTarget;
}

export interface VersionRange {
  /** Oldest supported version (the oldest the compatibility sweep proves): older ones fail with CliVersionError. */
  min: string;
  /** Newest version tested: newer ones run with a warning, once per executable per process. */
  testedMax: string;
  /** Every version the sweep passed (docs/compat.md); versions between them run quietly too. */
  tested?: readonly string[];
}

/** What adapters.md says about a CLI beyond its capability table. */
export interface AdapterDocs {
  /** The command line the adapter runs (the prompt always goes on stdin). */
  invocation: string;
  /** `history`: where `listSessions()` / `readSession()` read the CLI's store. */
  sessions: { resume: string; resumeLatest: string; fork: string; history?: string };
  /** Facts about the binary a user should know, e.g. where it differs from its own docs. */
  notes: string[];
}

/** Where a CLI looks for credentials (`coderline doctor` prints the names, never the values). */
export interface AuthSources {
  /** Variables the CLI reads, in the order it prefers them. */
  variables: readonly string[];
  /** Where a stored login lives when no variable is set. */
  storedLogin: string;
}

/** This CLI's part in the environment it runs with (src/core/process/env.ts). */
export interface EnvironmentSpec {
  /** Host variables it must not inherit, e.g. those that make it think it runs inside another agent. */
  denied?: readonly string[];
  /**
   * What `inheritEnv: 'minimal'` keeps for it besides the core's set and `auth.variables`: where it
   * finds its config, state and model endpoint, and the switches that keep it quiet. `NAME_*` is a prefix.
   */
  minimal?: readonly string[];
}

/** What `coderline doctor --probe` needs to make this CLI run one shell command offline. */
export interface ProbeSpec {
  /** The model's call of the CLI's shell tool, as the CLI offers it to the model. */
  shellCall(command: string): { name: string; input: Record<string, unknown> };
  /** The `name` that call has in tool_use / tool_result events. */
  shellEventName: string;
  /** Options that let the shell tool run without anyone to approve it. */
  toolOpts?: SharedStartOpts;
  /** The exit code of a run whose model call failed: non-zero for most CLIs, 0 where only the records say it. */
  failedRunExit: 'non-zero' | 'zero';
  /**
   * `false` where the CLI's records carry no exit code of a shell command: its failing command is a
   * successful tool result (the failing-tool canary then expects that). Default: an error result.
   */
  failedCommandIsError?: false;
  /** How the model answers with `value` as structured output; default: the JSON as its text. */
  structuredAnswer?(value: Record<string, unknown>): ScriptStep[];
  /** How a one-shot run writes a plan (the sweep's plan canary); absent where no one-shot run shows one. */
  plan?: ProbePlan;
  /** How a one-shot run starts a subagent (the sweep's subagent canary); absent where no one-shot run shows one. */
  subagent?: ProbeSubagent;
  /** How a one-shot run is brought to compact (the sweep's compaction canary); absent where none can be. */
  compaction?: ProbeCompaction;
  /** How a live session's turn is brought to compact (the sweep's live compaction canary); absent where none can be. */
  liveCompaction?: ProbeLiveCompaction;
  /** A well-formed session id no store holds, for the session_not_found canary; default: a UUID. */
  unknownSessionId?: string;
}

/** What brings one turn of a live session to compact: its prompt, the model's replies, the options. */
export interface ProbeLiveCompaction {
  prompt: string;
  script: ScriptStep[];
  opts?: SharedStartOpts;
}

/** The model's call of the CLI's plan tool that writes `items` as the whole plan. */
export interface ProbePlan {
  call(items: readonly PlanItem[]): ScriptedToolCall;
  /** Options that offer the plan tool (e.g. a config key or an environment variable). */
  opts?: SharedStartOpts;
}

/** The model's call of the CLI's subagent tool, and what the CLI prints of the subagent. */
export interface ProbeSubagent {
  call(description: string, prompt: string): ScriptedToolCall;
  opts?: SharedStartOpts;
  /** The `subagent` phases the CLI reports of one subagent that runs to its end. */
  phases: readonly SubagentEvent['phase'][];
  /** Whether the subagent's own tool calls are printed (then with `parentToolUseId`); false where only its end is. */
  innerEvents: boolean;
}

/**
 * What brings a one-shot run to compact: one run, or a first run that the compacting one resumes
 * (Claude: a turn, then `/compact` on its session). One entry per CLI, whatever its trigger.
 */
export interface ProbeCompaction {
  /** The first run's prompt, when the compacting run resumes one. */
  before?: string;
  prompt: string;
  /** The fake model's replies to both runs, in order. */
  script: ScriptStep[];
  opts?: SharedStartOpts;
  /** The `compaction` phases the CLI reports. */
  phases: readonly ('started' | 'completed')[];
  /** Whether the CLI says how many tokens there were before and after. */
  tokens: boolean;
}

/** How a CLI words a permission question and reads the answer (for `canUseTool`). */
export interface PermissionCodec {
  /** The question in the CLI's words; undefined when it is not one. */
  request(body: unknown): PermissionRequest | undefined;
  /** The answer the CLI expects for a decision. */
  answer(decision: PermissionDecision, request: PermissionRequest): unknown;
  /**
   * Why the CLI cannot carry this decision (e.g. a changed input), when it cannot: the tool use is
   * then denied and the reason reported as a non-fatal error event.
   */
  refuses?(decision: PermissionDecision, request: PermissionRequest): string | undefined;
}

/** How a CLI asks the user something and reads the answer (for `onUserInput`). */
export interface UserInputCodec {
  /** The question in the SDK's shape; undefined when the request is not one. */
  request(body: unknown): UserInputRequest | undefined;
  /** The answer the CLI expects for a reply (`body` is the CLI's request, for answers that echo it). */
  answer(reply: UserInputReply, request: UserInputRequest, body: unknown): unknown;
}

/** What a live session (`coder.open()`) can do beyond sending turns. */
export type LiveFeature = 'open' | 'steer' | 'interrupt' | 'setModel' | 'setPermissionMode';

/** How a live protocol's connection asks the CLI (requests answered by id) and tells it (notifications). */
export interface LiveRpc {
  /** Times out after the control timeout; `untimed` for a request answered when its turn ends (the stall watch bounds it). */
  request(body: unknown, what: string, options?: { untimed?: boolean }): Promise<unknown>;
  notify(body: unknown): void;
}

/** What a protocol with a handshake needs to open or load the CLI's session. */
export interface LiveConnectContext {
  opts: ResolvedOpts;
  /** A new session, or the one to continue (`coder.open(options, { sessionId })`). */
  session: SessionTarget;
  /** The directory the CLI runs in (absolute). */
  cwd: string;
}

/**
 * A live session whose protocol hands out ids (a thread, a turn) that later messages must name: made
 * by `LiveSpec.connect` after a handshake, it sends turns and controls itself and keeps that state.
 */
export interface LiveConnection {
  /** The session id the handshake opened (e.g. a thread id). */
  sessionId: string | undefined;
  /**
   * Starts a turn (with what send() attached, read); resolves once the CLI took it, rejects when it
   * refused (the turn then fails). With `LiveSpec.answerRecord` it resolves with the CLI's answer,
   * which ends the turn.
   */
  startTurn(prompt: string, opts: ResolvedOpts, attachments: Attachments | undefined): Promise<unknown>;
  /** Asks the CLI to end the running turn. */
  interrupt(): Promise<void>;
  /** Pushes a message into the running turn. */
  steer?(prompt: string): Promise<void>;
  /** Changes the model of the next turns. */
  setModel?(model: string): Promise<void>;
  /** Changes the permission mode from the next turn on; throws before anything is sent for a mode it cannot express. */
  setPermissionMode?(mode: PermissionModeName): Promise<void>;
  /** Sees every message that is not an answer, before it is translated (to follow ids the CLI hands out). */
  observe?(message: unknown): void;
  /** Replaces the spec's codec when a question names what only earlier messages described. */
  permission?: PermissionCodec;
  /** The CLI's questions to the user (asked before the permission codec sees a request). */
  userInput?: UserInputCodec;
}

/**
 * A CLI's long-lived mode: one process, turns written to its stdin, answers and questions on the same
 * pipes (core/live/live.ts drives it through core/protocols/channel.ts).
 */
export interface LiveSpec {
  capabilities: Partial<Record<LiveFeature, FeatureSupport>>;
  /** Oldest version whose live protocol was verified: older ones fail with CliVersionError. */
  minVersion: string;
  /** Run options this CLI takes only on its command line: fixed at `open()`, refused by `send()`. */
  launchOnly: readonly FeatureName[];
  /** Options the CLI honours in one-shot runs but not in its live mode. */
  notLive?: readonly FeatureName[];
  dialect: RpcDialect;
  /** The long-lived command line (`ctx.prompt` is empty: prompts go over the channel). */
  buildInvocation(ctx: InvocationContext): Promise<Omit<Invocation, 'stdin'>>;
  /**
   * The message that starts a turn with `prompt`; with `steerId`, one pushed into the running turn.
   * `sessionId` is the id the handshake returned, for protocols whose messages name their session;
   * `attachments` what send() attached, read (a turn's start only).
   * Required unless `connect` is given (its connection sends turns then).
   */
  userMessage?(prompt: string, steerId?: string, sessionId?: string, attachments?: Attachments): unknown;
  /** The CLI answers a user message like a request (a refusal fails the turn) rather than only acting on it. */
  userMessageIsRequest?: boolean;
  /**
   * When a record says a pushed message (by its `steerId`) has started to run: a turn whose last
   * record comes while a pushed message still waits goes on until that message has run too.
   */
  steerStarted?(record: unknown): string | undefined;
  /**
   * The CLI's own records show a pushed message where it joins the turn, and the translator makes
   * them the `user_message` event; otherwise the core emits it once the CLI took the message.
   */
  echoesSteer?: boolean;
  /** Whether a record is the last of a turn. */
  endsTurn(record: unknown): boolean;
  /**
   * The answer to the request that starts a turn is the turn's last record (ACP's `session/prompt`
   * answers with its stop reason): this wraps it as the record the translator and `endsTurn` get.
   * The connection's `startTurn` resolves with that answer (also replayed: replay/live-recording.ts).
   */
  answerRecord?(answer: unknown): unknown;
  /**
   * With `answerRecord`: the record a refused turn-start request becomes (`error`: the peer's error
   * message), translated as the turn's last record, so the translator says how the turn failed (an
   * ACP agent answers a failed model call as the prompt's JSON-RPC error: Gemini). Without it a
   * refusal fails the turn as a `protocol` error.
   */
  refusalRecord?(error: string): unknown;
  /**
   * The CLI's questions (permission requests) are records of the turn too, translated before they are
   * answered: an ACP question may name a tool call that no update announced (Gemini).
   */
  questionsAreRecords?: boolean;
  /**
   * The translator of a live protocol whose records are not the one-shot ones and can span turns
   * (ACP's token counts are session totals): one per session, shared by its turns.
   */
  createSessionTranslator?(ctx: TranslatorContext): Translator;
  /** The translator of a turn, when the live records are not those of a one-shot run (default: the adapter's). */
  createTranslator?(ctx: TranslatorContext): Translator;
  /** Request bodies for the controls the protocol has. */
  interruptRequest?: unknown;
  setModelRequest?(model: string, opts: ResolvedOpts, sessionId?: string): unknown;
  /**
   * The requests that switch to `mode`, sent in order; throws (InvalidOptionsError) for a mode the
   * protocol cannot express, or one that would let a tool run unasked while `opts.canUseTool` is set.
   */
  setPermissionModeRequests?(mode: PermissionModeName, opts: ResolvedOpts, sessionId?: string): unknown[];
  /** A permission mode change waits for the running and queued turns (the CLI would apply it mid-turn). */
  permissionModeBetweenTurns?: boolean;
  /** Requests from the CLI that ask whether a tool may run (any other request is refused). */
  permission: PermissionCodec;
  /**
   * Requests from the CLI that ask the user something, answered by `onUserInput` when it is set (they
   * are looked at first; without onUserInput they go to the permission codec as before).
   */
  userInput?: UserInputCodec;
  /**
   * A handshake after the start (e.g. initialize, open a thread or an ACP session); the connection
   * then sends turns and controls instead of `userMessage` and the request bodies above (a connection
   * without `setPermissionMode` has its changes sent as `setPermissionModeRequests`).
   */
  connect?(rpc: LiveRpc, ctx: LiveConnectContext): Promise<LiveConnection>;
  /**
   * Where no record of the live mode names the session (pi's rpc mode prints no session header): a
   * request sent once the process is up, and how its answer names the session id.
   */
  sessionIdRequest?: { body: unknown; idOf(answer: unknown): string | undefined };
  /** How the CLI words its refusal of the handshake when the session to open is not in its store: it becomes `session_not_found`. */
  sessionNotFound?: RegExp;
  /**
   * The CLI leaves a running tool command alive when a turn is interrupted: the core stops the
   * processes below the CLI that left its process group, once the interrupted turn has ended.
   */
  interruptLeavesCommands?: boolean;
}

export interface AdapterSpec<P extends string = string> {
  name: P;
  /** Executable looked up on PATH when `executablePath` is not given. */
  binary: string;
  installHint: string;
  /** The npm package the CLI ships in, for the upgrade command `coderline doctor` prints. */
  npmPackage?: string;
  versions: VersionRange;
  /** Extracts a semver from `<bin> --version` output. */
  parseVersion(output: string): string | undefined;
  /**
   * false: the binary is not asked `--version` (an agent of createAcpAdapter(), which may take the flag
   * for something else or start up on it); its version stays unknown and no range applies.
   */
  versionProbe?: false;
  capabilities: CapabilityTable;
  /** Which of the plan, subagent and compaction events this CLI emits (adapters.md, Events). */
  events?: EventTable;
  /** What to use instead, per unsupported feature (shown in FeatureNotSupportedError). */
  insteadHints?: Partial<Record<FeatureName, string>>;
  /** Value-level checks beyond the table (e.g. an effort level the CLI lacks). Throw CoderError. */
  validate?(opts: ResolvedOpts, session: SessionTarget): void;
  /**
   * Every flag the invocation builder can emit, with its aliases: `extraArgs` may not pass these
   * (`--` too: the positional arguments are the adapter's). Checked against the builder by a test.
   */
  ownedFlags?: readonly string[];
  /**
   * An option value newer than the oldest supported version (e.g. an effort level), with the version
   * it needs: older versions fail before spawning instead of ignoring the value with a warning.
   */
  valueSince?(opts: ResolvedOpts): { option: string; since: string } | undefined;
  /** Whether the CLI reports usage summed over the whole session rather than per run. */
  usageIsCumulative?: boolean;
  /** Whether `fork()` is possible (it is a feature of sessions, not an option). */
  canFork: boolean;
  /** The oldest version that can fork, when older supported ones cannot (they fail before spawning). */
  forkSince?: string;
  docs?: AdapterDocs;
  auth?: AuthSources;
  environment?: EnvironmentSpec;
  probe?: ProbeSpec;
  buildInvocation(ctx: InvocationContext): Promise<Invocation> | Invocation;
  /**
   * A better error for a failed exit than the generic one, when the CLI's stderr says why
   * (e.g. a refused flag). Return undefined to keep the generic CliExitError.
   */
  explainExit?(exit: ExitInfo): { code: ErrorCode; message: string } | undefined;
  createTranslator(ctx: TranslatorContext): Translator;
  /** What the CLI's tools are (the `tool` facts of its events and permission requests), per vocabulary its records use. */
  toolCatalogs?: readonly ToolCatalog[];
  /**
   * For `canUseTool` on a one-shot run: the CLI calls a tool of the MCP bridge with its permission
   * question and reads the decision from the tool's text (JSON of `answer()`).
   */
  permissionPromptTool?: PermissionCodec;
  /** For `onUserInput` on a one-shot run: the questions that come through the permission prompt tool (its arguments). */
  userInputPromptTool?: UserInputCodec;
  /** The CLI's live mode, when it has one. */
  live?: LiveSpec;
  /** The CLI's session store (`coder.listSessions()`, `coder.readSession()`), when it can be read. */
  sessionStore?: SessionStoreSpec;
}

/** How a live protocol's recorded lines become events again: their routing and the turns' ends, no process. */
export type LiveTranslation = Pick<LiveSpec, 'dialect' | 'endsTurn' | 'answerRecord' | 'refusalRecord' | 'questionsAreRecords' | 'createTranslator' | 'createSessionTranslator'>;

/**
 * An adapter's pure face (`coderline/replay`): its translators and how its live protocol routes lines.
 * It lives in the adapter's `translation.ts`, which imports nothing that starts a process or reads a file.
 */
export interface TranslationSpec<P extends string = string> {
  name: P;
  createTranslator(ctx: TranslatorContext): Translator;
  live?: LiveTranslation;
}

export type { Usage };
