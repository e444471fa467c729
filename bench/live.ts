// Per-turn latency of a conversation: one live process for all turns (`coder.open()`, `send()` per
// turn) against a new process per turn (`session.run()`, resuming the session each time). Each turn
// is timed from the call to its result; the live session's `open()` is timed apart (it spawns the
// process, the first turn then writes to it). Two CLIs:
//   claude  the real pinned `claude` against the fake Anthropic server (src/testing) on 127.0.0.1
//   fake    the bench's fake CLI (BENCH_LIVE=1: the recorded turn replayed for each user line)
// Prints one JSON line per CLI.   node live.mjs <fake-cli> <claude-bin> <coderline.js> [claude|fake …]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SharedStartOpts } from '../src/options.js';
import { startFakeModel } from '../src/testing/index.js';

const [fakeCli, claudeBin, coderlinePath, ...chosen] = process.argv.slice(2) as [string, string, string, ...string[]];
const { createCoder } = (await import(pathToFileURL(coderlinePath).href)) as typeof import('../src/index.js');
const TURNS = Number(process.env.BENCH_LIVE_TURNS ?? 10);
const ROUNDS = Number(process.env.BENCH_LIVE_ROUNDS ?? 2);

export interface LiveReport {
  cli: 'claude' | 'fake';
  turns: number;
  rounds: number;
  /** Every turn of every round, in ms: a new process per turn (resume). */
  oneShotMs: number[];
  /** Every turn of every round, in ms: one live process. */
  liveMs: number[];
  /** `coder.open()`: spawn of the live process, per round. */
  openMs: number[];
}

/** Each turn of one conversation, a new process each (the first starts the session, the rest resume it). */
async function oneShotTurns(options: SharedStartOpts): Promise<number[]> {
  const coder = createCoder('claude', options);
  try {
    const session = coder.start();
    const times: number[] = [];
    for (let turn = 0; turn < TURNS; turn += 1) {
      const started = performance.now();
      const result = await session.run(`turn ${turn + 1}`);
      if (result.status !== 'success') throw new Error(`one-shot turn ${turn + 1} ended ${result.status}: ${result.error?.message}`);
      times.push(performance.now() - started);
    }
    return times;
  } finally {
    await coder.close();
  }
}

/** The same conversation over one live process. */
async function liveTurns(options: SharedStartOpts): Promise<{ openMs: number; times: number[] }> {
  const coder = createCoder('claude', options);
  try {
    const opened = performance.now();
    const live = await coder.open();
    const openMs = performance.now() - opened;
    try {
      const times: number[] = [];
      for (let turn = 0; turn < TURNS; turn += 1) {
        const started = performance.now();
        const result = await live.send(`turn ${turn + 1}`).result;
        if (result.status !== 'success') throw new Error(`live turn ${turn + 1} ended ${result.status}: ${result.error?.message}`);
        times.push(performance.now() - started);
      }
      return { openMs, times };
    } finally {
      await live.close();
    }
  } finally {
    await coder.close();
  }
}

/** Options for every conversation with this CLI; `done` removes what they made. */
async function optionsFor(cli: LiveReport['cli']): Promise<{ options: SharedStartOpts; done: () => Promise<void> }> {
  const workDir = mkdtempSync(join(tmpdir(), 'coderline-bench-live-'));
  const removeWorkDir = () => rmSync(workDir, { recursive: true, force: true });
  if (cli === 'fake') {
    return { options: { executablePath: fakeCli, workingDirectory: workDir, extraEnv: { BENCH_KIND: 'claude', BENCH_LIVE: '1' } }, done: async () => removeWorkDir() };
  }
  // One short reply per model request, the same for every turn.
  const model = await startFakeModel({ api: 'anthropic', script: [{ text: 'Noted.' }] });
  const env = await model.env('claude');
  return {
    options: { ...env, executablePath: claudeBin, workingDirectory: workDir },
    done: async () => {
      await model.close();
      removeWorkDir();
    },
  };
}

async function measure(cli: LiveReport['cli']): Promise<LiveReport> {
  const report: LiveReport = { cli, turns: TURNS, rounds: ROUNDS, oneShotMs: [], liveMs: [], openMs: [] };
  const { options, done } = await optionsFor(cli);
  try {
    // Untimed: the version probe (once per binary and directory) and the CLI's first start on this machine.
    const warmCoder = createCoder('claude', options);
    const warmUp = await warmCoder.start().run('warm-up');
    await warmCoder.close();
    if (warmUp.status !== 'success') throw new Error(`warm-up run ended ${warmUp.status}: ${warmUp.error?.message}`);
    for (let round = 0; round < ROUNDS; round += 1) {
      // Alternating which goes first, so neither always meets a machine the other just warmed.
      const order = round % 2 === 0 ? ['one-shot', 'live'] : ['live', 'one-shot'];
      for (const way of order) {
        if (way === 'one-shot') report.oneShotMs.push(...(await oneShotTurns(options)));
        else {
          const { openMs, times } = await liveTurns(options);
          report.openMs.push(openMs);
          report.liveMs.push(...times);
        }
      }
    }
  } finally {
    await done();
  }
  return report;
}

for (const cli of (chosen.length ? chosen : ['fake', 'claude']) as Array<LiveReport['cli']>) {
  process.stdout.write(`${JSON.stringify(await measure(cli))}\n`);
}
