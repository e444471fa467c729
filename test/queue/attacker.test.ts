// The queue attacked again by someone who can write to Redis (issue 29, second pass): what a job's id,
// the cancel channel, a hand-written result and the job's data can do to producers and workers, and
// where a job's secrets go. Real redis-servers, worker processes apart from the test, the fake CLI.
import { inspect } from 'node:util';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createQueue, createWorker } from '../../src/queue/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { done, fakeAdapter, script } from '../support/fake-adapter.js';
import { markerPath, markingPrompt, newQueue, queueName, ran, rawJob } from '../support/queue-jobs.js';
import { startWorkerProcess } from '../support/queue-workers.js';
import { isGroupAlive } from '../support/processes.js';
import { startRedis, testRedis } from '../support/redis.js';
import { waitFor } from '../support/wait.js';

const SECRET = 'sk-queue-secret-0123456789';

function redisClient(): Redis {
  const redis = new Redis(testRedis());
  cleanupAfterTest(() => redis.disconnect());
  return redis;
}

/** Every value under the queue's coderline keys, as text: streams entry by entry, strings whole. */
async function coderlineKeysText(redis: Redis, name: string): Promise<string> {
  const keys = await redis.keys(`coderline:${name}:*`);
  const values = await Promise.all(keys.map(async (key) => ((await redis.type(key)) === 'stream' ? JSON.stringify(await redis.xrange(key, '-', '+')) : String(await redis.get(key)))));
  return values.join('\n');
}

describe("a job's secrets stay out of what the queue writes (issue 29, second pass)", () => {
  it("an extraEnv value the worker allowed is in no event, raw line or result in Redis, though the CLI printed it", async () => {
    const { queue, name } = newQueue();
    await startWorkerProcess({ name });
    const redis = redisClient();
    // The CLI prints the secret (as an agent's shell would echo an API key); the job asks for raw lines,
    // so the stream every reader of the queue's Redis can read would carry it.
    const handle = await queue.enqueue('fake', 'x', script([{ echoEnv: ['JOB_API_TOKEN'] }, done(`token ${SECRET}`)], { JOB_API_TOKEN: SECRET }), { events: { raw: true } });
    const raw: string[] = [];
    for await (const line of handle.rawLines) raw.push(line);
    const result = await handle.result;
    expect(result.status).toBe('success');
    expect(raw.some((line) => line.includes('<redacted>'))).toBe(true);
    expect(result.text).toBe('token <redacted>');
    expect(await coderlineKeysText(redis, name)).not.toContain(SECRET);
  });

  it("the app's onError gets no Redis command arguments: not the password of a refused login, not a job's events", async () => {
    const password = 'right-password-0123456789';
    const server = await startRedis({ args: ['--requirepass', password], password });
    cleanupAfterTest(() => server.stop());
    const reported: Error[] = [];
    const name = queueName();
    // A worker and a producer configured with a stale password: ioredis's errors carry the HELLO
    // command it sent, with that password in it, and a logger of onError's errors would print it.
    const wrong = { host: '127.0.0.1', port: server.port, password: 'stale-password-0123456789', maxRetriesPerRequest: null };
    const worker = createWorker({ connection: wrong, name, handleSignals: false, onError: (error) => reported.push(error) });
    const queue = createQueue({ connection: wrong, name, onError: (error) => reported.push(error) });
    await waitFor(() => reported.length >= 4);
    worker.close().catch(() => {});
    queue.close().catch(() => {});
    expect(reported.map((error) => error.message).join('\n')).toMatch(/WRONGPASS/);
    expect(inspect(reported, { depth: 10 })).not.toContain('stale-password');
  });

  it("a refused event write reaches onError without the events it carried", async () => {
    const name = queueName();
    const { queue } = newQueue({ name });
    const reported: Error[] = [];
    const worker = createWorker({ connection: testRedis(), name, allowOptions: ['extraEnv'], adapters: [fakeAdapter()], handleSignals: false, onError: (error) => reported.push(error) });
    cleanupAfterTest(() => worker.close());
    await worker.ready();
    const redis = redisClient();
    // The attacker makes the next job's stream key a string: every XADD of its events is refused.
    const next = String(Number(await redis.get(`bull:${name}:id`) ?? 0) + 1);
    await redis.set(`coderline:${name}:events:${next}`, 'not a stream');
    const handle = await queue.enqueue('fake', 'x', script([{ out: { type: 'message', text: 'job-content-visible-to-no-logger', delta: false } }, done('ok')]));
    expect(handle.id).toBe(next);
    expect((await handle.result).status).toBe('success');
    await waitFor(() => reported.some((error) => /no longer written/.test(error.message)));
    expect(inspect(reported, { depth: 10 })).not.toContain('job-content-visible-to-no-logger');
  });
});

describe('what a hand-written result or job does to a producer and a worker (issue 29, second pass)', () => {
  const wireResult = { provider: 'fake', status: 'success', text: 'forged', output: undefined, sessionId: undefined, usage: { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 }, exitCode: 0, durationMs: 1, error: undefined };

  it.each([
    ['huge events', { ...wireResult, events: Array.from({ length: 50_000 }, (_, i) => ({ type: 'message', text: `forged ${i}` })) }],
    ['usage of strings', { ...wireResult, usage: { inputTokens: 'many', cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 } }],
    ['an error code that is none', { ...wireResult, status: 'error', error: { name: 'CoderError', code: 'pwned', message: 'x' } }],
    ['a pid that is a string', { ...wireResult, pid: 'kill -9 1' }],
    ['a getter-shaped __proto__', JSON.parse(`{"provider":"fake","status":"success","text":"x","usage":{"inputTokens":0,"cachedInputTokens":0,"outputTokens":0,"reasoningTokens":0},"durationMs":1,"__proto__":{"then":1}}`)],
  ])('a result key written by hand with %s settles the handle with a RunResult of the queue\'s fields only, or a protocol error', async (_label, forged) => {
    const { queue, name } = newQueue();
    const redis = redisClient();
    const id = await rawJob(queue, { cli: 'fake', prompt: 'x', options: {}, events: { maxLen: 100, raw: false } });
    // The attacker writes the job's result key before any worker runs it, with fields the queue never writes.
    await redis.set(`coderline:${name}:result:${id}`, JSON.stringify(forged));
    const result = await queue.job(id).result;
    expect(Object.keys(result).every((key) => ['provider', 'status', 'text', 'output', 'sessionId', 'usage', 'exitCode', 'signal', 'durationMs', 'error', 'pid', 'cliVersion'].includes(key))).toBe(true);
    if (result.status === 'success') {
      expect(result.text).toBe(forged.text);
      expect(Object.values(result.usage).every((value) => typeof value === 'number')).toBe(true);
      expect(['number', 'undefined']).toContain(typeof result.pid);
    } else {
      expect(result.error?.code).toBe('protocol');
    }
  });

  it('a result key larger than any the queue writes settles the handle as a protocol error, without reading it whole', async () => {
    const { queue, name } = newQueue();
    const redis = redisClient();
    const id = await rawJob(queue, { cli: 'fake', prompt: 'x', options: {}, events: { maxLen: 100, raw: false } });
    // The attacker writes a 100 MB result key (SETRANGE pads it with zero bytes); Redis takes up to 512 MB,
    // past the longest string V8 makes, which the producer's Redis client would fail to read.
    await redis.setrange(`coderline:${name}:result:${id}`, 100 * 1024 * 1024, '}');
    cleanupAfterTest(() => redis.del(`coderline:${name}:result:${id}`).then(() => {}));
    const result = await queue.job(id).result;
    expect(result.error?.code).toBe('protocol');
    expect(result.error?.message).toContain('larger than any the queue writes');
  });

  it("events of the wrong shape written into a job's stream by hand are skipped (and reported); the ones the SDK makes reach the reader", async () => {
    const reported: Error[] = [];
    const { queue, name } = newQueue({ onError: (error) => reported.push(error) });
    const redis = redisClient();
    const id = await rawJob(queue, { cli: 'fake', prompt: 'x', options: {}, events: { maxLen: 100, raw: false } });
    const stream = `coderline:${name}:events:${id}`;
    const base = { provider: 'fake', ts: 1, raw: null };
    // The attacker appends events a reader's code would trust by their type: a text that is an object,
    // an error code no switch knows, a type that is none, usage of strings; then one that is fine.
    const forged = [
      { ...base, type: 'message', role: 'assistant', text: { toString: 'x' }, delta: false },
      { ...base, type: 'error', code: 'pwned', message: 'x', fatal: true },
      { ...base, type: '__proto__' },
      { ...base, type: 'usage', usage: { inputTokens: 'lots' } },
      { type: 'message', role: 'assistant', text: 'no provider', delta: false },
      { ...base, type: 'message', role: 'assistant', text: 'well formed', delta: false },
    ];
    for (const event of forged) await redis.xadd(stream, '*', 'e', JSON.stringify({ t: 'event', event }));
    await redis.xadd(stream, '*', 'e', JSON.stringify({ t: 'result', result: { ...wireResult, text: 'well formed' } }));
    const handle = queue.job(id);
    const result = handle.result;
    const events: unknown[] = [];
    for await (const event of handle.events) events.push(event);
    expect(events).toEqual([forged[5]]);
    expect((await result).text).toBe('well formed');
    expect(reported.filter((error) => /not write was skipped/.test(error.message))).toHaveLength(5);
  });

  it('anyone who may publish on the cancel channel cancels any job, as docs/scale.md says: it resolves cancelled and its CLI is gone', async () => {
    const { queue, name } = newQueue();
    await startWorkerProcess({ name });
    const redis = redisClient();
    const handle = await queue.enqueue('fake', 'x', script([{ out: { type: 'init', sessionId: 'c' } }, { hang: 1 }]));
    for await (const event of handle.events) if (event.type === 'init') break;
    // Another client of the queue's Redis, with no handle on the job, names it on the channel.
    await redis.publish(`coderline:${name}:cancel`, handle.id);
    const result = await handle.result;
    expect(result.status).toBe('cancelled');
    expect(result.error?.code).toBe('aborted');
    expect(result.pid).toBeTypeOf('number');
    await waitFor(() => !isGroupAlive(result.pid!));
  });

  it('a job named __proto__ with cli __proto__ is refused and the worker then runs a good job', async () => {
    const { queue, name } = newQueue();
    const { child, stderr } = await startWorkerProcess({ name, allowOptions: [] });
    // The attacker names the BullMQ job and its CLI after the prototype.
    const added = await queue.bull.add('__proto__', { cli: '__proto__', prompt: 'x', options: {}, events: { maxLen: 100, raw: false } } as never, { attempts: 1 });
    expect((await queue.job(added.id!).result).error?.code).toBe('invalid_options');
    const good = await queue.enqueue('scripted', markingPrompt(markerPath(), 'after __proto__'), {});
    expect(await good.result).toMatchObject({ status: 'success', text: 'after __proto__' });
    expect(child.exitCode).toBeNull();
    expect(stderr()).not.toMatch(/Unhandled/);
  });

  it("a custom job id shaped like another job's keys reaches none of them: each job keeps its own result and events", async () => {
    const { queue, name } = newQueue();
    await startWorkerProcess({ name, allowOptions: [] });
    const marker = markerPath();
    const victim = await queue.enqueue('scripted', markingPrompt(marker, 'victim'), {});
    expect((await victim.result).text).toBe('victim');
    // The attacker picks job ids that read like the victim's key names (BullMQ takes a custom id with two colons).
    const forged = await Promise.all([`result:${victim.id}:x`, `events:${victim.id}:x`, `cancelled:${victim.id}:x`, `*:?:[x]`].map(async (jobId) =>
      (await queue.bull.add('raw', { cli: 'scripted', prompt: markingPrompt(markerPath(), `forged ${jobId}`), options: {}, events: { maxLen: 100, raw: false } } as never, { jobId, attempts: 1 })).id!));
    for (const id of forged) expect((await queue.job(id).result).text).toBe(`forged ${id}`);
    const again = queue.job(victim.id);
    expect((await again.result).text).toBe('victim');
    const texts: string[] = [];
    for await (const event of again.events) if (event.type === 'done') texts.push(event.text ?? '');
    expect(texts).toEqual(['victim']);
    expect(ran(marker)).toBe(true);
  });
});
