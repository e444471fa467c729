// coderline/queue end to end: real redis-server (the suite's), worker processes started like a
// user's worker program, the scriptable fake CLI as the agent.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidOptionsError, type CoderStreamEvent } from '../../src/index.js';
import type { JobType } from 'bullmq';
import { createQueue, type CoderQueue } from '../../src/queue/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { done, script } from '../support/fake-adapter.js';
import { isGroupAlive, isProcessAlive, processTable } from '../support/processes.js';
import { startWorkerProcess } from '../support/queue-workers.js';
import { testRedis } from '../support/redis.js';
import { waitFor } from '../support/wait.js';

const queues: CoderQueue[] = [];
afterEach(async () => {
  for (const queue of queues.splice(0)) await queue.close();
});

/** A queue of a name no other test (or checkout running the suite) uses. */
function newQueue(): { queue: CoderQueue; name: string } {
  const name = `test-${process.pid}-${randomBytes(4).toString('hex')}`;
  const queue = createQueue({ connection: testRedis(), name });
  queues.push(queue);
  return { queue, name };
}

const flagFile = () => join(mkdtempSync(join(tmpdir(), 'coderline-queue-flag-')), 'first-run');
const init = (sessionId: string) => ({ out: { type: 'init', sessionId } });

/** Reads a job's events until one matches (the iterator stays open for more). */
async function eventsUntil(events: AsyncIterable<CoderStreamEvent<string>> | AsyncIterator<CoderStreamEvent<string>>, match: (event: CoderStreamEvent<string>) => boolean): Promise<CoderStreamEvent<string>> {
  const iterator = Symbol.asyncIterator in events ? events[Symbol.asyncIterator]() : events;
  for (;;) {
    const next = await iterator.next();
    if (next.done) throw new Error('the job ended without the awaited event');
    if (match(next.value)) return next.value;
  }
}

/** BullMQ moves a job to completed just after its result is recorded: polls the counts until they settle. */
async function countsBecome(queue: CoderQueue, expected: Record<string, number>): Promise<void> {
  const until = Date.now() + 60_000;
  let counts: Record<string, number> = {};
  while (Date.now() < until) {
    counts = await queue.bull.getJobCounts(...(Object.keys(expected) as JobType[]));
    if (JSON.stringify(counts) === JSON.stringify(expected)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(counts).toEqual(expected);
}

const grandchildPid = (event: CoderStreamEvent<string>) => (event.raw as { pid: number }).pid;
const groupOf = (pid: number) => processTable().find((entry) => entry.pid === pid)!.pgid;

describe('coderline/queue', () => {
  it('runs 50 jobs on two worker processes: each exactly once, every event in order at the producer', async () => {
    const { queue, name } = newQueue();
    await Promise.all([startWorkerProcess({ name, concurrency: 4, workerName: 'w1' }), startWorkerProcess({ name, concurrency: 4, workerName: 'w2' })]);
    const handles = await Promise.all(
      Array.from({ length: 50 }, (_, i) => queue.enqueue('fake', `job ${i}`, script([init(`s-${i}`), { lines: 5 }, done(`answer ${i}`)]))),
    );
    const seen = await Promise.all(
      handles.map(async (handle) => {
        const events: CoderStreamEvent<string>[] = [];
        for await (const event of handle.events) events.push(event);
        return { events, result: await handle.result };
      }),
    );
    seen.forEach(({ events, result }, i) => {
      expect(result).toMatchObject({ status: 'success', text: `answer ${i}`, sessionId: `s-${i}`, provider: 'fake' });
      expect(events.map((event) => (event.type === 'message' ? event.text : event.type))).toEqual(['init', 'line 0', 'line 1', 'line 2', 'line 3', 'line 4', 'done']);
    });
    const jobs = await Promise.all(handles.map((handle) => queue.bull.getJob(handle.id)));
    expect(jobs.map((job) => job?.attemptsStarted)).toEqual(Array(50).fill(1));
    expect(new Set(jobs.map((job) => job?.processedBy))).toEqual(new Set(['w1', 'w2']));
    await countsBecome(queue, { completed: 50, failed: 0, active: 0, wait: 0 });
  });

  it('cancel() stops a running job: cancelled, and its CLI process group is gone', async () => {
    const { queue, name } = newQueue();
    await startWorkerProcess({ name });
    const handle = await queue.enqueue('fake', 'hang', script([init('c'), { grandchild: {} }, { hang: 1 }]));
    const grandchild = grandchildPid(await eventsUntil(handle.events, (event) => event.type === 'progress' && event.subtype === 'grandchild'));
    const group = groupOf(grandchild);
    await handle.cancel();
    const result = await handle.result;
    expect(result.status).toBe('cancelled');
    expect(result.error?.code).toBe('aborted');
    await waitFor(() => !isGroupAlive(group), 60_000);
    expect(isProcessAlive(grandchild)).toBe(false);
  });

  it('a job cancelled before any worker takes it ends cancelled without starting its CLI', async () => {
    const { queue, name } = newQueue();
    const flag = flagFile();
    const handle = await queue.enqueue('fake', 'never', script([{ firstRunOnly: { flag, steps: [] } }, done()]));
    await handle.cancel();
    await startWorkerProcess({ name });
    const result = await handle.result;
    expect(result.status).toBe('cancelled');
    expect(result.pid).toBeUndefined();
  });

  it('a worker SIGKILLed mid-job: its CLI group is gone before the job runs again, and another worker completes it', async () => {
    const { queue, name } = newQueue();
    const flag = flagFile();
    // A short lock so the stalled check finds the dead worker's job soon; long enough for the watchdog.
    const stall = { stalledIntervalMs: 1_000, lockDurationMs: 8_000 };
    const first = await startWorkerProcess({ name, workerName: 'doomed', ...stall });
    const handle = await queue.enqueue('fake', 'x', script([init('first'), { firstRunOnly: { flag, steps: [{ grandchild: {} }, { hang: 1 }] } }, done('second attempt')]));
    const events = handle.events[Symbol.asyncIterator]();
    const grandchild = grandchildPid(await eventsUntil(events, (event) => event.type === 'progress' && event.subtype === 'grandchild'));
    const group = groupOf(grandchild);
    await startWorkerProcess({ name, workerName: 'survivor', ...stall });
    first.child.kill('SIGKILL');
    await first.exited;
    // The next event is the second attempt's first: by then the dead worker's CLI must be gone.
    await eventsUntil(events, (event) => event.type === 'init');
    expect(isGroupAlive(group)).toBe(false);
    const result = await handle.result;
    expect(result).toMatchObject({ status: 'success', text: 'second attempt' });
    expect((await queue.bull.getJob(handle.id))?.processedBy).toBe('survivor');
  });

  it('a rate limit (429 with retry-after) then success: one retry after the retry-after, one result', async () => {
    const { queue, name } = newQueue();
    await startWorkerProcess({ name });
    const flag = flagFile();
    const limited = { out: { type: 'error', code: 'rate_limit', message: '429 Too Many Requests, retry-after: 1', fatal: true } };
    const handle = await queue.enqueue('fake', 'x', script([{ firstRunOnly: { flag, steps: [init('limited'), limited, { exit: 1 }] } }, init('ok'), done('after the retry')]));
    const events: CoderStreamEvent<string>[] = [];
    for await (const event of handle.events) events.push(event);
    const result = await handle.result;
    expect(result).toMatchObject({ status: 'success', text: 'after the retry', sessionId: 'ok' });
    const retries = events.filter((event) => event.type === 'progress' && event.kind === 'retry');
    expect(retries.map((event) => event.raw)).toEqual([{ attempt: 1, delayMs: 1_000, errorCode: 'rate_limit' }]);
    expect(events.filter((event) => event.type === 'init').length).toBe(2);
    await countsBecome(queue, { completed: 1, failed: 0 });
    // Two attempts in all: the rate-limited one and its one retry.
    expect((await queue.bull.getJob(handle.id))?.attemptsStarted).toBe(2);
  });

  it('auth and invalid_output failures are not retried', async () => {
    const { queue, name } = newQueue();
    await startWorkerProcess({ name });
    const auth = await queue.enqueue('fake', 'x', script([{ out: { type: 'error', code: 'auth', message: 'invalid api key', fatal: true } }, { exit: 1 }]));
    const output = await queue.enqueue('fake', 'x', { ...script([done('not json')]), outputSchema: { type: 'object' } });
    expect((await auth.result).error?.code).toBe('auth');
    expect((await output.result).error?.code).toBe('invalid_output');
    const jobs = await Promise.all([auth.id, output.id].map((id) => queue.bull.getJob(id)));
    expect(jobs.map((job) => job?.attemptsStarted)).toEqual([1, 1]);
  });

  it.each(['cancel', 'finish'] as const)('SIGTERM on a worker with a running job (onShutdown %s) leaves no CLI process', async (onShutdown) => {
    const { queue, name } = newQueue();
    const worker = await startWorkerProcess({ name, onShutdown });
    const steps = onShutdown === 'cancel' ? [{ grandchild: {} }, { hang: 1 }] : [{ grandchild: {} }, { sleep: 1_500 }, done('finished')];
    const handle = await queue.enqueue('fake', 'x', script([init('t'), ...steps]));
    const grandchild = grandchildPid(await eventsUntil(handle.events, (event) => event.type === 'progress' && event.subtype === 'grandchild'));
    const group = groupOf(grandchild);
    worker.child.kill('SIGTERM');
    const result = await handle.result;
    await worker.exited;
    expect(result.status).toBe(onShutdown === 'cancel' ? 'cancelled' : 'success');
    expect(worker.child.signalCode).toBe('SIGTERM');
    expect(isGroupAlive(group)).toBe(false);
    expect(isProcessAlive(grandchild)).toBe(false);
  });

  it('a job on another worker process resumes, and forks, a session kept in the shared session dir', async () => {
    const { queue, name } = newQueue();
    const root = mkdtempSync(join(tmpdir(), 'coderline-queue-sessions-'));
    cleanupAfterTest(() => rmSync(root, { recursive: true, force: true }));
    const dir = join(root, 'shared');
    const turn = { ...script([{ sessionTurn: {} }]), isolation: 'strict' as const };
    const first = await startWorkerProcess({ name, workerName: 'a', sessionRoot: root });
    const started = await queue.enqueue('fake', 'the word is apricot', turn, { session: { dir } });
    const { sessionId } = await started.result;
    expect(sessionId).toEqual(expect.any(String));
    first.child.kill('SIGTERM');
    await first.exited;
    await startWorkerProcess({ name, workerName: 'b', sessionRoot: root });
    const resumed = await queue.enqueue('fake', 'what was the word?', turn, { session: { dir, resume: sessionId! } });
    expect(await resumed.result).toMatchObject({ status: 'success', sessionId, text: 'the word is apricot | what was the word?' });
    const forked = await queue.enqueue('fake', 'a fork', turn, { session: { dir, fork: sessionId! } });
    const fork = await forked.result;
    expect(fork).toMatchObject({ status: 'success', text: 'the word is apricot | what was the word? | a fork' });
    expect(fork.sessionId).not.toBe(sessionId);
    // Without the shared dir, the worker's private one has no such session.
    const lost = await queue.enqueue('fake', 'what was the word?', turn, { session: { resume: sessionId! } });
    expect((await lost.result).status).toBe('error');
    const jobs = await Promise.all([started, resumed, forked].map((handle) => queue.bull.getJob(handle.id)));
    expect(jobs.map((job) => job?.processedBy)).toEqual(['a', 'b', 'b']);
  });

  it('refuses a job session no worker could honour, before anything is queued', async () => {
    const { queue } = newQueue();
    const strict = { isolation: 'strict' as const };
    await expect(queue.enqueue('fake', 'x', {}, { session: { dir: '/shared/sessions' } })).rejects.toThrow(/session.dir is the CLI's config dir under isolation: 'strict'/);
    await expect(queue.enqueue('fake', 'x', strict, { session: { dir: 'relative/dir' } })).rejects.toThrow(/session.dir must be an absolute path/);
    await expect(queue.enqueue('fake', 'x', strict, { session: { resume: 'a', fork: 'b' } })).rejects.toThrow(/resume or fork, not both/);
    expect(await queue.bull.count()).toBe(0);
  });

  it('refuses callbacks with an error naming each, before anything is queued', async () => {
    const { queue } = newQueue();
    const enqueue = queue.enqueue('fake', 'x', { onEvent: () => {}, signal: new AbortController().signal } as never);
    await expect(enqueue).rejects.toThrow(InvalidOptionsError);
    await expect(enqueue).rejects.toThrow(/onEvent is a callback[\s\S]*signal is a callback/);
    expect(await queue.bull.count()).toBe(0);
  });
});
