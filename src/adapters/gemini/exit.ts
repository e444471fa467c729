// Why `gemini` exited without a `result` record, from its exit code and stderr (0.61.0). The documented
// codes come with the message on stderr only; an API error ends with `process.exit(HTTP status)`
// (401 → 145), after a `result` record the translator reads.
import type { ExitInfo } from '../../core/contract/adapter.js';
import type { ErrorCode } from '../../errors.js';

const byExitCode: Record<number, [ErrorCode, string]> = {
  41: ['auth', 'Gemini found no credentials it can use: set GEMINI_API_KEY (or GOOGLE_API_KEY, or GOOGLE_GENAI_USE_VERTEXAI with a project).'],
  53: ['max_turns', 'the session reached its turn limit (maxTurns: model.maxSessionTurns).'],
  55: ['invalid_options', 'Gemini refused an untrusted working directory (GEMINI_RESTRICTED_MODE or GEMINI_CLI_TRUST_WORKSPACE=false in the environment?).'],
};

const stderrReasons: Array<[RegExp, ErrorCode, string]> = [
  [/No previous sessions found|Invalid session identifier|session .* not found/i, 'session_not_found', 'the session to resume is not in this coder\'s store (sessions are kept per working directory).'],
  [/already exists/i, 'invalid_options', 'a session with that sessionId exists already.'],
  [/Unknown arguments?|Invalid values?|Not enough arguments/i, 'invalid_options', 'the CLI refused its command line (an option this version does not know?).'],
];

export function explainGeminiExit(exit: ExitInfo): { code: ErrorCode; message: string } | undefined {
  if (exit.exitCode === 0 || exit.exitCode === undefined) return undefined;
  const reason = stderrReasons.find(([pattern]) => pattern.test(exit.stderrTail));
  if (reason) return { code: reason[1], message: reason[2] };
  const known = byExitCode[exit.exitCode];
  return known ? { code: known[0], message: known[1] } : undefined;
}
