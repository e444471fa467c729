// Decides how a run ended. The exit code is the truth: a CLI that exits non-zero, or dies by a
// signal the SDK did not send, has failed, whatever its last record said.
import { CliExitError, CoderError, OutputValidationError, StallError } from '../../errors.js';
import type { ResolvedOpts } from '../../options.js';
import type { RunStatus } from '../../result.js';
import type { AdapterSpec } from '../contract/adapter.js';
import { parseJsonAnswer, validateOutput } from '../options/output-schema.js';
import type { RunTracker } from './run-tracker.js';

export interface ProcessEnd {
  exitCode: number | undefined;
  signal: string | undefined;
  stderrTail: string;
  /** Why the SDK stopped the process, if it did. */
  stoppedBy: 'abort' | 'stall' | 'linger' | undefined;
  stallTimeoutMs: number;
}

export interface Outcome {
  status: RunStatus;
  error: CoderError | undefined;
  output: unknown;
}

/** Non-zero, or a signal the SDK did not send; lingering after the final record does not count. */
export function failedExit(end: Pick<ProcessEnd, 'exitCode' | 'signal'> & Partial<Pick<ProcessEnd, 'stoppedBy'>>): boolean {
  if (end.stoppedBy === 'linger') return false;
  return (end.exitCode !== undefined && end.exitCode !== 0) || end.signal !== undefined;
}

/** `resumed`: the id the run resumed or forked, which a session_not_found error names where the CLI's words do not. */
export function decideOutcome(adapter: AdapterSpec, opts: ResolvedOpts, tracker: RunTracker, end: ProcessEnd, resumed?: string): Outcome {
  const provider = adapter.name;
  const fail = (error: CoderError, status: RunStatus = 'error'): Outcome => ({ status, error, output: undefined });

  if (end.stoppedBy === 'abort') return fail(new CoderError('aborted', `${provider} run was aborted`, { provider }), 'cancelled');
  if (end.stoppedBy === 'stall') return fail(new StallError(provider, end.stallTimeoutMs), 'stalled');

  const fatal = tracker.fatalError;
  if (failedExit(end)) {
    const explained = fatal ? undefined : adapter.explainExit?.(end);
    const said = fatal ?? explained;
    const reason = said?.code === 'session_not_found' && resumed !== undefined && !said.message.includes(resumed) ? { ...said, message: `${said.message} (session "${resumed}")` } : said;
    return fail(
      new CliExitError(provider, {
        exitCode: end.exitCode,
        signal: end.signal,
        stderrTail: end.stderrTail,
        ...(reason ? { code: reason.code, message: reason.message } : {}),
      }),
    );
  }
  if (fatal) return fail(new CoderError(fatal.code, fatal.message, { provider }));
  if (!tracker.done) {
    const tail = end.stderrTail.trim();
    return fail(new CoderError('protocol', `${provider} exited without its final record${tail ? `:\n${tail}` : ''}`, { provider }));
  }
  if (tracker.done.status === 'error') {
    return fail(new CoderError('protocol', `${provider} reported a failure without saying why`, { provider }));
  }

  if (!opts.outputSchema) return { status: 'success', error: undefined, output: undefined };
  let candidate = tracker.done.output;
  if (candidate === undefined) {
    const parsed = parseJsonAnswer(tracker.text);
    if (!parsed.ok) return fail(new OutputValidationError(provider, tracker.text, ['the answer is not JSON']));
    candidate = parsed.value;
  }
  return { status: 'success', error: undefined, output: candidate };
}

/** A successful outcome's structured output, validated against outputSchema (the schema's library may validate asynchronously). */
export async function validateOutcome(provider: string, opts: ResolvedOpts, outcome: Outcome): Promise<Outcome> {
  if (outcome.status !== 'success' || !opts.outputSchema) return outcome;
  const checked = await validateOutput(opts.outputSchema, outcome.output);
  if (!checked.ok) return { status: 'error', error: new OutputValidationError(provider, outcome.output, checked.issues), output: undefined };
  return { ...outcome, output: checked.value };
}
