// Bounded concurrency for programs that run many sessions: every run of the pool's coders waits for
// a free slot, and the runs that wait get one in the order they came. Our own queue rather than
// p-limit, which is ESM-only: the CommonJS build could load it only through require(esm), newer than
// the Node versions `engines` admits (docs/decisions.md).
import type { Limiter } from './session.js';

export interface PoolLimiter {
  limiter: Limiter;
  activeCount(): number;
  pendingCount(): number;
}

/** First in, first out, each take O(1) however long the line (a pool may hold thousands of runs). */
class WaitingLine {
  private items: Array<() => void> = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: () => void): void {
    this.items.push(item);
  }

  take(): (() => void) | undefined {
    if (this.head === this.items.length) return undefined;
    const item = this.items[this.head]!;
    this.head += 1;
    // Drop the taken half once it is the larger part, so the array does not only grow.
    if (this.head * 2 >= this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}

export function createLimiter(concurrency: number): PoolLimiter {
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new RangeError('pool concurrency must be a positive integer');
  let active = 0;
  const waiting = new WaitingLine();
  const release = () => {
    const next = waiting.take();
    // The slot passes straight to the next run in line: a run that comes meanwhile cannot take it.
    if (next) next();
    else active -= 1;
  };
  const limiter: Limiter = async (job) => {
    if (active < concurrency) active += 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await job();
    } finally {
      release();
    }
  };
  return { limiter, activeCount: () => active, pendingCount: () => waiting.length };
}
