// Why the core splits lines itself instead of using `ndjson`: the same bytes through both, several
// interleaved rounds, medians. `npx tsx bench/line-splitter.ts`
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import ndjson from 'ndjson';
import { LineSplitter } from '../src/core/stream/lines.js';

const LINES = 200_000;
const CHUNK = 64 * 1024;

function recordedLines(): string[] {
  const dir = new URL('../fixtures/claude/', import.meta.url);
  const version = readdirSync(dir).sort().at(-1)!;
  const folder = new URL(`${version}/`, dir);
  return readdirSync(folder)
    .filter((name) => name.endsWith('.jsonl'))
    .flatMap((name) => readFileSync(new URL(name, folder), 'utf8').split('\n'))
    .filter((line) => line.trim() !== '');
}

const source = recordedLines();
const text = Array.from({ length: LINES }, (_, i) => source[i % source.length]).join('\n') + '\n';
const bytes = Buffer.from(text);
const chunks = Array.from({ length: Math.ceil(bytes.length / CHUNK) }, (_, i) => bytes.subarray(i * CHUNK, (i + 1) * CHUNK));

async function splitter(): Promise<number> {
  let n = 0;
  const lines = new LineSplitter(32 * 1024 * 1024, { line: (line) => { JSON.parse(line); n += 1; }, oversized: () => {} });
  for await (const chunk of Readable.from(chunks)) lines.push(chunk as Buffer);
  lines.end();
  return n;
}

function viaNdjson(): Promise<number> {
  return new Promise((resolve, reject) => {
    let n = 0;
    Readable.from(chunks).pipe(ndjson.parse()).on('data', () => { n += 1; }).on('end', () => resolve(n)).on('error', reject);
  });
}

async function viaReadline(): Promise<number> {
  let n = 0;
  for await (const line of createInterface({ input: Readable.from(chunks), crlfDelay: Infinity })) { JSON.parse(line); n += 1; }
  return n;
}

const contenders = { splitter, ndjson: viaNdjson, readline: viaReadline };
const times: Record<string, number[]> = { splitter: [], ndjson: [], readline: [] };
for (let round = 0; round < 7; round += 1) {
  for (const [name, fn] of Object.entries(contenders)) {
    const started = performance.now();
    const n = await fn();
    if (n !== LINES) throw new Error(`${name} saw ${n} lines`);
    times[name]!.push(performance.now() - started);
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(`${LINES} recorded Claude lines, ${(bytes.length / 1e6).toFixed(1)} MB, 7 interleaved rounds`);
for (const [name, xs] of Object.entries(times)) {
  console.log(`${name.padEnd(9)} median ${median(xs).toFixed(0)} ms  (min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)})  ${(median(xs) / median(times.splitter!)).toFixed(2)}x`);
}
