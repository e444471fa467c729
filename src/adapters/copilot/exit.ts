// Why `copilot` exited non-zero without a JSON error record, read from its stderr (copilot 1.0.102).
import type { ExitInfo } from '../../core/contract/adapter.js';
import type { ErrorCode } from '../../errors.js';

const stderrReasons: Array<[RegExp, ErrorCode, string]> = [
  [/No authentication information found|could not be validated|Not authenticated/i, 'auth', 'Copilot is not signed in: set COPILOT_GITHUB_TOKEN / GH_TOKEN, run `copilot login`, or configure a provider (COPILOT_PROVIDER_BASE_URL).'],
  [/Offline mode requires a local model provider/i, 'invalid_options', 'COPILOT_OFFLINE=true needs COPILOT_PROVIDER_BASE_URL (and a model).'],
  [/No such agent: ([^,\n]*)/i, 'invalid_options', 'the copilotAgent does not exist.'],
  [/No session, task, or name matched|No session or task matched/i, 'session_not_found', 'the session to resume does not exist (in this COPILOT_HOME).'],
  [/Invalid command format|unexpected argument|invalid value/i, 'invalid_options', 'the CLI refused its command line (an option this version does not know?).'],
  [/No prompt provided/i, 'invalid_options', 'the prompt was empty.'],
];

export function explainCopilotExit(exit: ExitInfo): { code: ErrorCode; message: string } | undefined {
  if (exit.exitCode === 0 || exit.exitCode === undefined) return undefined;
  const match = stderrReasons.find(([pattern]) => pattern.test(exit.stderrTail));
  return match ? { code: match[1], message: match[2] } : undefined;
}
