// A queue worker process for bench/queue.ts: QUEUE_NAME, REDIS_PORT, concurrency 1.
import { createWorker } from '../src/queue/index.js';

const worker = createWorker({ connection: { host: '127.0.0.1', port: Number(process.env.REDIS_PORT) }, name: process.env.QUEUE_NAME!, concurrency: Number(process.env.WORKER_CONCURRENCY ?? 1) });
await worker.ready();
process.stdout.write('ready\n');
