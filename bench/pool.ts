// 100 runs of one recorded Claude turn through `createPool(n)` at n = 1, 2, 4, 8: runs per second,
// and after each batch whatever the runs left behind — live processes of their groups, temp dirs,
// handles keeping the event loop alive. Prints one JSON line per concurrency.
//   node pool.mjs <fake> <coderline.js>
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { isGroupAlive } from '../src/core/process/process-group.js';

const [fake, coderlinePath] = process.argv.slice(2) as [string, string];
const { createPool, run } = (await import(pathToFileURL(coderlinePath).href)) as typeof import('../src/index.js');
const RUNS = 100;

const tempEntries = () => readdirSync(tmpdir()).filter((name) => name.startsWith('coderline-')).sort();
/**
 * What keeps the loop alive once things have settled (a child's process handle closes a moment after
 * its run resolves), minus timers. This process's own stdout, a pipe to the runner, is one PipeWrap.
 */
async function handles(): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, 250));
  return process.getActiveResourcesInfo().filter((kind) => kind !== 'Timeout').sort().join(',');
}

export interface PoolReport {
  concurrency: number;
  runs: number;
  ms: number;
  runsPerSecond: number;
  failed: number;
  leakedGroups: number;
  leakedTempEntries: string[];
  handlesBefore: string;
  handlesAfter: string;
}

// Warm-up: the version probe and execa's import are once per process.
await run('claude', 'bench prompt', { executablePath: fake, workingDirectory: tmpdir() });

for (const concurrency of [1, 2, 4, 8]) {
  const tempBefore = new Set(tempEntries());
  const handlesBefore = await handles();
  const pool = createPool(concurrency);
  const started = performance.now();
  const results = await Promise.all(
    Array.from({ length: RUNS }, () => pool.run('claude', 'bench prompt', { executablePath: fake, workingDirectory: tmpdir() })),
  );
  const ms = performance.now() - started;
  const report: PoolReport = {
    concurrency,
    runs: RUNS,
    ms,
    runsPerSecond: RUNS / (ms / 1000),
    failed: results.filter((result) => result.status !== 'success').length,
    leakedGroups: (await Promise.all(results.map((result) => result.pid !== undefined && isGroupAlive(result.pid)))).filter(Boolean).length,
    leakedTempEntries: tempEntries().filter((name) => !tempBefore.has(name)),
    handlesBefore,
    handlesAfter: await handles(),
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}
