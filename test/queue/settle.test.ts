// Every job settles, exactly once, for every reader, whatever ends it; errors are the app's. Real
// redis-servers of the tests' own (persistence, passwords, an ACL user, TLS), worker processes.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CoderStreamEvent } from '../../src/index.js';
import { createQueue, createWorker, type CoderQueue, type QueueConfig } from '../../src/queue/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { done, script } from '../support/fake-adapter.js';
import { eventsUntil, markerPath, markingPrompt, newQueue, queueName, ran } from '../support/queue-jobs.js';
import { startWorkerProcess } from '../support/queue-workers.js';
import { startRedis, type RedisServer, type RedisServerOptions } from '../support/redis.js';
import { waitFor } from '../support/wait.js';

afterEach(() => vi.restoreAllMocks());

async function ownRedis(options: RedisServerOptions = {}): Promise<RedisServer> {
  const server = await startRedis(options);
  cleanupAfterTest(() => server.stop());
  return server;
}

function queueOn(connection: QueueConfig['connection'], onError?: (error: Error) => void): { queue: CoderQueue; name: string } {
  const name = queueName();
  const queue = createQueue({ connection, name, ...(onError ? { onError } : {}) });
  cleanupAfterTest(() => queue.close());
  return { queue, name };
}

const init = (sessionId: string) => ({ out: { type: 'init', sessionId } });

describe('every job settles (issue 29, finding 3)', () => {
  it('three workers, the job\'s worker SIGKILLed twice: past the stalled limit the producer\'s result resolves stalled and its events end', async () => {
    const { queue, name } = newQueue();
    const stall = { stalledIntervalMs: 500, lockDurationMs: 3_000, maxStalledCount: 1 };
    const workers = await Promise.all(['w1', 'w2', 'w3'].map((workerName) => startWorkerProcess({ name, workerName, ...stall })));
    const handle = await queue.enqueue('fake', 'x', script([init('s'), { grandchild: {} }, { hang: 1 }]));
    const events = handle.events[Symbol.asyncIterator]();
    const killed: string[] = [];
    for (let round = 0; round < 2; round += 1) {
      await eventsUntil(events, (event) => event.type === 'progress' && event.subtype === 'grandchild');
      const job = await queue.bull.getJob(handle.id);
      const victim = workers.find((_, i) => `w${i + 1}` === job?.processedBy)!;
      killed.push(job!.processedBy!);
      victim.child.kill('SIGKILL');
      await victim.exited;
    }
    const result = await handle.result;
    expect(result.status).toBe('error');
    expect(result.error?.code).toBe('stalled');
    expect(new Set(killed).size).toBe(2);
    // The events end: the iterator finishes.
    for (;;) if ((await events.next()).done) break;
  });

  it('a worker SIGKILLed mid-job: the next attempt starts with a progress event of kind retry', async () => {
    const { queue, name } = newQueue();
    const flag = markerPath('first-run');
    const stall = { stalledIntervalMs: 500, lockDurationMs: 3_000 };
    const first = await startWorkerProcess({ name, workerName: 'doomed', ...stall });
    const handle = await queue.enqueue('fake', 'x', script([init('first'), { firstRunOnly: { flag, steps: [{ out: { type: 'message', text: 'half an ans', delta: true } }, { grandchild: {} }, { hang: 1 }] } }, done('second attempt')]));
    const events = handle.events[Symbol.asyncIterator]();
    await eventsUntil(events, (event) => event.type === 'progress' && event.subtype === 'grandchild');
    await startWorkerProcess({ name, workerName: 'survivor', ...stall });
    first.child.kill('SIGKILL');
    await first.exited;
    const next = (await events.next()).value as CoderStreamEvent<string>;
    expect(next).toMatchObject({ type: 'progress', kind: 'retry', subtype: 'queue_worker_lost' });
    expect(await handle.result).toMatchObject({ status: 'success', text: 'second attempt' });
  });

  it('a lost worker, then a rate limit: each later attempt is announced once, by what ended the one before', async () => {
    const { queue, name } = newQueue();
    const [hangs, limits] = [markerPath('hangs'), markerPath('limits')];
    const stall = { stalledIntervalMs: 500, lockDurationMs: 3_000 };
    const first = await startWorkerProcess({ name, ...stall });
    const limited = { out: { type: 'error', code: 'rate_limit', message: '429 Too Many Requests, retry-after: 1', fatal: true } };
    const handle = await queue.enqueue('fake', 'x', script([init('s'), { firstRunOnly: { flag: hangs, steps: [{ grandchild: {} }, { hang: 1 }] } }, { firstRunOnly: { flag: limits, steps: [limited, { exit: 1 }] } }, done('third attempt')]));
    const events: CoderStreamEvent<string>[] = [];
    const iterator = handle.events[Symbol.asyncIterator]();
    events.push(await eventsUntil(iterator, (event) => event.type === 'progress' && event.subtype === 'grandchild'));
    // The first run made both flags; without the second one the next run is the rate-limited one.
    rmSync(limits);
    await startWorkerProcess({ name, ...stall });
    first.child.kill('SIGKILL');
    await first.exited;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) events.push(next.value);
    expect(await handle.result).toMatchObject({ status: 'success', text: 'third attempt' });
    const announced = events.filter((event) => event.type === 'progress' && event.kind === 'retry').map((event) => event.type === 'progress' && event.subtype);
    expect(announced).toEqual(['queue_worker_lost', 'queue_retry']);
  });

  it('cancel() of a job no worker has taken resolves its result at once, and no worker ever runs it', async () => {
    const { queue, name } = newQueue();
    const marker = markerPath();
    const handle = await queue.enqueue('scripted', markingPrompt(marker), {});
    await handle.cancel();
    // No worker exists yet: the result comes from the cancel itself.
    const result = await handle.result;
    expect(result).toMatchObject({ status: 'cancelled' });
    expect(result.error?.code).toBe('aborted');
    await startWorkerProcess({ name, allowOptions: [] });
    const after = await queue.enqueue('scripted', markingPrompt(markerPath(), 'next'), {});
    expect((await after.result).text).toBe('next');
    expect(ran(marker)).toBe(false);
  });

  it("Redis stopped and started mid-run (persistence on): every handle settles with its run's answer", async () => {
    const server = await ownRedis({ persistence: true });
    const connection = { host: '127.0.0.1', port: server.port };
    const { queue, name } = queueOn(connection, () => {});
    await Promise.all([startWorkerProcess({ name, concurrency: 2 }, connection), startWorkerProcess({ name, concurrency: 2 }, connection)]);
    const handles = await Promise.all(Array.from({ length: 8 }, (_, i) => queue.enqueue('fake', 'x', script([init(`r${i}`), { sleep: 1_500 }, done(`answer ${i}`)]))));
    await eventsUntil(handles[0]!.events, (event) => event.type === 'init');
    await server.halt();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    await server.start();
    const results = await Promise.all(handles.map((handle) => handle.result));
    // Redis kept the jobs and streams: each job's one result is its run's answer.
    expect(results.map((result) => result.text)).toEqual(handles.map((_, i) => `answer ${i}`));
  });

  it('a completed job whose result key and stream are gone: a new handle reads the result BullMQ kept', async () => {
    const server = await ownRedis();
    const connection = { host: '127.0.0.1', port: server.port };
    const { queue, name } = queueOn(connection, () => {});
    await startWorkerProcess({ name }, connection);
    const handle = await queue.enqueue('fake', 'x', script([init('kept'), done('kept by BullMQ')]));
    expect((await handle.result).text).toBe('kept by BullMQ');
    // Someone (an operator's cleanup, an attacker) deletes the queue's own keys of the job.
    execFileSync('redis-cli', ['-p', String(server.port), 'DEL', `coderline:${name}:result:${handle.id}`, `coderline:${name}:events:${handle.id}`]);
    const other = createQueue({ connection, name, onError: () => {} });
    cleanupAfterTest(() => other.close());
    expect(await other.job(handle.id).result).toMatchObject({ status: 'success', text: 'kept by BullMQ' });
  });

  it('Redis restarted without persistence loses a queued job: its handle resolves with an error saying so', async () => {
    const server = await ownRedis();
    const connection = { host: '127.0.0.1', port: server.port };
    const { queue } = queueOn(connection, () => {});
    const handle = await queue.enqueue('fake', 'x', script([done()]));
    await server.halt();
    await server.start();
    const result = await handle.result;
    expect(result.status).toBe('error');
    expect(result.error?.message).toMatch(/no longer in Redis/);
  });
});

describe('a full Redis (noeviction) refuses writes (issue 29, finding 2)', () => {
  it('the worker lives through refused writes; once there is room its job settles and the next one runs', async () => {
    const server = await ownRedis({ args: ['--maxmemory', '16mb', '--maxmemory-policy', 'noeviction'] });
    const connection = { host: '127.0.0.1', port: server.port };
    const { queue, name } = queueOn(connection, () => {});
    const worker = await startWorkerProcess({ name }, connection);
    const cli = (...args: string[]) => execFileSync('redis-cli', ['-p', String(server.port), ...args], { encoding: 'utf8' });
    const handle = await queue.enqueue('fake', 'x', script([init('full'), { sleep: 1_000 }, { lines: 50 }, done('written into a full Redis')]));
    await eventsUntil(handle.events, (event) => event.type === 'init');
    // Something fills Redis to its limit: every write that needs memory is refused with OOM from now on.
    cli('SETRANGE', 'filler', String(16 * 1024 * 1024), 'x');
    expect(cli('SET', 'probe', 'x')).toMatch(/OOM/);
    await waitFor(() => worker.stderr().includes('OOM'), 60_000);
    expect(worker.child.exitCode).toBeNull();
    cli('DEL', 'filler');
    // The events written while Redis was full are lost (reported to onError); the result is retried until there is room.
    expect(await handle.result).toMatchObject({ status: 'success', text: 'written into a full Redis' });
    const next = await queue.enqueue('fake', 'x', script([init('room'), done('room again')]));
    expect(await next.result).toMatchObject({ status: 'success', text: 'room again' });
    expect(worker.child.exitCode).toBeNull();
  });
});

describe('bounded memory', () => {
  it('a producer keeps at most feedLimit entries of a job for its readers: a late reader gets the newest and the result', async () => {
    const { queue, name } = newQueue({ feedLimit: 10 });
    await startWorkerProcess({ name });
    const handle = await queue.enqueue('fake', 'x', script([init('many'), { lines: 200 }, done('last')]));
    expect((await handle.result).text).toBe('last');
    // A reader that starts now reads the job's stream again: 202 events, of which the feed keeps the last 10.
    const late: CoderStreamEvent<string>[] = [];
    for await (const event of handle.events) late.push(event);
    expect(late.length).toBeLessThanOrEqual(10);
    expect(late.at(-1)).toMatchObject({ type: 'done' });
  });
});

describe('errors are the app\'s (issue 29, finding 4)', () => {
  it('while Redis is down nothing is printed by the producer\'s or the worker\'s clients: onError hears it', async () => {
    const server = await ownRedis();
    const connection = { host: '127.0.0.1', port: server.port };
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
    const heard: Error[] = [];
    const { queue, name } = queueOn(connection, (error) => heard.push(error));
    const worker = await startWorkerProcess({ name }, connection);
    const handle = await queue.enqueue('fake', 'x', script([done('before')]));
    expect((await handle.result).text).toBe('before');
    await server.halt();
    await waitFor(() => heard.length > 0 && worker.stderr().includes('worker error:'), 60_000);
    await server.start();
    const after = await queue.enqueue('fake', 'x', script([done('after')]));
    expect((await after.result).text).toBe('after');
    expect(printed).not.toHaveBeenCalled();
    expect(worker.stderr()).not.toContain('[ioredis]');
  });
});

describe('the watch and the follower race for a job\'s end (issue 29, second pass)', () => {
  it('a producer whose follower reads nothing (XREAD refused) still hands every event before the result, from the watch', async () => {
    const server = await ownRedis();
    // Forces the race the watch can win under load: this producer's user may not XREAD, so its follower
    // never brings an entry and the watch, finding the result key, is the only way the events arrive.
    execFileSync('redis-cli', ['-p', String(server.port), 'ACL', 'SETUSER', 'noxread', 'on', '>noxread-password', '~*', '&*', '+@all', '-xread']);
    const errors: Error[] = [];
    const { queue, name } = queueOn({ host: '127.0.0.1', port: server.port, username: 'noxread', password: 'noxread-password' }, (error) => errors.push(error));
    await startWorkerProcess({ name }, { host: '127.0.0.1', port: server.port });
    const messages = ['one', 'two', 'three'].map((text) => ({ out: { type: 'message', text, delta: false } }));
    const handle = await queue.enqueue('fake', 'x', script([init('w'), ...messages, done('three')]));
    const events: CoderStreamEvent<string>[] = [];
    for await (const event of handle.events) events.push(event);
    expect(await handle.result).toMatchObject({ status: 'success', text: 'three' });
    expect(events.filter((event) => event.type === 'message').map((event) => (event as { text: string }).text)).toEqual(['one', 'two', 'three']);
    expect(events.map((event) => event.type)).toEqual(['init', 'message', 'message', 'message', 'done']);
    expect(errors.some((error) => /NOPERM/.test(error.message))).toBe(true);
  });
});

describe('the recipe\'s Redis: a password, an ACL user, TLS', () => {
  const password = 'queue-test-password';

  it('requirepass and an ACL user limited to the queue\'s keys: jobs run; a client without the password is refused', async () => {
    const admin = `${password}-admin`;
    const server = await ownRedis({ args: ['--requirepass', admin], password: admin });
    // The queue's user: its keys and channel only, no admin or dangerous commands beyond what BullMQ asks.
    const rules = ['on', `>${password}`, '~bull:*', '~coderline:*', '&coderline:*', '+@all', '-@admin', '-@dangerous', '+info', '+client|id', '+client|unblock', '+client|setname'];
    execFileSync('redis-cli', ['-p', String(server.port), '-a', admin, '--no-auth-warning', 'ACL', 'SETUSER', 'coderline', ...rules]);
    const connection = { host: '127.0.0.1', port: server.port, username: 'coderline', password };
    const { queue, name } = queueOn(connection, () => {});
    await startWorkerProcess({ name }, connection);
    const handle = await queue.enqueue('fake', 'x', script([init('a'), done('with a password')]));
    expect(await handle.result).toMatchObject({ status: 'success', text: 'with a password' });
    // A client without the password (as an attacker on the network would be) is refused any command.
    const anonymous = execFileSync('redis-cli', ['-p', String(server.port), 'LLEN', `bull:${name}:wait`], { encoding: 'utf8' });
    expect(anonymous).toMatch(/NOAUTH/);
  });

  it('an ACL user without the cancel channel: the worker\'s ready() rejects with the refusal, nothing goes unhandled', async () => {
    const admin = `${password}-admin`;
    const server = await ownRedis({ args: ['--requirepass', admin], password: admin });
    // An operator's mistake: the user may use the queue's keys but not its cancel channel.
    execFileSync('redis-cli', ['-p', String(server.port), '-a', admin, '--no-auth-warning', 'ACL', 'SETUSER', 'narrow', 'on', `>${password}`, '~bull:*', '~coderline:*', 'resetchannels', '+@all', '-@admin', '-@dangerous', '+info', '+client|setname']);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    cleanupAfterTest(() => process.off('unhandledRejection', onUnhandled));
    const worker = createWorker({ connection: { host: '127.0.0.1', port: server.port, username: 'narrow', password }, name: queueName(), handleSignals: false, onError: () => {} });
    cleanupAfterTest(() => worker.close());
    // The app calls ready() late (or never): the refusal must not be an unhandled rejection meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(unhandled).toEqual([]);
    await expect(worker.ready()).rejects.toThrow(/NOPERM/);
  });

  it('TLS: a server with certificates made here, the queue verifies them with the CA', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'coderline-tls-'));
    const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
    ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=coderline test CA', '-keyout', 'ca.key', '-out', 'ca.crt');
    ssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-keyout', 'redis.key', '-out', 'redis.csr');
    writeFileSync(join(dir, 'san.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
    ssl('x509', '-req', '-in', 'redis.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '1', '-extfile', 'san.ext', '-out', 'redis.crt');
    const server = await ownRedis({ tls: true, args: ['--tls-cert-file', join(dir, 'redis.crt'), '--tls-key-file', join(dir, 'redis.key'), '--tls-ca-cert-file', join(dir, 'ca.crt'), '--tls-auth-clients', 'no', '--requirepass', password] });
    const connection = { host: '127.0.0.1', port: server.port, password, tls: { ca: readFileSync(join(dir, 'ca.crt'), 'utf8'), servername: 'localhost' } };
    const { queue, name } = queueOn(connection, () => {});
    await startWorkerProcess({ name }, connection);
    const handle = await queue.enqueue('fake', 'x', script([init('t'), done('over TLS')]));
    expect(await handle.result).toMatchObject({ status: 'success', text: 'over TLS' });
  });
});
