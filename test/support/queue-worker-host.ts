// A queue worker process for the queue tests: one worker on the suite's Redis (or the connection in
// WORKER_CONNECTION, JSON), running the scriptable fake CLI. Configured by WORKER_CONFIG (JSON: the
// worker's config without its connection and adapters). Two adapters: `fake`, scripted by the job's
// extraEnv (a worker that allows it), and `scripted`, scripted by the job's prompt (a JSON array of
// steps), for workers that allow a job nothing. Prints "ready" once it takes jobs; SIGTERM closes it
// as onShutdown says; every error the worker reports goes to stderr as "worker error: …".
import { createWorker, type WorkerConfig } from '../../src/queue/index.js';
import { fakeAdapter } from './fake-adapter.js';
import { testRedis } from './redis.js';

const config = JSON.parse(process.env.WORKER_CONFIG ?? '{}') as Omit<WorkerConfig, 'connection' | 'adapters'>;
const connection = process.env.WORKER_CONNECTION ? (JSON.parse(process.env.WORKER_CONNECTION) as WorkerConfig['connection']) : testRedis();
const fake = fakeAdapter();
const scripted = fakeAdapter({
  name: 'scripted' as 'fake',
  capabilities: { ...fake.capabilities, workingDirectory: { level: 'native', how: 'the process cwd' }, extraArgs: { level: 'native', how: 'as given' } },
  buildInvocation: async (ctx) => ({ args: [], stdin: '', env: { FAKE_CLI_SCRIPT: ctx.prompt } }),
});
const worker = createWorker({
  ...config,
  connection,
  adapters: [fake, scripted],
  onError: (error) => process.stderr.write(`worker error: ${error.message}\n`),
});
await worker.ready();
process.stdout.write('ready\n');
