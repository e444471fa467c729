// Follows many jobs' event streams over one blocking Redis connection: one XREAD waits on every
// stream a producer follows. A newly followed stream wakes that XREAD (CLIENT UNBLOCK) so its entries
// come at once; a bounded BLOCK is the safety net for a wake that reaches Redis before the XREAD does.
// What the streams hold is anyone's who can write to Redis: an entry of another shape is skipped, a key
// that is no stream is no longer followed (the producer's watch settles that job), and an error reply
// is reported and the loop goes on.
import type { Redis } from 'ioredis';
import { streamRecordsOf, type StreamRecord } from './results.js';

const BLOCK_MS = 1_000;
/** Entries read per stream per XREAD: a long stream comes in bounded batches. */
const COUNT = 1_000;
const PAUSE_AFTER_ERROR_MS = 250;

/** Gets each batch of a stream's entries in order; returns true once it needs no more. */
export type EntriesListener = (records: StreamRecord[]) => boolean;

type Records = Array<[string, string[]]>;

export class StreamFollower {
  private readonly follows = new Map<string, { lastId: string; listener: EntriesListener }>();
  private blockingId: number | undefined;
  private running = false;
  private closed = false;

  constructor(
    private readonly blocking: Redis,
    private readonly control: Redis,
    private readonly onError: (error: Error) => void,
  ) {
    // A reconnected client has a new id: the wake must name the new one.
    blocking.on('ready', () => (this.blockingId = undefined));
  }

  follow(key: string, listener: EntriesListener): void {
    if (this.closed) throw new Error('the queue is closed');
    this.follows.set(key, { lastId: '0', listener });
    if (this.running) this.wake();
    else void this.loop();
  }

  /** Stops following a stream (its job settled another way). */
  unfollow(key: string): void {
    if (this.follows.delete(key)) this.wake();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.follows.clear();
    this.blocking.disconnect();
  }

  private wake(): void {
    if (this.blockingId !== undefined) this.control.client('UNBLOCK', this.blockingId).catch(() => {});
  }

  private async loop(): Promise<void> {
    this.running = true;
    try {
      while (this.follows.size > 0 && !this.closed) {
        try {
          await this.readOnce();
        } catch (error) {
          if (this.closed) return;
          this.onError(error as Error);
          await this.dropKeysThatAreNoStreams();
          await new Promise((resolve) => setTimeout(resolve, PAUSE_AFTER_ERROR_MS));
        }
      }
    } finally {
      this.running = false;
    }
  }

  private async readOnce(): Promise<void> {
    this.blockingId ??= Number(await this.blocking.client('ID'));
    const keys = [...this.follows.keys()];
    const ids = keys.map((key) => this.follows.get(key)!.lastId);
    const reply = (await this.blocking.xread('COUNT', COUNT, 'BLOCK', BLOCK_MS, 'STREAMS', ...keys, ...ids)) as Array<[string, Records]> | null;
    for (const [key, records] of reply ?? []) this.deliver(key, records);
  }

  /** An XREAD fails whole when one key is of another type (WRONGTYPE): those keys are followed no more. */
  private async dropKeysThatAreNoStreams(): Promise<void> {
    try {
      const keys = [...this.follows.keys()];
      const types = await Promise.all(keys.map((key) => this.control.type(key)));
      keys.forEach((key, i) => {
        if (types[i] !== 'stream' && types[i] !== 'none') this.follows.delete(key);
      });
    } catch (error) {
      if (!this.closed) this.onError(error as Error);
    }
  }

  private deliver(key: string, records: Records): void {
    const follow = this.follows.get(key);
    if (!follow || records.length === 0) return;
    follow.lastId = records[records.length - 1]![0];
    const entries = streamRecordsOf(records, () => this.onError(new Error(`${key}: an entry the queue did not write was skipped`)));
    if (entries.length > 0 && follow.listener(entries)) this.follows.delete(key);
  }
}
