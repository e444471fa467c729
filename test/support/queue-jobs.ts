// Helpers of the queue tests: queues of names no other test uses, raw BullMQ jobs written as an
// attacker with access to Redis would write them, and markers that show whether anything ran.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CoderStreamEvent } from '../../src/index.js';
import { createQueue, type CoderQueue, type QueueConfig } from '../../src/queue/index.js';
import { cleanupAfterTest } from './cleanup.js';
import { testRedis } from './redis.js';

export function queueName(): string {
  return `test-${process.pid}-${randomBytes(4).toString('hex')}`;
}

/** A queue of a name no other test uses, closed after the test. */
export function newQueue(config: Partial<QueueConfig> = {}): { queue: CoderQueue; name: string } {
  const name = config.name ?? queueName();
  const queue = createQueue({ connection: testRedis(), ...config, name });
  cleanupAfterTest(() => queue.close());
  return { queue, name };
}

/** A path in a fresh temp dir where something may leave a marker file. */
export function markerPath(label = 'marker'): string {
  return join(mkdtempSync(join(tmpdir(), 'coderline-queue-marker-')), label);
}

export const ran = (marker: string): boolean => existsSync(marker);

/** A prompt for the `scripted` adapter: the fake CLI leaves `marker` the moment it starts, then answers. */
export function markingPrompt(marker: string, text = 'ran'): string {
  return JSON.stringify([{ firstRunOnly: { flag: marker, steps: [] } }, { out: { type: 'done', text } }]);
}

/** A job written straight into BullMQ, past every check of the producer, as anyone with Redis access can. */
export async function rawJob(queue: CoderQueue, data: unknown, attempts = 1): Promise<string> {
  const job = await queue.bull.add('raw', data as never, { attempts });
  return job.id!;
}

/** Reads a job's events until one matches (the iterator stays open for more). */
export async function eventsUntil(events: AsyncIterable<CoderStreamEvent<string>> | AsyncIterator<CoderStreamEvent<string>>, match: (event: CoderStreamEvent<string>) => boolean): Promise<CoderStreamEvent<string>> {
  const iterator = Symbol.asyncIterator in events ? events[Symbol.asyncIterator]() : events;
  for (;;) {
    const next = await iterator.next();
    if (next.done) throw new Error('the job ended without the awaited event');
    if (match(next.value)) return next.value;
  }
}
