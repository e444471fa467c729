// The async iterable behind `session.stream()`: one consumer, events in order, and backpressure —
// when the consumer falls behind, the CLI's stdout is paused instead of events piling up in memory.
import type { CoderStreamEvent } from '../events.js';
import type { EventSink } from './child-run.js';

const HIGH_WATER = 512;
const LOW_WATER = 64;

export class EventStream<E extends CoderStreamEvent<string>> implements EventSink, AsyncIterable<E> {
  private readonly buffer: E[] = [];
  private head = 0;
  private waiting: ((next: IteratorResult<E>) => void) | undefined;
  private failWaiting: ((error: unknown) => void) | undefined;
  /** One promise for every reader waiting for room (stdout and stderr each may wait). */
  private drain: { promise: Promise<void>; resolve(): void } | undefined;
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

  backlogged(): boolean {
    return this.buffer.length - this.head >= HIGH_WATER;
  }

  whenDrained(): Promise<void> {
    if (!this.drain) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => (resolve = done));
      this.drain = { promise, resolve };
    }
    return this.drain.promise;
  }

  private releaseDrain(): void {
    const drain = this.drain;
    this.drain = undefined;
    drain?.resolve();
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

  private take(): E | undefined {
    if (this.head >= this.buffer.length) return undefined;
    const event = this.buffer[this.head]!;
    this.head += 1;
    // Taken events must not stay referenced from the array: each holds its raw record, and kept
    // alive long enough it is promoted to the old generation, where garbage waits for a full GC.
    if (this.head === this.buffer.length) {
      this.buffer.length = 0;
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.buffer.length) {
      this.buffer.splice(0, this.head);
      this.head = 0;
    }
    if (this.drain && this.buffer.length - this.head <= LOW_WATER) this.releaseDrain();
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
        this.releaseDrain();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
