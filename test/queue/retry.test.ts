// Which failures a queue retries, and the retry-after read from what a CLI printed: made-up texts, and
// the real CLIs' recorded 429s (fixtures/<cli>/<version>/retry-after/, by `npm run record -- --retry-after`).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CoderStreamEvent, ProviderName } from '../../src/events.js';
import { exponentialDelay, isRetried, retryAfterIn, retryAfterOf } from '../../src/queue/retry.js';
import { resolveAdapter } from '../../src/registry.js';

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
    // Go-style durations, as OpenAI's rate-limit messages write them.
    ['Please try again in 1m2.5s.', 62_500],
    ['Please try again in 20ms.', 20],
    ['Please try again in 6m0s.', 360_000],
    ['overloaded, please wait', undefined],
    ['retry-after: 99999', undefined],
    // Copilot's summary of its own retries is no retry-after.
    ['Failed to get response from the AI model; retried 5 times (total retry wait time: 13.20 seconds) Last error: 429 Rate limit reached', undefined],
  ])('reads %j as %s ms', (text, ms) => {
    expect(retryAfterIn(text)).toBe(ms);
  });

  it('backs off exponentially from the base delay', () => {
    expect([1, 2, 3].map((retry) => exponentialDelay(1_000, retry))).toEqual([1_000, 2_000, 4_000]);
  });
});

interface RecordedLimit {
  version: string;
  meta: { error: { code: string; message: string } };
  records: unknown[];
}

/** A scenario as each recorded version of `cli` printed it. */
function recorded(cli: ProviderName, scenario: string): RecordedLimit[] {
  const root = join(import.meta.dirname, '..', '..', 'fixtures', cli);
  return readdirSync(root)
    .filter((version) => existsSync(join(root, version, 'retry-after', `${scenario}.jsonl`)))
    .map((version) => {
      const base = join(root, version, 'retry-after', scenario);
      const records = readFileSync(`${base}.jsonl`, 'utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as unknown);
      return { version, meta: JSON.parse(readFileSync(`${base}.meta.json`, 'utf8')) as RecordedLimit['meta'], records };
    });
}

/** The delay a worker takes from a failed run: its error message and its error events, through the adapter's translator. */
function queueDelayOf(cli: ProviderName, limit: RecordedLimit): number | undefined {
  const translator = resolveAdapter(cli).createTranslator({ opts: {} });
  const errors = limit.records.flatMap((record) => translator.translate(record)).filter((event) => event.type === 'error');
  return retryAfterOf(limit.meta.error.message, errors as CoderStreamEvent<string>[]);
}

describe('retry-after from the real CLIs’ recorded 429s', () => {
  const clis: ProviderName[] = ['claude', 'codex', 'copilot', 'pi', 'gemini', 'opencode'];

  it.each(clis)('%s: a retry-after header is not in what it prints, so the queue backs off exponentially', (cli) => {
    const limits = recorded(cli, 'rate-limit-retry-after');
    expect(limits.length).toBeGreaterThan(0);
    for (const limit of limits) {
      expect(limit.meta.error.code).toBe('rate_limit');
      expect(queueDelayOf(cli, limit)).toBeUndefined();
    }
  });

  // Claude, Copilot and pi pass the API's error message through; Codex prints only the status.
  it.each([
    ['claude', 62_500],
    ['codex', undefined],
    ['copilot', 62_500],
    ['pi', 62_500],
    ['gemini', 62_500],
    ['opencode', 62_500],
  ] as const)('%s: "Please try again in 1m2.5s" in the API error → the queue waits %s ms', (cli, delay) => {
    const limits = recorded(cli, 'rate-limit-try-again-in');
    expect(limits.length).toBeGreaterThan(0);
    for (const limit of limits) {
      expect(limit.meta.error.code).toBe('rate_limit');
      expect(queueDelayOf(cli, limit)).toBe(delay);
    }
  });
});
