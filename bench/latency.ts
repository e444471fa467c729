// Latencies of one run, in one warm process (the version probe and execa's import happen once per
// process and are paid by the warm-up run, not measured here):
//   first  spawn → first line (floor: spawn + readline) vs. stream() → first event (coderline)
//   abort  abort() → run settled, and whether the whole process group is gone by then
//   stall  last output → run settled as stalled, minus stallTimeoutMs
// Prints one JSON line.   node latency.mjs <fake> <coderline.js>
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { isGroupAlive } from '../src/core/process/process-group.js';
import { spread, type Spread } from './report.js';

const [fake, coderlinePath] = process.argv.slice(2) as [string, string];
const { createCoder } = (await import(pathToFileURL(coderlinePath).href)) as typeof import('../src/index.js');
const ROUNDS = Number(process.env.BENCH_LATENCY_ROUNDS ?? 20);
const STALL_MS = 500;

async function floorFirstLine(): Promise<number> {
  const started = performance.now();
  const child = spawn(fake, [], { stdio: ['pipe', 'pipe', 'pipe'] });
  const closed = once(child, 'close');
  child.stdin.end('bench prompt');
  child.stderr.resume();
  let first = 0;
  for await (const line of createInterface({ input: child.stdout, crlfDelay: Infinity })) {
    JSON.parse(line);
    first ||= performance.now() - started;
  }
  await closed;
  return first;
}

function coder(extraEnv: Record<string, string> = {}) {
  return createCoder('claude', { executablePath: fake, workingDirectory: tmpdir(), extraEnv });
}

async function coderlineFirstEvent(): Promise<number> {
  const started = performance.now();
  const session = coder();
  const stream = session.start().stream('bench prompt');
  let first = 0;
  for await (const _ of stream) first ||= performance.now() - started;
  await stream.result;
  await session.close();
  return first;
}

/** Aborts once the run has printed its head; `ignoreSignals` makes the CLI wait for SIGKILL. */
async function abortRun(ignoreSignals: boolean): Promise<{ ms: number; groupGone: boolean }> {
  const controller = new AbortController();
  const session = coder({ BENCH_MODE: 'hang', BENCH_IGNORE_SIGNALS: ignoreSignals ? '1' : '0' });
  let abortedAt = 0;
  const result = await session.start().run('bench prompt', {
    signal: controller.signal,
    onEvent: (event) => {
      if (event.type === 'init') {
        abortedAt = performance.now();
        controller.abort();
      }
    },
  });
  const ms = performance.now() - abortedAt;
  await session.close();
  if (result.status !== 'cancelled') throw new Error(`an aborted run ended ${result.status}`);
  return { ms, groupGone: result.pid === undefined || !(await isGroupAlive(result.pid)) };
}

async function stallRun(): Promise<number> {
  const session = coder({ BENCH_MODE: 'stall' });
  let lastOutput = 0;
  const result = await session.start().run('bench prompt', {
    stallTimeoutMs: STALL_MS,
    onRawLine: () => {
      lastOutput = performance.now();
    },
  });
  const overshoot = performance.now() - lastOutput - STALL_MS;
  await session.close();
  if (result.status !== 'stalled') throw new Error(`a stalled run ended ${result.status}`);
  return overshoot;
}

export interface LatencyReport {
  floorFirstMs: Spread;
  coderlineFirstMs: Spread;
  /** Per-pair difference, coderline minus floor. */
  firstDiffMs: Spread;
  abortMs: Spread;
  abortIgnoringSignalsMs: Spread;
  groupsLeft: number;
  stallOvershootMs: Spread;
  stallTimeoutMs: number;
}

await coderlineFirstEvent(); // warm-up: version probe, execa import
await floorFirstLine();
const floor: number[] = [];
const ours: number[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  floor.push(await floorFirstLine());
  ours.push(await coderlineFirstEvent());
}
const aborts: number[] = [];
const stubbornAborts: number[] = [];
let groupsLeft = 0;
for (let round = 0; round < 5; round += 1) {
  for (const [ignoreSignals, into] of [[false, aborts], [true, stubbornAborts]] as const) {
    const { ms, groupGone } = await abortRun(ignoreSignals);
    into.push(ms);
    if (!groupGone) groupsLeft += 1;
  }
}
const stalls: number[] = [];
for (let round = 0; round < 5; round += 1) stalls.push(await stallRun());

const report: LatencyReport = {
  floorFirstMs: spread(floor),
  coderlineFirstMs: spread(ours),
  firstDiffMs: spread(ours.map((ms, i) => ms - floor[i]!)),
  abortMs: spread(aborts),
  abortIgnoringSignalsMs: spread(stubbornAborts),
  groupsLeft,
  stallOvershootMs: spread(stalls),
  stallTimeoutMs: STALL_MS,
};
process.stdout.write(`${JSON.stringify(report)}\n`);
