// The async iterable behind `session.stream()`: events in order, and backpressure that the consumer
// drives once it reads: a reader hands out one batch of lines, keeps the rest back as bytes (pausing
// its pipe when they pile up), and is asked for the next batch only when the consumer finds the queue
// empty. So events wait in the queue for as short a time as possible: events held across V8's
// young-generation collections were what made a flooded stream() grow (docs/performance.md, fix 15).
//
// Until someone asks for an iterator nothing is paced, or `await stream.result` alone would wait for
// a reader that never comes: the run reads on, and the stream keeps only the events of the latest
// UNREAD_KEPT_BYTES of output. A reader that comes later is told first how many were dropped.
import type { CoderStreamEvent } from '../../events.js';
import type { EventSink } from './child-run.js';

/** Before the first read, the events of about this much of the CLI's latest output are kept. */
export const UNREAD_KEPT_BYTES = 1024 * 1024;

interface Waiter<E> {
  resolve(next: IteratorResult<E>): void;
  reject(error: unknown): void;
}

export class EventStream<E extends CoderStreamEvent<string>> implements EventSink, AsyncIterable<E> {
  private buffer: E[] = [];
  private head = 0;
  /** Calls of next() waiting for an event, first come first served. */
  private readonly waiters: Waiter<E>[] = [];
  /** Readers with lines kept back (stdout, stderr), each waiting to be asked for more. */
  private refills: Array<() => void> = [];
  private ended = false;
  private abandoned = false;
  private failure: { error: unknown } | undefined;
  private reading = false;
  /** An event went straight to a waiting next() since the consumer last asked: it is busy with it. */
  private handedOut = false;
  /** Before the first read: the buffered events in runs, one per piece of output they came from. */
  private readonly unread = { counts: [] as number[], bytes: [] as number[], counted: 0, keptBytes: 0, dropped: 0 };

  /** `onAbandon` runs when the consumer stops iterating early (break, return, throw). */
  constructor(
    private readonly provider: E['provider'],
    private readonly onAbandon: () => void,
  ) {}

  push(event: CoderStreamEvent<string>): void {
    if (this.abandoned) return;
    if (this.waiters.length > 0) {
      this.waiters.shift()!.resolve({ value: event as E, done: false });
      this.handedOut = true;
    } else this.buffer.push(event as E);
  }

  /** The consumer has events it has not come back from: an event handed to a waiting next(), or a queue. */
  isFull(): boolean {
    return this.reading && (this.handedOut || this.head < this.buffer.length);
  }

  whenEmpty(refill: () => void): void {
    this.refills.push(refill);
  }

  /** Nobody reads yet: the events pushed since the last call came from `bytes` of output; older ones go past the limit. */
  received(bytes: number): void {
    if (this.reading || this.abandoned) return;
    const unread = this.unread;
    unread.counts.push(this.buffer.length - unread.counted);
    unread.bytes.push(bytes);
    unread.counted = this.buffer.length;
    unread.keptBytes += bytes;
    while (unread.keptBytes > UNREAD_KEPT_BYTES && unread.counts.length > 1) {
      const count = unread.counts.shift()!;
      unread.keptBytes -= unread.bytes.shift()!;
      this.buffer.splice(0, count);
      unread.counted -= count;
      unread.dropped += count;
    }
  }

  end(): void {
    this.ended = true;
    this.settleWaiters();
  }

  fail(error: unknown): void {
    this.failure = { error };
    this.ended = true;
    this.settleWaiters();
  }

  private settleWaiters(): void {
    for (const waiter of this.waiters.splice(0)) {
      if (this.failure) waiter.reject(this.failure.error);
      else waiter.resolve({ value: undefined, done: true });
    }
  }

  /** From the first iterator on, the consumer paces the run; events dropped before are announced first. */
  private startReading(): void {
    if (this.reading) return;
    this.reading = true;
    const { dropped } = this.unread;
    if (dropped === 0) return;
    const notice = {
      type: 'progress',
      kind: 'warning',
      subtype: 'unread_events_dropped',
      message: `${dropped} earlier events of this run were dropped: nobody read the stream while they came (until the first read it keeps the events of the latest ${UNREAD_KEPT_BYTES / 2 ** 20} MiB of output; collectEvents keeps them all)`,
      raw: null,
      provider: this.provider,
      ts: Date.now(),
    };
    this.buffer.unshift(notice as E);
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
    this.startReading();
    return {
      next: () => {
        this.handedOut = false;
        const event = this.take();
        if (event !== undefined) return Promise.resolve({ value: event, done: false });
        if (this.failure) return Promise.reject(this.failure.error);
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
      },
      return: () => {
        this.abandoned = true;
        this.buffer.length = 0;
        this.head = 0;
        if (!this.ended) this.onAbandon();
        // Readers hand out what they kept back (dropped now) and read on, so the run can end.
        this.refill();
        // Calls of next() still waiting end with the loop.
        this.settleWaiters();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
