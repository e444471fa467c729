// A failed exit with nothing on stdout: stderr says why (OpenCode exits 1 on these).
import type { ExitInfo } from '../../core/contract/adapter.js';
import type { ErrorCode } from '../../errors.js';

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
  // OpenCode colours its error lines even off a terminal; the core hands the tail over without the escapes.
  for (const line of stderrTail.split('\n')) {
    const hit = KNOWN.find(([pattern]) => pattern.test(line.trim()));
    if (hit) return { code: hit[1], message: line.trim() };
  }
  return undefined;
}
