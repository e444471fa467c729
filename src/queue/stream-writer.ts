// A job's event stream as the worker writes it: entries go to Redis in order, in batches (one XADD
// per entry, pipelined, while the batch before is in flight), so a CLI faster than Redis queues
// entries here, never Redis commands. At most `maxLen` entries wait: the stream keeps no more than
// that anyway, so older ones waiting are dropped as Redis would trim them. A refused write is retried;
// one refused for good is reported and the rest of the job's events are dropped, never thrown. An entry
// is at most `maxEntryBytes`: the CLI's output decides how large a line is (32 MiB by default), and the
// stream keeps `maxLen` of them.
import type { Redis } from 'ioredis';
import { STREAM_FIELD, type StreamEntry } from './protocol.js';

/** The entry as JSON, made to fit: an event without its raw record, else a warning in its place. */
export function entryText(entry: StreamEntry, maxBytes: number, provider: string): string {
  const text = JSON.stringify(entry);
  // A JSON string's UTF-8 length is at most three bytes per UTF-16 unit: most entries need no count.
  if (text.length * 3 <= maxBytes || Buffer.byteLength(text) <= maxBytes || entry.t === 'result') return text;
  const bytes = Buffer.byteLength(text);
  if (entry.t === 'event') {
    const slim = JSON.stringify({ t: 'event', event: { ...entry.event, raw: { omitted: 'over the stream entry bound', bytes } } });
    if (Buffer.byteLength(slim) <= maxBytes) return slim;
  }
  const what = entry.t === 'event' ? `a ${entry.event.type} event` : 'a raw line';
  const warning = { type: 'progress', kind: 'warning', subtype: 'stream_entry_too_large', message: `${what} of ${bytes} bytes was left out: it is over this worker's jobLimits.streamEntryBytes (${maxBytes}); the run's result still has the final answer`, provider, ts: Date.now(), raw: { entry: entry.t, ...(entry.t === 'event' ? { type: entry.event.type } : {}), bytes } };
  return JSON.stringify({ t: 'event', event: warning });
}

/** How long to wait before each retry of a refused write (Redis out of memory, a failover, …). */
const WRITE_RETRY_DELAYS_MS = [100, 500, 2_000] as const;
const BATCH = 256;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `write` until it succeeds, retrying after each delay of WRITE_RETRY_DELAYS_MS; the last failure is thrown. */
export async function withWriteRetries<T>(write: () => Promise<T>): Promise<T> {
  for (const delay of WRITE_RETRY_DELAYS_MS) {
    try {
      return await write();
    } catch {
      await sleep(delay);
    }
  }
  return write();
}

export class StreamWriter {
  private pending: string[] = [];
  private flushing: Promise<void> | undefined;
  private failed = false;
  private lastRefusal: Error | undefined;

  private readonly maxLen: number;
  private readonly maxEntryBytes: number;
  private readonly provider: string;

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    bounds: { maxLen: number; maxEntryBytes: number; provider: string },
    private readonly onError: (error: Error) => void,
  ) {
    this.maxLen = bounds.maxLen;
    this.maxEntryBytes = bounds.maxEntryBytes;
    this.provider = bounds.provider;
  }

  push(entry: StreamEntry): void {
    if (this.failed) return;
    this.pending.push(entryText(entry, this.maxEntryBytes, this.provider));
    if (this.pending.length > this.maxLen) this.pending.splice(0, this.pending.length - this.maxLen);
    this.flushing ??= this.flush();
  }

  /** Resolves once every entry pushed so far is in Redis (or given up on). */
  async drained(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private async flush(): Promise<void> {
    while (this.pending.length > 0 && !this.failed) {
      let batch = this.pending.splice(0, BATCH);
      try {
        // A retry sends the batch from its first refused entry on, so the stream keeps the run's order.
        await withWriteRetries(async () => {
          batch = await this.unsent(batch);
          if (batch.length > 0) throw new Error(`Redis refused ${batch.length} of the job's events`);
        });
      } catch (error) {
        this.failed = true;
        this.pending = [];
        this.onError(new Error(`events of ${this.key} are no longer written: ${(this.lastRefusal ?? (error as Error)).message}`, { cause: error }));
      }
    }
    this.flushing = undefined;
  }

  /** Sends a batch in one pipeline; returns the entries from the first one Redis refused on. */
  private async unsent(batch: string[]): Promise<string[]> {
    const pipeline = this.redis.pipeline();
    for (const entry of batch) pipeline.xadd(this.key, 'MAXLEN', '~', this.maxLen, '*', STREAM_FIELD, entry);
    const replies = (await pipeline.exec()) ?? [];
    const refused = replies.findIndex(([error]) => error);
    if (refused >= 0) this.lastRefusal = replies[refused]![0]!;
    return refused < 0 ? [] : batch.slice(refused);
  }
}
