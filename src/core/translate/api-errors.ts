// Model-API failures as the user's ErrorCode: every CLI reports the HTTP status or the error text
// of its model provider somewhere; the meaning of those is the same whichever CLI relays them.
import type { ErrorCode } from '../../errors.js';

/** The ErrorCode for an HTTP status of a model API; undefined when the status says nothing specific. */
export function errorCodeForHttpStatus(status: number | null | undefined): ErrorCode | undefined {
  if (status === null || status === undefined) return undefined;
  if (status === 401 || status === 403) return 'auth';
  if (status === 429) return 'rate_limit';
  if (status === 413) return 'context_too_large';
  if (status >= 500) return 'server'; // includes 529 "overloaded"
  return undefined;
}

const messagePatterns: Array<[RegExp, ErrorCode]> = [
  [/prompt is too long|context (length|window)|too many tokens|maximum context/i, 'context_too_large'],
  [/rate.?limit|too many requests|quota/i, 'rate_limit'],
  [/unauthori[sz]ed|authentication|invalid (x-)?api.?key|not logged in|forbidden/i, 'auth'],
  [/overloaded|internal (server )?error|server.?error|bad gateway|service unavailable|timed? ?out/i, 'server'],
];

/** The ErrorCode an error message points to, when it names a known kind of failure. */
export function errorCodeForMessage(message: string | null | undefined): ErrorCode | undefined {
  if (!message) return undefined;
  return messagePatterns.find(([pattern]) => pattern.test(message))?.[1];
}

/** Status first (it is exact), then the text; `fallback` when neither says anything. */
export function classifyApiError(
  status: number | null | undefined,
  message: string | null | undefined,
  fallback: ErrorCode,
): ErrorCode {
  return errorCodeForHttpStatus(status) ?? errorCodeForMessage(message) ?? fallback;
}
