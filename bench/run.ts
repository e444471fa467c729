// `npm run bench [-- section …]`: every measurement of docs/performance.md, side by side in one run.
// Each contender runs in a process of its own, rounds interleaved (A B C A B C …); the report gives
// medians with min–max and ratios taken per round against that round's floor. Sections:
//   throughput  200k recorded lines, Claude and Codex streams: floor, splitter, coderline, vendor SDK
//   memory      the Claude stream padded to ~1 GB (and with a stderr flood): wall time and RSS
//   partial     the same 1 GB Claude stream with partial messages (text deltas before each message)
//   cold        a 10-line turn as the first run of a fresh process: no warm-up, imports apart
//   import      cold import() in a fresh process: coderline vs. the vendor SDKs
//   latency     spawn → first event, abort → group gone, stall precision
//   live        per-turn latency of a 10-turn conversation: one live process vs a new process per turn
//               (resume), with the real claude against the fake Anthropic server and with the fake CLI
//   pool        100 runs at concurrency 1/2/4/8, and what they leave behind
//   translate   translation alone, per adapter, vs. split + JSON.parse of the same bytes
//   retention   heap a translator holds as a 1M-line run goes on (flat = nothing kept per record)
//   splitter    the line splitter vs. ndjson and readline (bench/line-splitter.ts)
//   queue       coderline/queue on a local redis-server vs. pool.run(): latency, jobs/s, Redis memory (bench/queue.ts)
//   ai-sdk      coderline/ai-sdk's doStream() over stream() on the 200k-line Claude and Codex streams, and the AI SDK's streamText() on top
// BENCH_ROUNDS (default 5) and BENCH_MEMORY_ROUNDS (default 3) set the rounds. BENCH_BASELINE=<git rev>
// adds coderline as of that commit to the throughput, memory, cold and import sections: before/after side by side.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { baselineEntry, baselineRetention, benchDir, buildBaseline, buildBench, coderlineEntry, fakeCli, outDir, programPath, rootDir } from './build.js';
import type { LatencyReport } from './latency.js';
import type { LiveReport } from './live.js';
import type { PoolReport } from './pool.js';
import { formatSpread, spread, table, type ConsumerName, type ConsumerReport, type StreamKind } from './report.js';
import type { RetentionReport } from './retention.js';
import type { TranslateReport } from './translate.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const MEMORY_ROUNDS = Number(process.env.BENCH_MEMORY_ROUNDS ?? 3);
const THROUGHPUT_LINES = 200_000;
const MEMORY_BYTES = 1_000_000_000;
const STDERR_FLOOD_BYTES = 256 * 2 ** 20;
const BASELINE = process.env.BENCH_BASELINE;
const COLD_LINES = 10;
const sections = ['throughput', 'memory', 'partial', 'cold', 'import', 'latency', 'live', 'pool', 'translate', 'retention', 'splitter', 'queue', 'ai-sdk'] as const;
/** The sections that race the vendor SDKs (installed into bench/node_modules only for them). */
const vendorSections: ReadonlySet<Section> = new Set(['throughput', 'memory', 'partial', 'cold', 'import']);
type Section = (typeof sections)[number];

const out: string[] = [];
const raw: Record<string, unknown> = {};
const say = (text = '') => {
  out.push(text);
  console.log(text);
};

/** Runs a bench program in a fresh node process; returns its stdout lines parsed. */
function program<T>(path: string, args: string[], env: Record<string, string> = {}, nodeFlags: string[] = []): T[] {
  const stdout = execFileSync(process.execPath, [...nodeFlags, path, ...args], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return stdout.split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as T);
}

interface Contender {
  label: string;
  consumer: ConsumerName;
  env?: Record<string, string>;
  /** The coderline build to load (default: the working tree's). */
  module?: string;
}

/** coderline as of BENCH_BASELINE, when given. */
const baseline = (contender: Contender): Contender[] =>
  BASELINE ? [{ ...contender, label: `${contender.label} @ ${BASELINE}`, module: baselineEntry }] : [];

/** Interleaved rounds of each contender on one stream; the first contender is the floor. */
function race(kind: StreamKind, env: Record<string, string>, contenders: Contender[], rounds: number) {
  const runs = new Map<string, ConsumerReport[]>(contenders.map((c) => [c.label, []]));
  for (let round = 0; round < rounds; round += 1) {
    for (const contender of contenders) {
      const [report] = program<ConsumerReport>(programPath('consume'), [contender.consumer, kind, fakeCli, contender.module ?? coderlineEntry], {
        BENCH_KIND: kind,
        ...env,
        ...contender.env,
      }, ['--expose-gc']);
      runs.get(contender.label)!.push(report!);
    }
  }
  const floor = runs.get(contenders[0]!.label)!;
  return contenders.map(({ label }) => {
    const reports = runs.get(label)!;
    return {
      label,
      reports,
      ms: spread(reports.map((r) => r.ms)),
      ratio: spread(reports.map((r, i) => r.ms / floor[i]!.ms)),
      cpuMs: spread(reports.map((r) => r.cpuMs)),
      cpuRatio: spread(reports.map((r, i) => r.cpuMs / floor[i]!.cpuMs)),
      firstMs: spread(reports.map((r) => r.firstMs)),
      coldFirstMs: spread(reports.map((r) => r.coldFirstMs)),
      peakRssMb: spread(reports.map((r) => r.peakRssMb)),
      importMs: spread(reports.map((r) => r.importMs ?? 0)),
      firstOverFloorMs: spread(reports.map((r, i) => r.firstMs - floor[i]!.firstMs)),
      rssAtQuarter: [0, 1, 2, 3].map((q) => spread(reports.map((r) => r.rssAtQuarter[q]!)).median),
      items: reports[0]!.items,
    };
  });
}

function throughput(): void {
  say('## Throughput: 200,000 recorded lines');
  for (const [kind, vendor] of [['claude', 'claude-sdk'], ['codex', 'codex-sdk']] as const) {
    const results = race(kind, { BENCH_LINES: String(THROUGHPUT_LINES) }, [
      { label: 'floor (spawn + readline + JSON.parse)', consumer: 'floor' },
      { label: 'byte splitter + JSON.parse', consumer: 'splitter' },
      { label: 'coderline `stream()`', consumer: 'coderline' },
      ...baseline({ label: 'coderline `stream()`', consumer: 'coderline' }),
      { label: 'coderline `run()` + onEvent', consumer: 'coderline-run' },
      { label: 'coderline `run()` + onEvent, 1 secret to redact', consumer: 'coderline-run', env: { BENCH_SECRETS: '1' } },
      { label: 'coderline `run()` + onEvent, 8 secrets to redact', consumer: 'coderline-run', env: { BENCH_SECRETS: '8' } },
      { label: `${vendor === 'claude-sdk' ? '@anthropic-ai/claude-agent-sdk' : '@openai/codex-sdk'}`, consumer: vendor },
    ], ROUNDS);
    raw[`throughput-${kind}`] = results;
    say();
    say(`### ${kind} stream, ${ROUNDS} interleaved rounds`);
    say();
    say(table(['consumer', 'wall ms, median (min–max)', '× floor, median (min–max)', 'CPU ms', 'CPU × floor', 'items', 'peak RSS MB', 'first item ms (cold first run)'], results.map((r) => [
      r.label, formatSpread(r.ms), formatSpread(r.ratio, 2), formatSpread(r.cpuMs), formatSpread(r.cpuRatio, 2), String(r.items), formatSpread(r.peakRssMb), `${r.firstMs.median.toFixed(0)} (${r.coldFirstMs.median.toFixed(0)})`,
    ])));
  }
}

function memory(): void {
  say('## Memory: the Claude stream padded to ~1 GB (200,000 lines)');
  const flood = { BENCH_STDERR_BYTES: String(STDERR_FLOOD_BYTES) };
  const results = race('claude', { BENCH_LINES: String(THROUGHPUT_LINES), BENCH_BYTES: String(MEMORY_BYTES) }, [
    { label: 'floor', consumer: 'floor' },
    { label: 'coderline `stream()`', consumer: 'coderline' },
    ...baseline({ label: 'coderline `stream()`', consumer: 'coderline' }),
    { label: 'coderline `run()` + onEvent', consumer: 'coderline-run' },
    { label: 'coderline `stream()` nobody reads (`await .result` only)', consumer: 'coderline-unread' },
    { label: '@anthropic-ai/claude-agent-sdk', consumer: 'claude-sdk' },
    { label: 'floor + 256 MiB stderr', consumer: 'floor', env: flood },
    { label: 'coderline `stream()` + 256 MiB stderr', consumer: 'coderline', env: flood },
    ...baseline({ label: 'coderline `stream()` + 256 MiB stderr', consumer: 'coderline', env: flood }),
    { label: 'coderline `run()` + onEvent + 256 MiB stderr', consumer: 'coderline-run', env: flood },
    { label: 'coderline `stream()` nobody reads + 256 MiB stderr', consumer: 'coderline-unread', env: flood },
  ], MEMORY_ROUNDS);
  raw.memory = results;
  say();
  say(`${MEMORY_ROUNDS} interleaved rounds. RSS at 25/50/75/100 % of the stream: medians.`);
  say();
  say(table(['consumer', 'wall ms', '× floor', 'CPU × floor', 'peak RSS MB', 'RSS MB at 25/50/75/100 %'], results.map((r) => [
    r.label, formatSpread(r.ms), formatSpread(r.ratio, 2), formatSpread(r.cpuRatio, 2), formatSpread(r.peakRssMb), r.rssAtQuarter.map((mb) => mb.toFixed(0)).join(' / '),
  ])));
}

function partialMessages(): void {
  say('## Partial messages: the Claude stream padded to ~1 GB, `streamPartialMessages: true`');
  const results = race('claude', { BENCH_LINES: String(THROUGHPUT_LINES), BENCH_BYTES: String(MEMORY_BYTES), BENCH_PARTIAL: '1' }, [
    { label: 'floor', consumer: 'floor' },
    { label: 'coderline `stream()`', consumer: 'coderline' },
    ...baseline({ label: 'coderline `stream()`', consumer: 'coderline' }),
    { label: 'coderline `run()` + onEvent', consumer: 'coderline-run' },
    ...baseline({ label: 'coderline `run()` + onEvent', consumer: 'coderline-run' }),
    { label: '@anthropic-ai/claude-agent-sdk (includePartialMessages)', consumer: 'claude-sdk' },
  ], MEMORY_ROUNDS);
  raw.partial = results;
  say();
  say(`${MEMORY_ROUNDS} interleaved rounds; the recorded turn is fixtures/claude/2.1.332/partial_tool.jsonl (a text delta stream before each whole message). RSS at 25/50/75/100 % of the stream: medians.`);
  say();
  say(table(['consumer', 'wall ms', '× floor', 'CPU × floor', 'peak RSS MB', 'RSS MB at 25/50/75/100 %'], results.map((r) => [
    r.label, formatSpread(r.ms), formatSpread(r.ratio, 2), formatSpread(r.cpuRatio, 2), formatSpread(r.peakRssMb), r.rssAtQuarter.map((mb) => mb.toFixed(0)).join(' / '),
  ])));
}

function coldFirstRun(): void {
  say(`## Cold first run: a ${COLD_LINES}-line Claude turn as the first run of a fresh process`);
  // The version cache as a user meets it: primed by an earlier process (warm), or never written
  // (a path no directory can be made at: every process probes).
  const cacheDir = mkdtempSync(join(tmpdir(), 'coderline-bench-cache-'));
  const warm = { CODERLINE_CACHE_DIR: cacheDir };
  const none = { CODERLINE_CACHE_DIR: '/dev/null/no-cache' };
  const env = { BENCH_LINES: String(COLD_LINES), BENCH_COLD: '1' };
  program(programPath('consume'), ['coderline-run', 'claude', fakeCli, coderlineEntry], { BENCH_KIND: 'claude', ...env, ...warm });
  const results = race('claude', env, [
    { label: 'floor (spawn + readline + JSON.parse)', consumer: 'floor' },
    { label: 'coderline `stream()`, version cache primed', consumer: 'coderline', env: warm },
    { label: 'coderline `run()`, version cache primed', consumer: 'coderline-run', env: warm },
    { label: 'coderline `run()`, no version cache', consumer: 'coderline-run', env: none },
    ...baseline({ label: 'coderline `run()`', consumer: 'coderline-run' }),
    { label: '@anthropic-ai/claude-agent-sdk', consumer: 'claude-sdk' },
  ], ROUNDS);
  rmSync(cacheDir, { recursive: true, force: true });
  raw.cold = results;
  say();
  say(`${ROUNDS} interleaved rounds, each consumer in a fresh process with no warm-up run. Times start after the import (its own column) and end at the turn's end.`);
  say();
  say(table(['consumer', 'import ms', 'first event ms', 'first − floor\'s, ms', 'turn wall ms', '× floor', 'CPU ms'], results.map((r) => [
    r.label, formatSpread(r.importMs, 1), formatSpread(r.firstMs, 1), formatSpread(r.firstOverFloorMs, 1), formatSpread(r.ms), formatSpread(r.ratio, 2), formatSpread(r.cpuMs),
  ])));
}

function importCost(): void {
  const targets = {
    coderline: coderlineEntry,
    ...(BASELINE ? { [`coderline @ ${BASELINE}`]: baselineEntry } : {}),
    '@anthropic-ai/claude-agent-sdk': `${benchDir}node_modules/@anthropic-ai/claude-agent-sdk/sdk.mjs`,
    '@openai/codex-sdk': `${benchDir}node_modules/@openai/codex-sdk/dist/index.js`,
  };
  const code = 'const t = performance.now(); await import(process.argv[1]); console.log(JSON.stringify({ ms: performance.now() - t }));';
  const times = new Map<string, number[]>(Object.keys(targets).map((name) => [name, []]));
  for (let round = 0; round < ROUNDS * 2; round += 1) {
    for (const [name, path] of Object.entries(targets)) {
      const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', code, path], { encoding: 'utf8' });
      times.get(name)!.push((JSON.parse(stdout) as { ms: number }).ms);
    }
  }
  raw.import = Object.fromEntries(times);
  say('## Import cost: cold `import()` in a fresh process');
  say();
  say(`${ROUNDS * 2} interleaved rounds; coderline is the package's ESM build (same tsup options as dist/).`);
  say();
  say(table(['module', 'ms, median (min–max)'], [...times].map(([name, ms]) => [name, formatSpread(spread(ms), 1)])));
}

function latency(): void {
  const [report] = program<LatencyReport>(programPath('latency'), [fakeCli, coderlineEntry], { BENCH_KIND: 'claude' });
  raw.latency = report;
  const r = report!;
  say('## Latency (one warm process, recorded Claude turn)');
  say();
  say(table(['what', 'ms, median (min–max)'], [
    ['floor: spawn → first line', formatSpread(r.floorFirstMs, 1)],
    ['coderline: `stream()` → first event', formatSpread(r.coderlineFirstMs, 1)],
    ['coderline − floor, per pair', formatSpread(r.firstDiffMs, 1)],
    ['abort → run settled, group gone (CLI exits on SIGINT)', formatSpread(r.abortMs, 0)],
    ['abort → run settled, group gone (CLI ignores SIGINT/SIGTERM)', formatSpread(r.abortIgnoringSignalsMs, 0)],
    [`stall: last output → settled, minus stallTimeoutMs (${r.stallTimeoutMs})`, formatSpread(r.stallOvershootMs, 0)],
  ]));
  say();
  say(`Process groups still alive after an aborted run settled: ${r.groupsLeft}.`);
}

function live(): void {
  const reports = program<LiveReport>(programPath('live'), [fakeCli, `${rootDir}node_modules/.bin/claude`, coderlineEntry]);
  raw.live = reports;
  say('## Live session vs a new process per turn: a 10-turn conversation');
  say();
  say(`Each turn timed from the call to its result; ${reports[0]?.rounds ?? 0} rounds of each, alternating which goes first, after one untimed warm-up run. Turn 1 of a one-shot conversation starts the session, later turns resume it; the live session's \`open()\` (its spawn) is timed apart.`);
  say();
  say(table(['CLI', 'one-shot turn ms', 'live turn 1 ms (the CLI starts)', 'live turns 2–n ms', 'saved per turn, ms (medians)', 'live `open()` ms'], reports.map((r) => {
    const oneShot = spread(r.oneShotMs);
    const first = spread(r.liveMs.filter((_, i) => i % r.turns === 0));
    const later = spread(r.liveMs.filter((_, i) => i % r.turns !== 0));
    return [
      r.cli === 'claude' ? 'claude (real binary, fake Anthropic server)' : 'bench fake CLI',
      formatSpread(oneShot), formatSpread(first), formatSpread(later), (oneShot.median - later.median).toFixed(0), formatSpread(spread(r.openMs)),
    ];
  })));
}

function pool(): void {
  // A temp dir of its own: other programs' coderline-* entries in the shared one must not count.
  const ownTemp = mkdtempSync(join(tmpdir(), 'coderline-bench-pool-'));
  const reports = program<PoolReport>(programPath('pool'), [fakeCli, coderlineEntry], { BENCH_KIND: 'claude', TMPDIR: ownTemp });
  rmSync(ownTemp, { recursive: true, force: true });
  raw.pool = reports;
  say('## Pool: 100 runs of a recorded Claude turn');
  say();
  say(table(['concurrency', 'wall ms', 'runs/s', 'failed', 'groups left', 'temp entries left', 'handles before → after'], reports.map((r) => [
    String(r.concurrency), r.ms.toFixed(0), r.runsPerSecond.toFixed(1), String(r.failed), String(r.leakedGroups),
    String(r.leakedTempEntries.length), `${r.handlesBefore || '–'} → ${r.handlesAfter || '–'}`,
  ])));
}

function translate(): void {
  const reports = program<TranslateReport>(programPath('translate'), [`${rootDir}fixtures`], { BENCH_ROUNDS: String(ROUNDS) });
  raw.translate = reports;
  say('## Translation alone (no process): every recorded fixture, repeated to ~200k lines');
  say();
  say(table(['adapter', 'lines', 'events', 'split + parse ms', 'split + parse + translate ms', '× parse', 'events/s (M)'], reports.map((r) => [
    r.cli, String(r.lines), String(r.events), formatSpread(r.parseMs), formatSpread(r.translateMs), formatSpread(r.ratio, 2),
    (r.events / r.translateMs.median / 1000).toFixed(2),
  ])));
}

function retention(): void {
  const builds = [['', programPath('retention')], ...(BASELINE ? [[` @ ${BASELINE}`, baselineRetention]] : [])];
  const reports = builds.flatMap(([suffix, path]) =>
    program<RetentionReport>(path!, [fakeCli], {}, ['--expose-gc']).map((report) => ({ ...report, cli: `${report.cli}${suffix}` })),
  );
  raw.retention = reports;
  say('## Retention: heap a translator holds as the run goes on (after a full GC)');
  say();
  say(table(['translator', 'lines', 'heap MB at 25 / 50 / 75 / 100 %'], reports.map((r) => [
    r.cli, String(r.lines), r.heapMbAtQuarter.map((mb) => mb.toFixed(1)).join(' / '),
  ])));
}

function splitter(): void {
  const stdout = execFileSync(`${rootDir}node_modules/.bin/tsx`, [`${benchDir}line-splitter.ts`], { encoding: 'utf8' });
  say('## Line splitter vs. ndjson and readline (in-process, bench/line-splitter.ts)');
  say();
  say('```');
  say(stdout.trim());
  say('```');
}

function versionOf(packageDir: string): string {
  return (JSON.parse(readFileSync(`${packageDir}/package.json`, 'utf8')) as { version: string }).version;
}

const wanted = process.argv.slice(2).filter((arg): arg is Section => (sections as readonly string[]).includes(arg));
const chosen: readonly Section[] = wanted.length ? wanted : sections;
const vendorSdks = chosen.some((section) => vendorSections.has(section));
await buildBench({ vendorSdks });
if (BASELINE) await buildBaseline(BASELINE);
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: rootDir, encoding: 'utf8' }).trim();
say(`# coderline bench, ${new Date().toISOString()}`);
say();
say(`- machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB; node ${process.version}`);
say(`- load average at start: ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
const vendorVersions = vendorSdks ? `; vendor SDKs: @anthropic-ai/claude-agent-sdk ${versionOf(`${benchDir}node_modules/@anthropic-ai/claude-agent-sdk`)}, @openai/codex-sdk ${versionOf(`${benchDir}node_modules/@openai/codex-sdk`)}` : '';
say(`- coderline at ${commit} (plus uncommitted changes, if any)${vendorVersions}`);
say(`- fake CLI: bench/fake-cli.mjs replaying fixtures/claude/2.1.332/tool_bash.jsonl and fixtures/codex/0.171.0/two-messages.jsonl`);
/** coderline/queue, from source through tsx (it starts its own redis-server and worker processes). */
function queue(): void {
  say('## queue: coderline/queue on one local redis-server vs. pool.run()');
  const reports = execFileSync(process.execPath, ['--import', 'tsx', join(benchDir, 'queue.ts')], { cwd: rootDir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, number | string>);
  raw.queue = reports;
  for (const report of reports) say(`- ${Object.entries(report).map(([key, value]) => `${key} ${typeof value === 'number' ? Math.round(value * 10) / 10 : value}`).join(', ')}`);
  say();
}

/** coderline/ai-sdk's provider against the stream() it reads: the ratio column is × stream(), per round. */
function aiSdk(): void {
  say('## coderline/ai-sdk: doStream() over stream(), 200,000 recorded lines');
  for (const kind of ['claude', 'codex'] as const) {
    const results = race(kind, { BENCH_LINES: String(THROUGHPUT_LINES) }, [
      { label: 'coderline `stream()`', consumer: 'coderline' },
      { label: 'coderline/ai-sdk `doStream()` parts', consumer: 'ai-sdk' },
      { label: 'floor (spawn + readline + JSON.parse)', consumer: 'floor' },
    ], ROUNDS);
    raw[`ai-sdk-${kind}`] = results;
    say();
    say(`### ${kind} stream, ${ROUNDS} interleaved rounds`);
    say();
    say(table(['consumer', 'wall ms, median (min–max)', '× stream(), median (min–max)', 'CPU ms', 'CPU × stream()', 'items', 'peak RSS MB'], results.map((r) => [
      r.label, formatSpread(r.ms), formatSpread(r.ratio, 2), formatSpread(r.cpuMs), formatSpread(r.cpuRatio, 2), String(r.items), formatSpread(r.peakRssMb),
    ])));
  }
  // What an app pays on top: the AI SDK's own pipeline over the model (over a minute a run: one round).
  const [stream, streamTextRun] = race('codex', { BENCH_LINES: String(THROUGHPUT_LINES) }, [
    { label: 'coderline `stream()`', consumer: 'coderline' },
    { label: '`ai` `streamText()` over coderline/ai-sdk, its `fullStream`', consumer: 'ai-sdk-streamtext' },
  ], 1);
  raw['ai-sdk-streamtext'] = [stream, streamTextRun];
  say();
  say(`\`streamText()\` on the codex stream, one round: ${streamTextRun!.ms.median.toFixed(0)} ms wall, ${streamTextRun!.cpuMs.median.toFixed(0)} ms CPU (${streamTextRun!.cpuRatio.median.toFixed(1)}× \`stream()\`'s ${stream!.cpuMs.median.toFixed(0)}), peak RSS ${streamTextRun!.peakRssMb.median.toFixed(0)} MB.`);
}

const steps: Record<Section, () => void> = { throughput, memory, partial: partialMessages, cold: coldFirstRun, import: importCost, latency, live, pool, translate, retention, splitter, queue, 'ai-sdk': aiSdk };
for (const section of chosen) {
  say();
  steps[section]();
}
say();
say(`- load average at end: ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
mkdirSync(outDir, { recursive: true });
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
writeFileSync(`${outDir}report-${stamp}.md`, `${out.join('\n')}\n`);
writeFileSync(`${outDir}raw-${stamp}.json`, `${JSON.stringify(raw, null, 2)}\n`);
console.log(`\nreport: bench/.out/report-${stamp}.md, raw numbers: bench/.out/raw-${stamp}.json`);
