import { spawn } from 'node:child_process';
import { createQueue } from './src/queue/index.js';
import { script, done } from './test/support/fake-adapter.js';
import { startRedis, REDIS_PORT_VARIABLE, testRedis } from './test/support/redis.js';
const redis = await startRedis();
process.env[REDIS_PORT_VARIABLE] = String(redis.port);
const name = 'dbg';
const child = spawn(process.execPath, ['--import', 'tsx', 'test/support/queue-worker-host.ts'], { env: { ...process.env, WORKER_CONFIG: JSON.stringify({ name, onShutdown: 'finish' }) }, stdio: ['ignore', 'inherit', 'inherit'] });
child.on('exit', (c, s) => console.log('worker exit', c, s));
const queue = createQueue({ connection: testRedis(), name });
const h = await queue.enqueue('fake', 'x', script([{ out: { type: 'init', sessionId: 'x' } }, { grandchild: {} }, { sleep: 1500 }, done('finished')]));
for await (const e of h.events) { console.log('event', e.type, Date.now()); if (e.type === 'progress') { child.kill('SIGTERM'); console.log('sent TERM'); } }
console.log('result', (await h.result).status);
await queue.close(); await redis.stop();
