// Exit codes of `coderline run` / `record` (and `doctor`): a CI job can tell a bad answer from a hung agent.
import { isCoderError, type RunResult } from '../index.js';
import { UsageError } from './usage-error.js';

export const EXIT = {
  success: 0,
  /** The agent ran and failed (API error, non-zero exit, turn or budget limit, …). */
  agentError: 1,
  /** The command line or the options were wrong; nothing ran. */
  usage: 2,
  /** The answer did not match the output schema. */
  invalidOutput: 3,
  /** The CLI printed nothing for --stall-timeout-ms, or the run exceeded --timeout. */
  stalled: 4,
  /** The CLI is missing or its version is not supported. */
  cliUnavailable: 5,
  /** `doctor --probe`: a CLI's output no longer matches what its adapter expects. */
  drift: 6,
  /** Ctrl-C (SIGINT) or SIGTERM: the run was aborted (128 + SIGINT, as shells report it). */
  cancelled: 130,
} as const;

export function exitCodeForResult(result: Pick<RunResult<unknown, string>, 'status' | 'error'>, timedOut: boolean): number {
  switch (result.status) {
    case 'success':
      return EXIT.success;
    case 'stalled':
      return EXIT.stalled;
    case 'cancelled':
      return timedOut ? EXIT.stalled : EXIT.cancelled;
    case 'error':
      return result.error?.code === 'invalid_output' ? EXIT.invalidOutput : EXIT.agentError;
  }
}

/** For errors thrown before anything ran. */
export function exitCodeForError(error: unknown): number {
  if (error instanceof UsageError) return EXIT.usage;
  if (!isCoderError(error)) return EXIT.agentError;
  switch (error.code) {
    case 'invalid_options':
    case 'feature_not_supported':
      return EXIT.usage;
    case 'binary_not_found':
    case 'version_unsupported':
      return EXIT.cliUnavailable;
    default:
      return EXIT.agentError;
  }
}
