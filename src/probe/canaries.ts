// The canary conversation `coderline doctor --probe` has with each CLI: three short runs against a
// fake model, each with what a CLI whose wire format has not drifted must show. CLI-agnostic: what
// differs per CLI (its shell tool, how that tool is allowed) comes from the adapter's `probe` data.
import type { AdapterSpec } from '../core/adapter.js';
import type { ErrorCode } from '../errors.js';
import type { SharedStartOpts } from '../options.js';
import type { ScriptStep } from '../testing/script.js';

export type CanaryName = 'text' | 'tool' | 'auth_error';

/** What a run must show; the analysis checks the recorded lines against it. */
export interface CanaryExpectation {
  canary: CanaryName;
  /** How the run must classify: success, or an error with this code and this kind of exit code. */
  outcome: { status: 'success' } | { status: 'error'; code: ErrorCode; exit: 'non-zero' | 'zero' };
  /** The final answer, exactly as scripted (success canaries). */
  finalText?: string;
  /** A shell call whose tool_use/tool_result pair must appear, with output containing `marker`. */
  tool?: { name: string; marker: string };
  /** Whether the run must report usage (the CLIs report none for a call that failed at once). */
  usage: boolean;
}

export interface Canary {
  expect: CanaryExpectation;
  prompt: string;
  script: ScriptStep[];
  /** Options on top of the fake model's environment. */
  opts: SharedStartOpts;
  /** How often the CLI may retry a failed model call itself (0 keeps the 401 canary short). */
  retries?: number;
}

export const CANARY_TEXT = 'coderline probe: the plain answer.';
export const CANARY_TOOL_TEXT = 'coderline probe: the command ran.';
/** Printed by the shell call; its presence in the tool result shows the command really ran. */
export const CANARY_MARKER = 'coderline-probe-marker';

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
