// What a translator keeps as a run goes on: the fake CLI's stream (a recorded turn repeated with
// fresh ids) through one translator, heap measured after a full GC at every quarter of it.
// A translator that remembers every tool call grows here however short-lived its events are.
// Prints one JSON line per CLI.   node --expose-gc retention.mjs <fake>
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { LineSplitter } from '../src/core/stream/lines.js';
import { builtInAdapters } from '../src/registry.js';

const [fake] = process.argv.slice(2) as [string];
const LINES = Number(process.env.BENCH_RETENTION_LINES ?? 1_000_000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

function heapMb(): number {
  gc!();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

export interface RetentionReport {
  cli: string;
  lines: number;
  /** Heap used (MB, after a full GC) at 25/50/75/100 % of the lines. */
  heapMbAtQuarter: number[];
}

for (const cli of ['claude', 'codex'] as const) {
  const translator = builtInAdapters[cli].createTranslator({ opts: {}, session: { kind: 'new' } });
  const child = spawn(fake, [], { stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, BENCH_KIND: cli, BENCH_LINES: String(LINES) } });
  const heap: number[] = [];
  let seen = 0;
  const lines = new LineSplitter(32 * 1024 * 1024, {
    line: (line) => {
      translator.translate(JSON.parse(line));
      seen += 1;
      if (seen % (LINES / 4) === 0) heap.push(heapMb());
    },
    oversized: () => {},
  });
  child.stdout.on('data', (chunk: Buffer) => lines.push(chunk));
  await once(child, 'close');
  lines.end();
  const report: RetentionReport = { cli, lines: seen, heapMbAtQuarter: heap };
  process.stdout.write(`${JSON.stringify(report)}\n`);
  // The translator must stay alive until measured: its state is what is measured.
  if (typeof translator.translate !== 'function') throw new Error('unreachable');
}
