// A real redis-server for the queue tests: one per suite (global-setup.ts), on a loopback port picked
// by the kernel, in a temp dir, with no persistence. Never a mock.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The variable the suite's workers read the port from. */
export const REDIS_PORT_VARIABLE = 'CODERLINE_TEST_REDIS_PORT';

/** A free loopback port: the kernel picks it for a listen(0) that is closed again at once. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.setTimeout(2_000);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

async function startOn(port: number, dir: string): Promise<ChildProcess | undefined> {
  // `--port 0` would switch TCP off in redis-server, so the port comes from freePort().
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--loglevel', 'warning'], { stdio: 'ignore' });
  const exited = new Promise<'exited'>((resolve) => child.once('exit', () => resolve('exited')));
  child.once('error', () => {});
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    if ((await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 50))])) === 'exited') return undefined;
    if (await answersPing(port)) return child;
  }
  child.kill('SIGKILL');
  return undefined;
}

/** Starts redis-server (another process may take the port between pick and bind: then a new port). */
export async function startRedis(): Promise<{ port: number; stop(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'coderline-redis-'));
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const port = await freePort();
    const child = await startOn(port, dir);
    if (!child) continue;
    return {
      port,
      stop: () =>
        new Promise<void>((resolve) => {
          child.once('exit', () => {
            rmSync(dir, { recursive: true, force: true });
            resolve();
          });
          child.kill('SIGTERM');
        }),
    };
  }
  rmSync(dir, { recursive: true, force: true });
  throw new Error('redis-server did not start (is it installed? .ci/run installs it: apt-get install -y redis-server)');
}

/** The suite's Redis, as BullMQ/ioredis connection options. */
export function testRedis(): { host: string; port: number; maxRetriesPerRequest: null } {
  const port = Number(process.env[REDIS_PORT_VARIABLE]);
  if (!port) throw new Error(`${REDIS_PORT_VARIABLE} is not set: the suite's global setup starts Redis`);
  return { host: '127.0.0.1', port, maxRetriesPerRequest: null };
}
