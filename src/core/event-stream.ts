// The async iterable behind `session.stream()`: one consumer, events in order, and backpressure that
// the consumer drives: a reader hands out one batch of lines, keeps the rest back as bytes (pausing
// its pipe when they pile up), and is asked for the next batch only when the consumer finds the queue
// empty. So events wait in the queue for as short a time as possible: events held across V8's
// young-generation collections were what made a flooded stream() grow (docs/performance.md, fix 15).
import type { CoderStreamEvent } from '../events.js';
import type { EventSink } from './child-run.js';

export class EventStream<E extends CoderStreamEvent<string>> implements EventSink, AsyncIterable<E> {
  private readonly buffer: E[] = [];
  private head = 0;
  private waiting: ((next: IteratorResult<E>) => void) | undefined;
  private failWaiting: ((error: unknown) => void) | undefined;
  /** Readers with lines kept back (stdout, stderr), each waiting to be asked for more. */
  private refills: Array<() => void> = [];
  private ended = false;
  private abandoned = false;
  private failure: { error: unknown } | undefined;

  /** `onAbandon` runs when the consumer stops iterating early (break, return, throw). */
  constructor(private readonly onAbandon: () => void) {}

  push(event: CoderStreamEvent<string>): void {
    if (this.abandoned) return;
    if (this.waiting) {
      const resolve = this.waiting;
      this.clearWaiters();
      resolve({ value: event as E, done: false });
      return;
    }
    this.buffer.push(event as E);
  }

  isFull(): boolean {
    return this.head < this.buffer.length;
  }

  whenEmpty(refill: () => void): void {
    this.refills.push(refill);
  }

  end(): void {
    this.ended = true;
    this.settleWaiter();
  }

  fail(error: unknown): void {
    this.failure = { error };
    this.ended = true;
    this.settleWaiter();
  }

  private clearWaiters(): void {
    this.waiting = undefined;
    this.failWaiting = undefined;
  }

  private settleWaiter(): void {
    if (!this.waiting) return;
    const [resolve, reject] = [this.waiting, this.failWaiting];
    this.clearWaiters();
    if (this.failure) reject?.(this.failure.error);
    else resolve({ value: undefined, done: true });
  }

  /** Asks every reader that kept lines back for its next batch. */
  private refill(): void {
    const readers = this.refills;
    this.refills = [];
    for (const refill of readers) refill();
  }

  private take(): E | undefined {
    if (this.head >= this.buffer.length && this.refills.length > 0) this.refill();
    if (this.head >= this.buffer.length) return undefined;
    const event = this.buffer[this.head]!;
    this.head += 1;
    // Taken events must not stay referenced from the array: each holds its raw record.
    if (this.head === this.buffer.length) {
      this.buffer.length = 0;
      this.head = 0;
    }
    return event;
  }

  [Symbol.asyncIterator](): AsyncIterator<E> {
    return {
      next: () => {
        const event = this.take();
        if (event !== undefined) return Promise.resolve({ value: event, done: false });
        if (this.failure) return Promise.reject(this.failure.error);
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve, reject) => {
          this.waiting = resolve;
          this.failWaiting = reject;
        });
      },
      return: () => {
        this.abandoned = true;
        this.buffer.length = 0;
        this.head = 0;
        if (!this.ended) this.onAbandon();
        // Readers hand out what they kept back (dropped now) and read on, so the run can end.
        this.refill();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
