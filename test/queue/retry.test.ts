// Which failures a queue retries, and the retry-after read from what a CLI printed.
import { describe, expect, it } from 'vitest';
import { exponentialDelay, isRetried, retryAfterIn } from '../../src/queue/retry.js';

describe('queue retry policy', () => {
  it('retries rate limits and server errors only', () => {
    expect(['rate_limit', 'server'].every((code) => isRetried(code as 'server'))).toBe(true);
    expect(['auth', 'invalid_options', 'invalid_output', 'aborted', 'exit'].some((code) => isRetried(code as 'auth'))).toBe(false);
    expect(isRetried(undefined)).toBe(false);
  });

  it.each([
    ['429 Too Many Requests, retry-after: 7', 7_000],
    ['{"error":{"retry_after_ms":1500}}', 1_500],
    ['rate limited; retry after 2s', 2_000],
    ['Please try again in 30 seconds.', 30_000],
    ['Retry-After: 250ms', 250],
    ['overloaded, please wait', undefined],
    ['retry-after: 99999', undefined],
  ])('reads %j as %s ms', (text, ms) => {
    expect(retryAfterIn(text)).toBe(ms);
  });

  it('backs off exponentially from the base delay', () => {
    expect([1, 2, 3].map((retry) => exponentialDelay(1_000, retry))).toEqual([1_000, 2_000, 4_000]);
  });
});
