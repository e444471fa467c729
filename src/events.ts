// The one event stream every adapter translates into. Types only.
import type { ErrorCode } from './errors.js';

export type ProviderName = 'claude' | 'codex' | 'copilot' | 'pi' | 'gemini' | 'opencode';

/**
 * What a tool does, the same on every CLI: a policy or a progress view written once against `kind`
 * matches Claude's `Bash`, Codex's `command_execution`, Copilot's `execute` and pi's `bash` alike.
 */
export type ToolKind = 'shell' | 'read' | 'write' | 'edit' | 'search' | 'list' | 'fetch' | 'web_search' | 'mcp' | 'task' | 'plan' | 'ask' | 'other';

/** The portable facts of one tool call, mapped by each adapter from the CLI's own tool name and input. */
export interface ToolFacts {
  kind: ToolKind;
  /** The CLI's own name for the tool (as `name` on the event). */
  name: string;
  /** `shell`: the command line as the CLI runs it. */
  command?: string;
  /** The files or directories the call names (read, write, edit, list, search roots). */
  paths?: string[];
  /** `search`/`web_search`: the pattern or query. */
  query?: string;
  /** `fetch`: the address. */
  url?: string;
  /** `mcp`: the server's name (the tool's own name on it is `name`'s last part). */
  server?: string;
}

/** Token and cost accounting for one run (never a session total). */
export interface Usage {
  inputTokens: number;
  cachedInputTokens: number;
  outputTokens: number;
  reasoningTokens: number;
  /** Only when the CLI reports a price. */
  costUsd?: number;
}

/**
 * The `extra` keys each adapter sets, as the CLI printed them (values are not normalized, hence
 * `unknown`). Other keys may appear; the full record is always in `raw`.
 */
export interface ProviderExtraMap {
  claude: {
    subtype?: unknown;
    mcpServers?: unknown;
    permissionMode?: unknown;
    claudeCodeVersion?: unknown;
    apiKeySource?: unknown;
    numTurns?: unknown;
    durationMs?: unknown;
    durationApiMs?: unknown;
    stopReason?: unknown;
    terminalReason?: unknown;
    permissionDenials?: unknown;
  };
  codex: { exitCode?: unknown };
  copilot: { exitCode?: unknown; errorCode?: unknown; refused?: boolean; errorType?: unknown; aborted?: boolean; premiumRequests?: unknown };
  gemini: { errorType?: unknown; refused?: boolean; cliToolName?: unknown; models?: unknown; toolCalls?: unknown; durationMs?: unknown };
  opencode: { cliToolName?: unknown; status?: unknown; exitCode?: unknown; reason?: unknown };
  pi: { parentSession?: unknown; toolCallId?: unknown; toolName?: unknown; details?: unknown; durationMs?: unknown; attempt?: unknown; maxAttempts?: unknown; delayMs?: unknown; success?: unknown };
}

/** Provider-specific details that have no normalized field, typed by CLI where it is known. */
export type EventExtra<P extends string = string> = Readonly<
  (P extends keyof ProviderExtraMap ? ProviderExtraMap[P] : unknown) & Record<string, unknown>
>;

interface EventBase<P extends string> {
  provider: P;
  /** Milliseconds since the epoch when the event was produced; events translated together (one batch of lines) share one reading. `coderline replay` gives 0. */
  ts: number;
  /** The parsed record this event came from (the raw text for lines that were not JSON). */
  raw: unknown;
  extra?: EventExtra<P>;
  /** Set on every event produced inside a subagent: the id of the `task` tool use that started it. */
  parentToolUseId?: string;
}

export interface InitEvent<P extends string = ProviderName> extends EventBase<P> {
  type: 'init';
  sessionId?: string;
  model?: string;
  cwd?: string;
  tools?: string[];
}

export interface MessageEvent<P extends string = ProviderName> extends EventBase<P> {
  type: 'message';
  /** `user` only in a stored conversation (`coder.readSession()`): a run's stream has the assistant's. */
  role: 'assistant' | 'user';
  text: string;
  /** true: a fragment of a message still being written; false: a whole content block or message. */
  delta: boolean;
  /** Set when a retry discards the text streamed so far: consumers assembling deltas start over. */
  reset?: boolean;
  id?: string;
}

export interface ReasoningEvent<P extends string = ProviderName> extends EventBase<P> {
  type: 'reasoning';
  text: string;
  delta: boolean;
  id?: string;
}

export interface ToolUseEvent<P extends string = ProviderName> extends EventBase<P> {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
  /** What the tool does, portable across CLIs. */
  tool?: ToolFacts;
}

/**
 * A tool's output as the CLI printed it: a string for text (most tools; text blocks are joined), the CLI's
 * JSON where the output is structured (an image block, a file change, a failed call's error), undefined
 * when the record has none.
 */
export type ToolOutput = string | number | boolean | null | readonly ToolOutput[] | { readonly [key: string]: ToolOutput } | undefined;

export interface ToolResultEvent<P extends string = ProviderName> extends EventBase<P> {
  type: 'tool_result';
  id: string;
  /** Joined from the matching tool_use when the CLI's record does not repeat it. */
  name?: string;
  output: ToolOutput;
  isError: boolean;
  /** What the tool does, portable across CLIs (from the matching tool_use when the record does not say). */
  tool?: ToolFacts;
}

export type ProgressKind = 'retry' | 'status' | 'warning' | 'tool_output' | 'unknown' | 'other';

export interface ProgressEvent<P extends string = ProviderName> extends EventBase<P> {
  type: 'progress';
  kind: ProgressKind;
  /** The record's own name for what happened (e.g. `system/api_retry`). */
  subtype?: string;
  message?: string;
}

export interface UsageEvent<P extends string = ProviderName> extends EventBase<P> {
  type: 'usage';
  usage: Usage;
}

export interface ErrorEvent<P extends string = ProviderName> extends EventBase<P> {
  type: 'error';
  code: ErrorCode;
  message: string;
  /** A fatal error decides the run's outcome; a non-fatal one is reported and the run goes on. */
  fatal: boolean;
  httpStatus?: number;
}

export interface StderrEvent<P extends string = ProviderName> extends EventBase<P> {
  type: 'stderr';
  line: string;
}

/**
 * A tool use the CLI asked the host about (`canUseTool`): one event when the question arrives
 * (`phase: 'request'`) and one with the answer given (`phase: 'decision'`).
 */
export interface PermissionEvent<P extends string = ProviderName> extends EventBase<P> {
  type: 'permission';
  phase: 'request' | 'decision';
  toolName: string;
  input: unknown;
  /** The id of the tool use this is about, when the CLI names it. */
  toolUseId?: string;
  /** What the tool does, portable across CLIs. */
  tool?: ToolFacts;
  /** On `decision`: what the CLI was told. */
  decision?: 'allow' | 'deny';
  /** On a `deny` decision: the message passed to the model (where the CLI carries one). */
  message?: string;
  /** On an `allow` decision that changed the input: the input that runs instead. */
  updatedInput?: Record<string, unknown>;
}

export interface DoneEvent<P extends string = ProviderName> extends EventBase<P> {
  type: 'done';
  /** What the CLI's terminal record claims; the exit code can still overrule it. */
  status: 'success' | 'error';
  /** The final answer when the terminal record carries it. */
  text?: string;
  sessionId?: string;
  /** Structured output when the CLI produced it natively. */
  output?: unknown;
}

export type PlanItemStatus = 'pending' | 'in_progress' | 'completed';

export interface PlanItem {
  content: string;
  status: PlanItemStatus;
}

/** The agent's plan (to-do list) as it stands now: each event holds the whole list, not a change. */
export interface PlanEvent<P extends string = ProviderName> extends EventBase<P> {
  type: 'plan';
  items: PlanItem[];
  /** The tool use that wrote it, when the plan came from a tool call. */
  toolUseId?: string;
}

/** A subagent's life: started by a `task` tool use, its own events carry that id as `parentToolUseId`. */
export interface SubagentEvent<P extends string = ProviderName> extends EventBase<P> {
  type: 'subagent';
  phase: 'started' | 'progress' | 'completed';
  /** The CLI's id for the subagent's task (the `task` tool use's id when the CLI has no other). */
  taskId: string;
  /** The `task` tool use that started it, when the CLI names it. */
  toolUseId?: string;
  description?: string;
  /** On `completed`: how it ended. */
  status?: 'success' | 'error' | 'cancelled';
  message?: string;
  /** What the CLI counts of the subagent's work; `totalTokens` where it gives only a sum (Claude). */
  usage?: Partial<Usage> & { totalTokens?: number };
}

/** The CLI compacted (summarized) the conversation to fit its context window. */
export interface CompactionEvent<P extends string = ProviderName> extends EventBase<P> {
  type: 'compaction';
  /** CLIs that report a start and an end give both; a single record is `completed`. */
  phase: 'started' | 'completed';
  trigger?: 'auto' | 'manual';
  tokensBefore?: number;
  tokensAfter?: number;
}

/** The agent asked the user something (`onUserInput`): one event for the request, one for the answer. */
export interface UserInputEvent<P extends string = ProviderName> extends EventBase<P> {
  type: 'user_input';
  phase: 'request' | 'answer';
  source: 'tool' | 'elicitation' | 'dialog';
  questions: { id: string; text: string; options?: string[]; multiSelect?: boolean; schema?: Record<string, unknown> }[];
  server?: string;
  toolUseId?: string;
  /** On `answer`: the answers by question id, or `decline`. */
  answers?: Record<string, unknown>;
  decline?: boolean;
}

/** A message the host pushed into a running turn (`steer()`), at the point the CLI took it. */
export interface UserMessageEvent<P extends string = ProviderName> extends EventBase<P> {
  type: 'user_message';
  text: string;
}

export type CoderStreamEvent<P extends string = ProviderName> =
  | InitEvent<P>
  | MessageEvent<P>
  | ReasoningEvent<P>
  | ToolUseEvent<P>
  | ToolResultEvent<P>
  | ProgressEvent<P>
  | UsageEvent<P>
  | ErrorEvent<P>
  | StderrEvent<P>
  | PermissionEvent<P>
  | PlanEvent<P>
  | SubagentEvent<P>
  | CompactionEvent<P>
  | UserInputEvent<P>
  | UserMessageEvent<P>
  | DoneEvent<P>;

export type CoderEventType = CoderStreamEvent['type'];

/** What a translator returns: an event before the core stamps `provider` and `ts`. */
export type TranslatedEvent = CoderStreamEvent<string> extends infer E
  ? E extends CoderStreamEvent<string>
    ? Omit<E, 'provider' | 'ts'>
    : never
  : never;
