// Translation alone, no process: each adapter's recorded fixtures (every version), repeated to about
// 200k lines, split and parsed (the baseline) vs. split, parsed and translated. A slow translator
// cannot hide behind process costs here. Prints one JSON line per adapter.
//   node translate.mjs <fixtures dir>
import { readdirSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { LineSplitter } from '../src/core/stream/lines.js';
import type { ResolvedOpts } from '../src/options.js';
import { builtInAdapters } from '../src/registry.js';
import { spread, type Spread } from './report.js';

const TARGET_LINES = 200_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const fixturesDir = pathToFileURL(`${process.argv[2]}/`);

interface Recording {
  bytes: Buffer;
  lines: number;
  opts: ResolvedOpts;
}

/** Every recorded turn of one CLI with the options it was recorded with. */
function recordings(cli: string): Recording[] {
  const dir = new URL(`${cli}/`, fixturesDir);
  return readdirSync(dir).flatMap((version) => {
    const folder = new URL(`${version}/`, dir);
    return readdirSync(folder)
      .filter((name) => name.endsWith('.jsonl'))
      .map((name) => {
        const text = readFileSync(new URL(name, folder), 'utf8');
        const metaFile = new URL(name.replace(/\.jsonl$/, '.meta.json'), folder);
        let opts: ResolvedOpts = {};
        try {
          opts = (JSON.parse(readFileSync(metaFile, 'utf8')) as { opts?: ResolvedOpts }).opts ?? {};
        } catch {
          // A recording without meta ran with default options.
        }
        return { bytes: Buffer.from(text), lines: text.split('\n').filter((line) => line.trim() !== '').length, opts };
      })
      .filter((recording) => recording.lines > 0);
  });
}

/** One pass over every recording; `perLine` sees each parsed record. Returns ms. */
function pass(all: Recording[], repeats: number, perLine: (recording: Recording) => (record: unknown) => void): number {
  const started = performance.now();
  for (let r = 0; r < repeats; r += 1) {
    for (const recording of all) {
      const handle = perLine(recording);
      const lines = new LineSplitter(32 * 1024 * 1024, { line: (line) => handle(JSON.parse(line)), oversized: () => {} });
      lines.push(recording.bytes);
      lines.end();
    }
  }
  return performance.now() - started;
}

export interface TranslateReport {
  cli: string;
  lines: number;
  events: number;
  parseMs: Spread;
  translateMs: Spread;
  /** Per-round ratio of translate to parse. */
  ratio: Spread;
}

for (const [cli, adapter] of Object.entries(builtInAdapters)) {
  const all = recordings(cli);
  const linesPerPass = all.reduce((sum, recording) => sum + recording.lines, 0);
  const repeats = Math.ceil(TARGET_LINES / linesPerPass);
  let events = 0;
  const parseOnly = () => () => {};
  const translate = (recording: Recording) => {
    const translator = adapter.createTranslator({ opts: recording.opts, session: { kind: 'new' } });
    return (record: unknown) => {
      events += translator.translate(record).length;
    };
  };
  const parseTimes: number[] = [];
  const translateTimes: number[] = [];
  pass(all, 1, translate); // warm-up: both paths compiled before timing
  pass(all, 1, parseOnly);
  for (let round = 0; round < ROUNDS; round += 1) {
    parseTimes.push(pass(all, repeats, parseOnly));
    events = 0;
    translateTimes.push(pass(all, repeats, translate));
  }
  const report: TranslateReport = {
    cli,
    lines: linesPerPass * repeats,
    events,
    parseMs: spread(parseTimes),
    translateMs: spread(translateTimes),
    ratio: spread(translateTimes.map((ms, i) => ms / parseTimes[i]!)),
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}
