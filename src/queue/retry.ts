// Which failed runs a queue retries, and after how long: rate limits and server errors are worth
// another attempt; auth, invalid options and invalid output would fail the same way again.
import type { ErrorCode } from '../errors.js';
import type { CoderStreamEvent } from '../events.js';

const RETRIED: ReadonlySet<ErrorCode> = new Set(['rate_limit', 'server']);
/** A retry-after longer than this is treated as a misreading: exponential backoff applies instead. */
const LONGEST_RETRY_AFTER_MS = 15 * 60_000;

export function isRetried(code: ErrorCode | undefined): boolean {
  return code !== undefined && RETRIED.has(code);
}

const UNIT_MS: Record<string, number> = { ms: 1, millisecond: 1, milliseconds: 1, s: 1_000, sec: 1_000, secs: 1_000, second: 1_000, seconds: 1_000, m: 60_000, min: 60_000, minute: 60_000, minutes: 60_000 };
// "retry-after: 7" (the HTTP header, in seconds), "retry_after_ms": 1500, "retry after 2s", "try again in 30 seconds".
const PATTERNS = [/retry[-_ ]?after[-_ ]?ms["']?\s*[:=]?\s*(\d+(?:\.\d+)?)()/i, /(?:retry[-_ ]?after|try again in)["']?\s*[:=]?\s*(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?|m|min|minutes?)?\b/i];

/** The retry-after a CLI reported in a text (an error message, stderr, an error record), in ms. */
export function retryAfterIn(text: string): number | undefined {
  for (const [index, pattern] of PATTERNS.entries()) {
    const match = pattern.exec(text);
    if (!match) continue;
    const unit = index === 0 ? 1 : UNIT_MS[(match[2] ?? 's').toLowerCase()] ?? 1_000;
    const ms = Math.round(Number(match[1]) * unit);
    return ms > 0 && ms <= LONGEST_RETRY_AFTER_MS ? ms : undefined;
  }
  return undefined;
}

/** The retry-after of a failed run: its error's message first, then its error events, last first. */
export function retryAfterOf(message: string | undefined, errorEvents: readonly CoderStreamEvent<string>[]): number | undefined {
  const texts = [message ?? '', ...errorEvents.map((event) => JSON.stringify(event.raw ?? (event.type === 'error' ? event.message : ''))).reverse()];
  for (const text of texts) {
    const ms = retryAfterIn(text);
    if (ms !== undefined) return ms;
  }
  return undefined;
}

/** Exponential backoff: `base`, then twice that, and so on (attempt 1 is the first retry). */
export function exponentialDelay(baseMs: number, retry: number): number {
  return baseMs * 2 ** (retry - 1);
}
