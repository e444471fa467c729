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
  /** What the process wrote to stderr so far. */
  stderr(): string;
}

export type WorkerProcessConfig = Omit<WorkerConfig, 'connection' | 'adapters' | 'onError' | 'tools' | 'permissionPolicies' | 'jobOptions'>;

/**
 * Starts a worker process and resolves once it takes jobs; it is killed after the test if still running.
 * Unless the config says otherwise the worker lets jobs set `extraEnv`, which scripts the fake CLI.
 */
export async function startWorkerProcess(config: WorkerProcessConfig, connection?: WorkerConfig['connection']): Promise<WorkerProcess> {
  const env: NodeJS.ProcessEnv = { ...process.env, WORKER_CONFIG: JSON.stringify({ allowOptions: ['extraEnv'], ...config }) };
  if (connection) env.WORKER_CONNECTION = JSON.stringify(connection);
  const child = spawn(process.execPath, ['--import', 'tsx', HOST], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = once(child, 'exit');
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    process.stderr.write(chunk);
  });
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
    void exited.then(() => reject(new Error(`the worker process exited before it was ready: ${stderr}`)));
  });
  return { child, exited, stderr: () => stderr };
}
