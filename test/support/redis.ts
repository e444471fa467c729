// A real redis-server for the queue tests: one per suite (global-setup.ts), on a loopback port picked
// by the kernel, in a temp dir, with no persistence; tests that need a server of their own (a password,
// an ACL user, TLS, persistence, a memory limit) start one the same way. Never a mock.
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

export interface RedisServerOptions {
  /** redis-server flags beyond the port, bind and dir (persistence, requirepass, ACL, TLS, maxmemory). */
  args?: string[];
  /** Persistence on (an append-only file in the dir): what survives a stop and a start. Default off. */
  persistence?: boolean;
  /** Where TCP clients connect: the plain port (default), or the TLS port when `args` sets up TLS. */
  tls?: boolean;
  /** How the readiness check logs in, when the server asks for a password. */
  password?: string;
}

export interface RedisServer {
  port: number;
  dir: string;
  /** Stops the server (SIGTERM: an append-only file is flushed), keeping its dir for start(). */
  halt(): Promise<void>;
  /** Starts it again on the same port and dir. */
  start(): Promise<void>;
  /** Stops it for good and removes its dir. */
  stop(): Promise<void>;
}

function answersPing(port: number, password: string | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.setTimeout(2_000);
    socket.once('connect', () => socket.write(`${password === undefined ? '' : `AUTH ${password}\r\n`}PING\r\n`));
    let seen = '';
    socket.on('data', (data) => {
      seen += data.toString();
      if (!seen.includes('PONG') && !seen.includes('-')) return;
      socket.destroy();
      resolve(seen.includes('+PONG'));
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

async function startOn(port: number, dir: string, options: RedisServerOptions): Promise<ChildProcess | undefined> {
  // `--port 0` would switch TCP off in redis-server, so the port comes from freePort().
  const persistence = options.persistence ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
  const ports = options.tls ? ['--port', '0', '--tls-port', String(port)] : ['--port', String(port)];
  const plainPort = options.tls ? undefined : port;
  const child = spawn('redis-server', [...ports, '--bind', '127.0.0.1', '--dir', dir, '--save', '', ...persistence, '--daemonize', 'no', '--loglevel', 'warning', ...(options.args ?? [])], { stdio: 'ignore' });
  const exited = new Promise<'exited'>((resolve) => child.once('exit', () => resolve('exited')));
  child.once('error', () => {});
  const until = Date.now() + 30_000;
  while (Date.now() < until) {
    if ((await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 50))])) === 'exited') return undefined;
    // A TLS port cannot answer a plain PING: the server is ready once its port takes a connection.
    if (plainPort === undefined ? await acceptsConnection(port) : await answersPing(plainPort, options.password)) return child;
  }
  child.kill('SIGKILL');
  return undefined;
}

function acceptsConnection(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Starts redis-server (another process may take the port between pick and bind: then a new port). */
export async function startRedis(options: RedisServerOptions = {}): Promise<RedisServer> {
  const dir = mkdtempSync(join(tmpdir(), 'coderline-redis-'));
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const port = await freePort();
    let child = await startOn(port, dir, options);
    if (!child) continue;
    const server: RedisServer = {
      port,
      dir,
      halt: () => stopped(child!),
      async start() {
        child = await startOn(port, dir, options);
        if (!child) throw new Error(`redis-server did not start again on port ${port}`);
      },
      async stop() {
        await stopped(child!);
        rmSync(dir, { recursive: true, force: true });
      },
    };
    return server;
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
