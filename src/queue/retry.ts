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

const UNIT_MS: Record<string, number> = { h: 3_600_000, m: 60_000, min: 60_000, mins: 60_000, minute: 60_000, minutes: 60_000, s: 1_000, sec: 1_000, secs: 1_000, second: 1_000, seconds: 1_000, ms: 1, millisecond: 1, milliseconds: 1 };
// Where a delay follows: "retry-after: 7" (the HTTP header, seconds), "retry_after_ms": 1500, "retry after 2s",
// and what the CLIs pass through of OpenAI's rate-limit messages: "Please try again in 1m2.5s" (fixtures/<cli>/<version>/retry-after/).
const ANCHOR = /(retry[-_ ]?after[-_ ]?ms|retry[-_ ]?after|try again in)["']?\s*[:=]?\s*/i;
// A Go-style duration, as OpenAI writes them: 20ms, 1.5s, 1m2.5s, 1h0m0s.
const COMPACT = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+(?:\.\d+)?)(ms|s))?(?!\w)/;
// A number and a unit word; seconds when there is none (the header's unit).
const WORDY = /^(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?)?\b/i;

/** The delay at the start of `text`, in ms: a Go-style duration, else a number with an optional unit word. */
function delayAt(text: string, defaultUnitMs: number): number | undefined {
  const compact = COMPACT.exec(text);
  if (compact && compact[0] !== '') {
    const [, hours, minutes, amount, unit] = compact;
    return Number(hours ?? 0) * UNIT_MS.h! + Number(minutes ?? 0) * UNIT_MS.m! + Number(amount ?? 0) * UNIT_MS[unit ?? 's']!;
  }
  const wordy = WORDY.exec(text);
  if (!wordy) return undefined;
  return Number(wordy[1]) * (wordy[2] ? UNIT_MS[wordy[2].toLowerCase()]! : defaultUnitMs);
}

/** The retry-after a CLI reported in a text (an error message, stderr, an error record), in ms. */
export function retryAfterIn(text: string): number | undefined {
  const anchor = ANCHOR.exec(text);
  if (!anchor) return undefined;
  const inMs = /ms$/i.test(anchor[1]!);
  const delay = delayAt(text.slice(anchor.index + anchor[0].length), inMs ? 1 : 1_000);
  if (delay === undefined) return undefined;
  const ms = Math.round(delay);
  return ms > 0 && ms <= LONGEST_RETRY_AFTER_MS ? ms : undefined;
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
