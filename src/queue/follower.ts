// Follows many jobs' event streams over one blocking Redis connection: one XREAD waits on every
// stream a producer follows. A newly followed stream wakes that XREAD (CLIENT UNBLOCK) so its entries
// come at once; a bounded BLOCK is the safety net for a wake that reaches Redis before the XREAD does.
import type { Redis } from 'ioredis';
import { STREAM_FIELD, type StreamEntry } from './protocol.js';

const BLOCK_MS = 1_000;

/** Gets each batch of a stream's entries in order; returns true once it needs no more. */
export type EntriesListener = (entries: StreamEntry[]) => boolean;

export class StreamFollower {
  private readonly follows = new Map<string, { lastId: string; listener: EntriesListener }>();
  private blockingId: number | undefined;
  private running = false;
  private closed = false;

  constructor(
    private readonly blocking: Redis,
    private readonly control: Redis,
  ) {}

  follow(key: string, listener: EntriesListener): void {
    if (this.closed) throw new Error('the queue is closed');
    this.follows.set(key, { lastId: '0', listener });
    if (this.running) this.wake();
    else void this.loop();
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
      this.blockingId ??= Number(await this.blocking.client('ID'));
      while (this.follows.size > 0 && !this.closed) {
        const keys = [...this.follows.keys()];
        const ids = keys.map((key) => this.follows.get(key)!.lastId);
        const reply = (await this.blocking.xread('BLOCK', BLOCK_MS, 'STREAMS', ...keys, ...ids)) as Array<[string, Array<[string, string[]]>]> | null;
        for (const [key, records] of reply ?? []) this.deliver(key, records);
      }
    } catch (error) {
      if (!this.closed) throw error;
    } finally {
      this.running = false;
    }
  }

  private deliver(key: string, records: Array<[string, string[]]>): void {
    const follow = this.follows.get(key);
    if (!follow || records.length === 0) return;
    follow.lastId = records[records.length - 1]![0];
    const entries = records.map(([, fields]) => JSON.parse(fields[fields.indexOf(STREAM_FIELD) + 1]!) as StreamEntry);
    if (follow.listener(entries)) this.follows.delete(key);
  }
}
