// What a run returns. Types only.
import type { CoderError } from './errors.js';
import type { CoderStreamEvent, PlanItem, ProviderName, ToolFacts, Usage } from './events.js';

export type RunStatus = 'success' | 'error' | 'cancelled' | 'stalled';

export interface RunResult<T = unknown, P extends string = ProviderName> {
  provider: P;
  status: RunStatus;
  /** The final answer: the last assistant message, not reasoning, tool output or narration. */
  text: string;
  /** Structured output, validated against `outputSchema` (typed when it is a zod schema). */
  output: T | undefined;
  sessionId: string | undefined;
  /** Tokens and cost of this run only, even when the CLI reports session totals. */
  usage: Usage;
  exitCode: number | undefined;
  signal: string | undefined;
  durationMs: number;
  /** Set whenever status is not `success`. */
  error: CoderError | undefined;
  /** Process id of the CLI, which led its own process group. */
  pid: number | undefined;
  cliVersion: string | undefined;
  /** Every event of the run, when `collectEvents` was set. */
  events?: CoderStreamEvent<P>[];
  /** The agent's plan as the last `plan` event of the run left it; undefined when the run wrote none. */
  plan?: PlanItem[];
  /**
   * The turn's conversation in order, the same shape on every CLI: the prompt, the assistant's
   * messages, the tool results. Set by every run and live turn (not carried by the queue's results).
   */
  messages?: TranscriptMessage[];
}

/** One block of a transcript message. */
export type TranscriptBlock =
  | { type: 'text'; text: string }
  | { type: 'reasoning'; text: string }
  | { type: 'tool_use'; id: string; name: string; input: unknown; tool?: ToolFacts }
  | { type: 'tool_result'; id: string; name?: string; output: unknown; isError: boolean }
  /** An image the turn attached (its path as given; the bytes stay in the file). */
  | { type: 'image'; mediaType: string; path: string };

export interface TranscriptMessage {
  /** `tool`: results of the assistant's tool calls, in the order they came. */
  role: 'user' | 'assistant' | 'tool';
  blocks: TranscriptBlock[];
  /** The tokens of this model call, where the CLI reports them per message. */
  usage?: Usage;
  /** A subagent's message: the id of the `task` tool use that started it. */
  parentToolUseId?: string;
}

/** A running turn's events, in order; `result` settles when the turn is over. */
export interface RunStream<T = unknown, P extends string = string> extends AsyncIterable<CoderStreamEvent<P>> {
  result: Promise<RunResult<T, P>>;
}
