import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createPool, type CoderStreamEvent } from '../../src/index.js';
import { fakeAdapter, script } from '../support/fake-adapter.js';
import { isGroupAlive, isProcessAlive } from '../support/processes.js';
import { waitFor } from '../support/wait.js';

const fake = fakeAdapter();

function handleCounts(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

describe('the pool', () => {
  it('runs 50 concurrent runs at most 8 at a time and leaves no processes, temp files or handles', async () => {
    const before = handleCounts();
    const pool = createPool(8);
    let peak = 0;
    let mostWaiting = 0;
    const schemaFiles: string[] = [];
    const runs = Array.from({ length: 50 }, (_, i) =>
      pool.run(fake, `job ${i}`, {
        ...script([{ echoArgs: 1 }, { sleep: 30 }, { out: { type: 'done', text: `{"i":${i}}` } }]),
        outputSchema: { type: 'object', properties: { i: { type: 'number' } }, required: ['i'] },
        onEvent: (event: CoderStreamEvent) => {
          peak = Math.max(peak, pool.activeCount());
          mostWaiting = Math.max(mostWaiting, pool.pendingCount());
          if (event.type === 'progress' && event.subtype === 'args') {
            const args = (event.raw as { args: string[] }).args;
            schemaFiles.push(args[args.indexOf('--schema') + 1]!);
          }
        },
      }),
    );
    const results = await Promise.all(runs);
    expect(results.map((r) => r.status)).toEqual(Array(50).fill('success'));
    expect(results.map((r) => (r.output as { i: number }).i)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(peak).toBeLessThanOrEqual(8);
    expect(peak).toBeGreaterThan(1);
    // While 8 ran, the others waited; none is left waiting or running.
    expect(mostWaiting).toBeGreaterThan(30);
    expect([pool.activeCount(), pool.pendingCount()]).toEqual([0, 0]);
    expect(results.filter((r) => isGroupAlive(r.pid!))).toEqual([]);
    expect(schemaFiles).toHaveLength(50);
    expect(schemaFiles.filter((file) => existsSync(file))).toEqual([]);
    await waitFor(() => {
      const after = handleCounts();
      return ['ProcessWrap', 'PipeWrap', 'Timeout'].every((kind) => (after[kind] ?? 0) <= (before[kind] ?? 0));
    }, 20_000);
  });
});

describe('when the host process dies', () => {
  it.each(['SIGTERM', 'SIGINT', 'SIGHUP'] as const)('%s to the host kills the live CLI groups too', async (signal) => {
    const host = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../support/host-with-hung-cli.ts', import.meta.url))], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const lines = createInterface({ input: host.stdout! });
    const first = await new Promise<string>((resolve) => lines.once('line', resolve));
    const { grandchild } = JSON.parse(first) as { grandchild: number };
    expect(isProcessAlive(grandchild)).toBe(true);
    const exited = new Promise((resolve) => host.once('exit', (code, sig) => resolve(sig ?? code)));
    host.kill(signal);
    expect(await exited).toBe(signal);
    await waitFor(() => !isProcessAlive(grandchild));
  });
});
