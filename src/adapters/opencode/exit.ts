// A failed exit with nothing on stdout: stderr says why (OpenCode exits 1 on these).
import type { ExitInfo } from '../../core/contract/adapter.js';
import type { ErrorCode } from '../../errors.js';

const ANSI = /\x1b\[[0-9;]*m/g;

const KNOWN: Array<[RegExp, ErrorCode]> = [
  [/^Error: Session not found/i, 'session_not_found'],
  // The placeholder the registry package ships until its postinstall links the platform binary.
  [/postinstall script was not run|failed to install the right opencode CLI package/i, 'platform_not_supported'],
  [/^Error: File not found/i, 'invalid_options'],
  [/^Error: You must provide a message/i, 'invalid_options'],
  // yargs: an unknown flag or a bad choice prints the usage and this line.
  [/^(Unknown argument|Invalid values|Not enough arguments)/i, 'invalid_options'],
];

export function explainOpencodeExit({ stderrTail }: ExitInfo): { code: ErrorCode; message: string } | undefined {
  // OpenCode colours its error lines (`\x1b[91m\x1b[1mError: \x1b[0mSession not found`) even off a terminal.
  for (const line of stderrTail.replace(ANSI, '').split('\n')) {
    const hit = KNOWN.find(([pattern]) => pattern.test(line.trim()));
    if (hit) return { code: hit[1], message: line.trim() };
  }
  return undefined;
}
