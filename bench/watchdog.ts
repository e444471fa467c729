// What the host-exit watchdog costs a host (docs/decisions.md, "A host that vanishes"): starting it
// (once per host: the fork of `sh`), and per run the four registrations a run makes (its group and
// its temp dir, each watched and unwatched). Prints one JSON line.   tsx bench/watchdog.ts
import { spread } from './report.js';
import { unwatchDir, unwatchGroup, watchDir, watchGroup } from '../src/core/process/watchdog.js';

const RUNS = 20_000;
// The first registration schedules the start; the start itself is the spawn, a tick later.
const startMs: number[] = [];
const originalSetImmediate = globalThis.setImmediate;
globalThis.setImmediate = ((callback: () => void) => originalSetImmediate(() => {
  const started = performance.now();
  callback();
  startMs.push(performance.now() - started);
})) as typeof setImmediate;
watchGroup(1_000_000);
await new Promise((resolve) => originalSetImmediate(resolve));
globalThis.setImmediate = originalSetImmediate;
unwatchGroup(1_000_000);

const perRunUs: number[] = [];
for (let round = 0; round < 5; round += 1) {
  const started = performance.now();
  for (let run = 0; run < RUNS; run += 1) {
    watchGroup(2_000_000 + run);
    watchDir(`/tmp/coderline-run-bench${run}`);
    unwatchDir(`/tmp/coderline-run-bench${run}`);
    unwatchGroup(2_000_000 + run);
  }
  perRunUs.push(((performance.now() - started) / RUNS) * 1000);
}
process.stdout.write(`${JSON.stringify({ startMs: startMs[0], perRunUs: spread(perRunUs) })}\n`);
