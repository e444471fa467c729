// Worker processes for the queue tests, started through tsx like a user's worker program.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { WorkerConfig } from '../../src/queue/index.js';
import { cleanupAfterTest } from './cleanup.js';

const HOST = fileURLToPath(new URL('./queue-worker-host.ts', import.meta.url));

export interface WorkerProcess {
  child: ChildProcess;
  exited: Promise<unknown>;
}

/** Starts a worker process and resolves once it takes jobs; it is killed after the test if still running. */
export async function startWorkerProcess(config: Omit<WorkerConfig, 'connection' | 'adapters'>): Promise<WorkerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', HOST], { env: { ...process.env, WORKER_CONFIG: JSON.stringify(config) }, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = once(child, 'exit');
  cleanupAfterTest(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes('ready\n')) resolve();
    });
    void exited.then(() => reject(new Error('the worker process exited before it was ready')));
  });
  return { child, exited };
}
