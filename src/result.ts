// What a run returns. Types only.
import type { CoderError } from './errors.js';
import type { CoderStreamEvent, ProviderName, Usage } from './events.js';

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
}

/** A running turn's events, in order; `result` settles when the turn is over. */
export interface RunStream<T = unknown, P extends string = string> extends AsyncIterable<CoderStreamEvent<P>> {
  result: Promise<RunResult<T, P>>;
}
