import type { ExitInfo } from '../../core/adapter.js';
import type { ErrorCode } from '../../errors.js';
export function explainCopilotExit(_exit: ExitInfo): { code: ErrorCode; message: string } | undefined {
  return undefined;
}
