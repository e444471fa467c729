// A queue worker process for bench/queue.ts: QUEUE_NAME, REDIS_PORT, concurrency 1. The bench's
// producer is trusted: it picks the bench's fake CLI and its environment, which the worker allows by name.
import { tmpdir } from 'node:os';
import { createWorker } from '../src/queue/index.js';

const worker = createWorker({
  connection: { host: '127.0.0.1', port: Number(process.env.REDIS_PORT) },
  name: process.env.QUEUE_NAME!,
  concurrency: Number(process.env.WORKER_CONCURRENCY ?? 1),
  allowOptions: ['executablePath', 'extraEnv'],
  workspaceRoot: tmpdir(),
});
await worker.ready();
process.stdout.write('ready\n');
