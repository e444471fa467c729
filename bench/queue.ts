// The queue section: one recorded Claude turn (bench/fake-cli.mjs) per job, through coderline/queue on
// a local redis-server, vs. pool.run() in one process. Prints one JSON line per measurement:
//   latency   one job at a time with 1, 2, 4 idle workers: enqueue → result vs. pool.run() (median of 20)
//   jobs/s    100 jobs on 1, 2 and 4 worker processes (concurrency 1 each) vs. createPool(n), and the
//             wall time the queue adds per job
//   memory    Redis used_memory per 1,000 finished jobs with their event streams
// Runs from source through tsx: node --import tsx bench/queue.ts
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { Redis } from 'ioredis';
import { createPool } from '../src/index.js';
import { createQueue } from '../src/queue/index.js';
import { startRedis } from '../test/support/redis.js';
import { fakeCli } from './build.js';

const JOBS = 100;
const LATENCY_RUNS = 20;
const MEMORY_JOBS = 1_000;
const options = { executablePath: fakeCli, workingDirectory: tmpdir(), extraEnv: { BENCH_KIND: 'claude' } };
const redisServer = await startRedis();
const connection = { host: '127.0.0.1', port: redisServer.port };
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const print = (report: object) => process.stdout.write(`${JSON.stringify(report)}\n`);

async function startWorkers(name: string, count: number): Promise<ChildProcess[]> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const child = spawn(process.execPath, ['--import', 'tsx', new URL('./queue-worker.ts', import.meta.url).pathname], {
        env: { ...process.env, QUEUE_NAME: name, REDIS_PORT: String(redisServer.port) },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      await once(child.stdout!, 'data');
      return child;
    }),
  );
}

async function stopWorkers(children: ChildProcess[]): Promise<void> {
  await Promise.all(children.map((child) => (child.kill('SIGTERM'), once(child, 'exit'))));
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

// Latency: one job at a time, with 1, 2 and 4 idle workers waiting on the queue vs. createPool(n).
for (const n of [1, 2, 4]) {
  const pool = createPool(n);
  await pool.run('claude', 'warm-up', options);
  const direct: number[] = [];
  for (let i = 0; i < LATENCY_RUNS; i += 1) direct.push(await timed(() => pool.run('claude', 'bench prompt', options)));
  const name = `bench-latency-${n}`;
  const queue = createQueue({ connection, name });
  const workers = await startWorkers(name, n);
  await (await queue.enqueue('claude', 'warm-up', options)).result;
  const queued: number[] = [];
  for (let i = 0; i < LATENCY_RUNS; i += 1) queued.push(await timed(async () => (await queue.enqueue('claude', 'bench prompt', options)).result));
  print({ measure: 'latency', workers: n, runs: LATENCY_RUNS, poolMs: median(direct), queueMs: median(queued), addedMs: median(queued) - median(direct) });
  await stopWorkers(workers);
  await queue.close();
}

// Throughput: 100 jobs on n workers vs. createPool(n).
for (const n of [1, 2, 4]) {
  const pool = createPool(n);
  const poolMs = await timed(() => Promise.all(Array.from({ length: JOBS }, () => pool.run('claude', 'bench prompt', options))));
  const name = `bench-throughput-${n}`;
  const queue = createQueue({ connection, name });
  const workers = await startWorkers(name, n);
  const queueMs = await timed(async () => {
    const handles = await Promise.all(Array.from({ length: JOBS }, () => queue.enqueue('claude', 'bench prompt', options)));
    const results = await Promise.all(handles.map((handle) => handle.result));
    if (results.some((result) => result.status !== 'success')) throw new Error('a queued bench job failed');
  });
  print({ measure: 'throughput', workers: n, jobs: JOBS, poolJobsPerSecond: JOBS / (poolMs / 1000), queueJobsPerSecond: JOBS / (queueMs / 1000), addedMsPerJob: (queueMs - poolMs) / JOBS });
  await stopWorkers(workers);
  await queue.close();
}

// Redis memory per 1,000 finished jobs with their event streams (and BullMQ's records of them).
{
  const admin = new Redis(connection);
  await admin.flushall();
  const before = Number(/used_memory:(\d+)/.exec(await admin.info('memory'))![1]);
  const queue = createQueue({ connection, name: 'bench-memory' });
  const workers = await startWorkers('bench-memory', 4);
  const handles = await Promise.all(Array.from({ length: MEMORY_JOBS }, () => queue.enqueue('claude', 'bench prompt', options)));
  await Promise.all(handles.map((handle) => handle.result));
  const after = Number(/used_memory:(\d+)/.exec(await admin.info('memory'))![1]);
  const streamEntries = await admin.xlen(`coderline:bench-memory:events:${handles[0]!.id}`);
  print({ measure: 'memory', jobs: MEMORY_JOBS, bytes: after - before, bytesPerJob: (after - before) / MEMORY_JOBS, streamEntriesPerJob: streamEntries });
  await stopWorkers(workers);
  await queue.close();
  admin.disconnect();
}
await redisServer.stop();
