// What a job may hold of a worker, and which session it names: anyone who can write to Redis can write
// a job, so its session ids and its numbers are checked against the worker's bounds before anything
// runs. Real redis-server, worker processes apart from the test, the fake CLI; a marker shows whether
// anything ran.
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { CoderStreamEvent } from '../../src/index.js';
import { createWorker } from '../../src/queue/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { markerPath, markingPrompt, newQueue, ran, rawJob } from '../support/queue-jobs.js';
import { testRedis } from '../support/redis.js';
import { startWorkerProcess } from '../support/queue-workers.js';

async function strictWorker(name: string, extra: Record<string, unknown> = {}) {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'coderline-queue-root-')));
  const worker = await startWorkerProcess({ name, allowOptions: [], workspaceRoot: root, ...extra });
  return { worker, root };
}

const job = (prompt: string, options: unknown, extra: Record<string, unknown> = {}) => ({ cli: 'scripted', prompt, options, events: { maxLen: 100, raw: false }, ...extra });

/** A JSON value nested `depth` objects deep. */
const nested = (depth: number): Record<string, unknown> => (depth <= 1 ? { type: 'string' } : { type: 'object', properties: { a: nested(depth - 1) } });

describe('a job names a session by its id, never a flag or a path (issue 29, second pass)', () => {
  it.each([
    ['session.resume', { resume: '--last' }],
    ['session.fork', { fork: '--dangerously-bypass-approvals-and-sandbox' }],
    ['session.resume', { resume: '../../etc/passwd' }],
    ['session.resume', { resume: '' }],
  ])('a raw job with %s %j resolves invalid_options and its CLI never starts (no new session either)', async (option, session) => {
    const { queue, name } = newQueue();
    await strictWorker(name);
    const marker = markerPath();
    // The attacker writes a job whose session id is a CLI flag, a path, or empty (which a truthiness
    // check would read as "no session" and run as a new one).
    const id = await rawJob(queue, job(markingPrompt(marker), {}, { session }));
    const result = await queue.job(id).result;
    expect(result.error?.code).toBe('invalid_options');
    expect(result.error?.message).toContain(option);
    expect(ran(marker)).toBe(false);
  });

  it('enqueue() refuses a session id that is no id before anything is queued', async () => {
    const { queue } = newQueue();
    await expect(queue.enqueue('scripted', 'x', {}, { session: { resume: '--last' } })).rejects.toThrow(/session\.resume: "--last" is not a session id/);
    expect(await queue.bull.count()).toBe(0);
  });
});

describe('a job holds no more of a worker than the worker allows (issue 29, second pass)', () => {
  it.each([
    ['stallTimeoutMs', { stallTimeoutMs: 7 * 24 * 3600_000 }, {}],
    ['terminalGraceMs', { terminalGraceMs: 24 * 3600_000 }, {}],
    ['permissionTimeoutMs', { permissionTimeoutMs: 24 * 3600_000 }, {}],
    ['maxLineBytes', { maxLineBytes: 2 ** 31 }, {}],
    ['events.maxLen', {}, { events: { maxLen: 1e9, raw: false } }],
    ['outputSchemaDepth', { outputSchema: nested(40) }, {}],
    ['outputSchemaBytes', { outputSchema: { type: 'object', description: 'x'.repeat(100_000) } }, {}],
    ['outputSchemaBytes', { outputJsonSchema: { type: 'object', description: 'x'.repeat(100_000) } }, {}],
    ['attachments', { files: Array.from({ length: 40 }, (_, i) => `f${i}.txt`) }, {}],
  ])('a raw job past the worker\'s %s bound resolves invalid_options naming it, and its CLI never starts', async (bound, options, extra) => {
    const { queue, name } = newQueue();
    await strictWorker(name);
    const marker = markerPath();
    // The attacker asks for more of the worker than a job needs: a slot, a buffer or Redis held for as long as they like.
    const id = await rawJob(queue, job(markingPrompt(marker), options, extra));
    const result = await queue.job(id).result;
    expect(result.error?.code).toBe('invalid_options');
    expect(result.error?.message).toContain(`jobLimits.${bound.replace('events.maxLen', 'eventsMaxLen')}`);
    expect(ran(marker)).toBe(false);
  });

  it('attempts and backoff past the bounds, written in BullMQ\'s own job options, are refused', async () => {
    const { queue, name } = newQueue();
    await strictWorker(name);
    const marker = markerPath();
    // The attacker's job retries a million times, an hour apart.
    const added = await queue.bull.add('raw', job(markingPrompt(marker), {}) as never, { attempts: 1_000_000, backoff: { type: 'coderline', delay: 3600_000 } });
    const result = await queue.job(added.id!).result;
    expect(result.error?.code).toBe('invalid_options');
    expect(result.error?.message).toMatch(/attempts: 1000000[\s\S]*jobLimits\.attempts[\s\S]*backoff: 3600000 ms[\s\S]*jobLimits\.backoffMs/);
    expect(ran(marker)).toBe(false);
  });

  it('a worker\'s own bounds hold: a file and a prompt over them are refused, a job within them runs', async () => {
    const { queue, name } = newQueue();
    const { root } = await strictWorker(name, { jobLimits: { attachmentBytes: 1_000, promptBytes: 2_000 } });
    mkdirSync(join(root, 'repo'));
    writeFileSync(join(root, 'repo', 'big.txt'), 'x'.repeat(5_000));
    const marker = markerPath();
    // The attacker attaches a file larger than the worker reads for a job, and a long prompt.
    const big = await queue.enqueue('scripted', markingPrompt(marker), { workingDirectory: join(root, 'repo'), files: ['big.txt'] });
    expect((await big.result).error?.message).toMatch(/files: 5000 bytes \(big\.txt\), more than this worker's jobLimits\.attachmentBytes \(1000\)/);
    const long = await queue.enqueue('scripted', markingPrompt(marker, 'x'.repeat(3_000)), {});
    expect((await long.result).error?.message).toContain('jobLimits.promptBytes (2000)');
    expect(ran(marker)).toBe(false);
    const fine = await queue.enqueue('scripted', markingPrompt(marker), { workingDirectory: join(root, 'repo'), stallTimeoutMs: 60_000 });
    expect(await fine.result).toMatchObject({ status: 'success', text: 'ran' });
    expect(ran(marker)).toBe(true);
  });

  it('a bound that is no positive integer fails createWorker at once', () => {
    expect(() => createWorker({ connection: { host: '127.0.0.1', port: 1, lazyConnect: true }, name: 'x', handleSignals: false, jobLimits: { attempts: 0 } })).toThrow(/jobLimits\.attempts must be a positive integer/);
  });
});

describe("a job's event stream holds entries of a bounded size (what the CLI prints decides a line's size)", () => {
  it('an event over jobLimits.streamEntryBytes loses its raw record, a raw line over it becomes a warning, the result stays whole', async () => {
    const { queue, name } = newQueue();
    await strictWorker(name, { jobLimits: { streamEntryBytes: 50_000 } });
    // The agent prints one 300 kB record (a file it read, a web page): with raw lines on, the stream would
    // hold it twice, and a worker's eventsMaxLen of them is gigabytes in Redis.
    const prompt = JSON.stringify([{ bigLine: 300_000 }, { out: { type: 'message', text: 'm'.repeat(80_000) } }, { out: { type: 'done', text: 'finished' } }]);
    const handle = await queue.enqueue('scripted', prompt, {}, { events: { raw: true } });
    const events: CoderStreamEvent<string>[] = [];
    for await (const event of handle.events) events.push(event);
    const raw: string[] = [];
    for await (const line of handle.rawLines) raw.push(line);
    expect(await handle.result).toMatchObject({ status: 'success', text: 'finished' });

    const big = events.find((event) => event.type === 'progress' && event.subtype === 'big');
    expect(big?.raw).toMatchObject({ omitted: 'over the stream entry bound' });
    expect((big?.raw as { bytes: number }).bytes).toBeGreaterThan(300_000);
    const warnings = events.filter((event) => event.type === 'progress' && event.subtype === 'stream_entry_too_large');
    // The raw big line, the 80 kB message (over the bound without its raw too) and its raw line.
    expect(warnings.map((event) => (event.raw as { entry: string; type?: string }).type ?? 'raw line').sort()).toEqual(['message', 'raw line', 'raw line']);
    expect(warnings[0]).toMatchObject({ provider: 'scripted', kind: 'warning' });
    expect(raw.length).toBeGreaterThan(0);

    const redis = new Redis(testRedis());
    cleanupAfterTest(() => redis.disconnect());
    const entries = await redis.xrange(`coderline:${name}:events:${handle.id}`, '-', '+');
    expect(entries.length).toBeGreaterThan(3);
    for (const [, fields] of entries) expect(Buffer.byteLength(fields[1]!)).toBeLessThanOrEqual(50_000);
  });
});
