// Bounded concurrency for programs that run many sessions: every run of the pool's coders waits for
// a free slot.
import type { LimitFunction } from 'p-limit';
import type { Limiter } from './session.js';

export interface PoolLimiter {
  limiter: Limiter;
  activeCount(): number;
  pendingCount(): number;
}

export function createLimiter(concurrency: number): PoolLimiter {
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError('pool concurrency must be a positive integer');
  // p-limit loads with the pool's first run, not with the package: most programs never make a pool.
  let limit: LimitFunction | undefined;
  let loading: Promise<LimitFunction> | undefined;
  let waitingForLoad = 0;
  const limiter: Limiter = async (job) => {
    if (!limit) {
      waitingForLoad += 1;
      try {
        // Runs that wait here resume in the order they came, so they queue in that order too.
        limit = await (loading ??= import('p-limit').then(({ default: pLimit }) => pLimit(concurrency)));
      } finally {
        waitingForLoad -= 1;
      }
    }
    return limit(job);
  };
  return {
    limiter,
    activeCount: () => limit?.activeCount ?? 0,
    pendingCount: () => (limit?.pendingCount ?? 0) + waitingForLoad,
  };
}
