// Bounded concurrency for programs that run many sessions: every run of the pool's coders waits for
// a free slot.
import pLimit from 'p-limit';
import type { Limiter } from './session.js';

export interface PoolLimiter {
  limiter: Limiter;
  activeCount(): number;
  pendingCount(): number;
}

export function createLimiter(concurrency: number): PoolLimiter {
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError('pool concurrency must be a positive integer');
  const limit = pLimit(concurrency);
  return {
    limiter: (job) => limit(job),
    activeCount: () => limit.activeCount,
    pendingCount: () => limit.pendingCount,
  };
}
