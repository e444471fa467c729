// A queue worker process for the queue tests: one worker on the suite's Redis, running the scriptable
// fake CLI. Configured by WORKER_CONFIG (JSON: name, concurrency, onShutdown, stalledIntervalMs,
// lockDurationMs). Prints "ready" once it takes jobs; SIGTERM closes it as onShutdown says.
import { createWorker, type WorkerConfig } from '../../src/queue/index.js';
import { fakeAdapter } from './fake-adapter.js';
import { testRedis } from './redis.js';

const config = JSON.parse(process.env.WORKER_CONFIG ?? '{}') as Omit<WorkerConfig, 'connection' | 'adapters'>;
const worker = createWorker({ ...config, connection: testRedis(), adapters: [fakeAdapter()] });
await worker.ready();
process.stdout.write('ready\n');
