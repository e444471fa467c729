// The canary conversation `coderline doctor --probe` has with each CLI: three short runs against a
// fake model, each with what a CLI whose wire format has not drifted must show. The compatibility
// sweep (`npm run compat`) runs those and more per CLI version (src/probe/sweep-canaries.ts).
// CLI-agnostic: what differs per CLI (its shell tool, how that tool is allowed, how it answers with
// structured output) comes from the adapter's `probe` data.
import type { AdapterSpec } from '../core/contract/adapter.js';
import type { ErrorCode } from '../errors.js';
import type { OneShotOpts } from '../options.js';
import type { ScriptStep } from '../core/contract/model-reply.js';
import type { CompactionEvent, PlanItem, SubagentEvent } from '../events.js';

/** The probe's canaries. */
export type CanaryName = 'text' | 'tool' | 'auth_error';
/** The canaries of the events whose meaning is one on every CLI (src/probe/meaning-canaries.ts). */
export type MeaningCanaryName = 'plan' | 'subagent' | 'compaction' | 'session_not_found';
/** The sweep's canaries: the probe's, five more, and the meaning canaries. */
export type SweepCanaryName = CanaryName | 'failing_tool' | 'server_error_retry' | 'structured' | 'resume' | 'fork' | MeaningCanaryName;

/** What a run must show; the analysis checks the recorded lines against it. */
export interface CanaryExpectation {
  canary: SweepCanaryName;
  /** How the run must classify: success, or an error with this code and this kind of exit code. */
  outcome: { status: 'success' } | { status: 'error'; code: ErrorCode; exit: 'non-zero' | 'zero' };
  /** The final answer, exactly as scripted (success canaries). */
  finalText?: string;
  /**
   * A shell call whose tool_use/tool_result pair must appear, with output containing `marker`; the
   * result is an error exactly when the command `fails`.
   */
  tool?: { name: string; marker: string; fails?: boolean };
  /** Whether the run must report usage (the CLIs report none for a call that failed at once). */
  usage: boolean;
  /** The structured output the run must end with (validated against the canary's outputSchema). */
  output?: unknown;
  /** How the run's session id must relate to the earlier run's: the same (resume) or a new one (fork). */
  sessionId?: 'same' | 'new';
  /**
   * The session must be in the CLI's store afterwards: listed for the working directory with this
   * prompt as its title, and read back with the prompt and the shell call (`coder.listSessions()`,
   * `coder.readSession()`).
   */
  history?: { prompt: string };
  /** The plans the model wrote, in order: each must show as a `plan` event, the last as RunResult.plan. */
  plan?: PlanItem[][];
  /** A subagent that runs to its end: its `subagent` events, and the events inside it carrying the task's id. */
  subagent?: { phases: readonly SubagentEvent['phase'][]; innerTool?: string };
  /** A compaction: its `compaction` events, with the tokens before and after where the CLI gives them. */
  compaction?: { phases: readonly CompactionEvent['phase'][]; tokens: boolean };
  /**
   * The run resumes this id, which no store holds: the error names it, and the CLI ended by itself
   * (or never started) with no init or final record required.
   */
  unknownSession?: string;
}

export interface Canary {
  expect: CanaryExpectation;
  prompt: string;
  script: ScriptStep[];
  /** Options on top of the fake model's environment. */
  opts: OneShotOpts;
  /** How often the CLI may retry a failed model call itself (0 keeps the 401 canary short). */
  retries?: number;
  /** A first run this canary resumes or forks (the model answers it with the first script step). */
  before?: { prompt: string; then: 'resume' | 'fork' };
}

export const CANARY_TEXT = 'coderline probe: the plain answer.';
export const CANARY_TOOL_TEXT = 'coderline probe: the command ran.';
/** Printed by the shell call; its presence in the tool result shows the command really ran. */
export const CANARY_MARKER = 'coderline-probe-marker';
export const CANARY_RECOVERED_TEXT = 'coderline probe: answered after a failed call.';
export const CANARY_FIRST_TEXT = 'coderline probe: remember the word apricot.';
export const CANARY_SECOND_TEXT = 'coderline probe: the word was apricot.';
export const CANARY_STRUCTURED = { answer: 'forty-two', confidence: 0.9 };

/** The canaries for one CLI; undefined when its adapter has no probe data. */
export function canariesFor(adapter: AdapterSpec): Canary[] | undefined {
  const probe = adapter.probe;
  if (!probe) return undefined;
  return [
    {
      expect: { canary: 'text', outcome: { status: 'success' }, finalText: CANARY_TEXT, usage: true },
      prompt: 'Answer with the probe text.',
      script: [{ text: CANARY_TEXT, usage: { inputTokens: 20, outputTokens: 8 } }],
      opts: {},
    },
    {
      expect: {
        canary: 'tool',
        outcome: { status: 'success' },
        finalText: CANARY_TOOL_TEXT,
        tool: { name: probe.shellEventName, marker: CANARY_MARKER },
        usage: true,
        history: { prompt: 'Run the probe command, then answer.' },
      },
      prompt: 'Run the probe command, then answer.',
      script: [{ toolCalls: [probe.shellCall(`echo ${CANARY_MARKER}`)] }, { text: CANARY_TOOL_TEXT }],
      opts: probe.toolOpts ?? {},
    },
    {
      expect: { canary: 'auth_error', outcome: { status: 'error', code: 'auth', exit: probe.failedRunExit }, usage: false },
      prompt: 'Answer anything.',
      script: [{ kind: 'error', status: 401, message: 'coderline probe: invalid API key' }],
      opts: {},
      retries: 0,
    },
  ];
}
