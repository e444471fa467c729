// A failed exit with nothing on stdout: stderr says why (clap exits 2, config and resume errors exit 1).
import type { ExitInfo } from '../../core/contract/adapter.js';
import type { ErrorCode } from '../../errors.js';

const KNOWN: Array<[RegExp, ErrorCode]> = [
  // `exec resume <id>` for a thread this CODEX_HOME does not have.
  [/no rollout found for thread id/i, 'session_not_found'],
  // clap: an unknown or misplaced flag, a bad enum value.
  [/^error: (unexpected argument|invalid value|unrecognized subcommand|the argument)/i, 'invalid_options'],
  // config.toml / -c problems.
  [/Error loading config|unknown variant|unknown feature/i, 'invalid_options'],
];

export function explainCodexExit({ stderrTail }: ExitInfo): { code: ErrorCode; message: string } | undefined {
  for (const line of stderrTail.split('\n')) {
    const hit = KNOWN.find(([pattern]) => pattern.test(line.trim()));
    if (hit) return { code: hit[1], message: line.trim() };
  }
  return undefined;
}
