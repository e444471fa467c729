// One consumer of one fake CLI stream, alone in this process so its RSS is its own. Prints one JSON
// line: wall time from spawn to exit, time to the first item, items seen, peak RSS, and RSS at each
// quarter of the stream, for a run after one untimed warm-up run. The fake reads its settings (BENCH_*) from the environment we inherit.
// BENCH_COLD=1: no warm-up; the module is imported untimed (`importMs`), then the process's first run
// is timed, as a script or a CI job that runs one agent meets it. BENCH_PARTIAL=1: Claude with
// partial messages (`streamPartialMessages` / `includePartialMessages`). BENCH_SECRETS=N: `run()` is given
// N secret values (token-like: `sk-` and 40 base64url characters, in extraEnv), so every line is scanned
// for them (src/core/secrets/redact.ts).
//   node consume.mjs <floor|splitter|coderline|coderline-run|coderline-unread|ai-sdk|ai-sdk-streamtext|claude-sdk|codex-sdk> <claude|codex> <fake> <coderline.js>
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { LineSplitter } from '../src/core/stream/lines.js';
import type { ConsumerName, ConsumerReport, StreamKind } from './report.js';

type Consume = (fake: string, onItem: () => void) => Promise<void>;

function spawnFake(fake: string) {
  const child = spawn(fake, [], { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end('bench prompt');
  // Drained independently of stdout, so a stderr flood never stalls the stdout reader.
  child.stderr.resume();
  return { child, exited: once(child, 'close') };
}

/** The least any SDK must do: spawn, split lines (node's readline), JSON.parse each. */
const floor: Consume = async (fake, onItem) => {
  const { child, exited } = spawnFake(fake);
  for await (const line of createInterface({ input: child.stdout, crlfDelay: Infinity })) {
    JSON.parse(line);
    onItem();
  }
  await exited;
};

/** The floor with coderline's byte-level splitter instead of readline. */
const splitter: Consume = async (fake, onItem) => {
  const { child, exited } = spawnFake(fake);
  const lines = new LineSplitter(32 * 1024 * 1024, { line: (line) => { JSON.parse(line); onItem(); }, oversized: () => {} });
  child.stdout.on('data', (chunk: Buffer) => lines.push(chunk));
  await exited;
  lines.end();
};

type Coderline = typeof import('../src/index.js');
const partial = process.env.BENCH_PARTIAL === '1';
/** Secret values the stream does not contain: the cost measured is the scan of every clean line. */
const secrets = Object.fromEntries(
  Array.from({ length: Number(process.env.BENCH_SECRETS ?? 0) }, (_, i) => [`BENCH_SECRET_${i}`, `sk-${createHash('sha256').update(`bench secret ${i}`).digest('base64url').slice(0, 40)}`]),
);
const loadCoderline = async (modulePath: string) => (await import(pathToFileURL(modulePath).href)) as Coderline;

/** `session.stream()`: events through an async iterator, like the vendor SDKs hand them out. */
function coderlineStream(kind: StreamKind, modulePath: string): Consume {
  return async (fake, onItem) => {
    const { createCoder } = await loadCoderline(modulePath);
    const coder = createCoder(kind, { executablePath: fake, workingDirectory: tmpdir() });
    try {
      const stream = coder.start().stream('bench prompt', partial ? { streamPartialMessages: true } : {});
      for await (const event of stream) {
        if (event.type !== 'stderr') onItem();
      }
      const result = await stream.result;
      if (result.status !== 'success') throw new Error(`coderline run ended ${result.status}: ${result.error?.message}`);
    } finally {
      await coder.close();
    }
  };
}

/** `session.stream()` nobody iterates: only `.result` is awaited (`onEvent` counts the events). */
function coderlineUnread(kind: StreamKind, modulePath: string): Consume {
  return async (fake, onItem) => {
    const { createCoder } = await loadCoderline(modulePath);
    const coder = createCoder(kind, { executablePath: fake, workingDirectory: tmpdir() });
    try {
      const stream = coder.start().stream('bench prompt', {
        onEvent: (event) => {
          if (event.type !== 'stderr') onItem();
        },
      });
      const result = await stream.result;
      if (result.status !== 'success') throw new Error(`coderline run ended ${result.status}: ${result.error?.message}`);
    } finally {
      await coder.close();
    }
  };
}

/** `run()` with an `onEvent` callback: no iterator in between. */
function coderlineRun(kind: StreamKind, modulePath: string): Consume {
  return async (fake, onItem) => {
    const { run } = await loadCoderline(modulePath);
    const result = await run(kind, 'bench prompt', {
      executablePath: fake,
      workingDirectory: tmpdir(),
      ...(partial && { streamPartialMessages: true }),
      ...(Object.keys(secrets).length > 0 && { extraEnv: secrets }),
      onEvent: (event) => {
        if (event.type !== 'stderr') onItem();
      },
    });
    if (result.status !== 'success') throw new Error(`coderline run ended ${result.status}: ${result.error?.message}`);
  };
}

type AiSdk = typeof import('../src/ai-sdk/index.js');
/** coderline/ai-sdk, built beside the index it imports. */
const loadAiSdk = async (modulePath: string) => (await import(pathToFileURL(modulePath.replace(/index\.js$/, 'ai-sdk.js')).href)) as AiSdk;

/** coderline/ai-sdk's `doStream()`: the run's events as the AI SDK's stream parts, read as `streamText` reads them. */
function aiSdkStream(kind: StreamKind, modulePath: string): Consume {
  return async (fake, onItem) => {
    const { coderline } = await loadAiSdk(modulePath);
    const model = coderline(kind, { executablePath: fake, workingDirectory: tmpdir() });
    try {
      const { stream } = await model.doStream({ prompt: [{ role: 'user', content: [{ type: 'text', text: 'bench prompt' }] }] });
      const reader = stream.getReader();
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        if (next.value.type === 'error') throw next.value.error;
        onItem();
      }
    } finally {
      await model.close();
    }
  };
}

/** The AI SDK's `streamText()` over coderline/ai-sdk's model: its full stream, as an app reads it. */
function aiSdkStreamText(kind: StreamKind, modulePath: string): Consume {
  return async (fake, onItem) => {
    const [{ coderline }, { streamText }] = await Promise.all([loadAiSdk(modulePath), import('ai')]);
    const model = coderline(kind, { executablePath: fake, workingDirectory: tmpdir() });
    try {
      for await (const part of streamText({ model, prompt: 'bench prompt' }).fullStream) {
        if (part.type === 'error') throw part.error;
        onItem();
      }
    } finally {
      await model.close();
    }
  };
}

// The vendor SDKs live in bench/node_modules only (installed by the runner), so the type checker of
// a fresh clone never sees them: they are loaded by a computed name, typed as far as we use them.
interface ClaudeSdk {
  query(request: { prompt: string; options: { pathToClaudeCodeExecutable: string; cwd: string; includePartialMessages?: boolean } }): AsyncIterable<unknown>;
}
interface CodexSdk {
  Codex: new (options: { codexPathOverride: string }) => {
    startThread(options: { workingDirectory: string; skipGitRepoCheck: boolean }): { runStreamed(prompt: string): Promise<{ events: AsyncIterable<unknown> }> };
  };
}
const vendor = <T>(name: string) => import(name) as Promise<T>;

const claudeSdk: Consume = async (fake, onItem) => {
  const { query } = await vendor<ClaudeSdk>('@anthropic-ai/claude-agent-sdk');
  for await (const message of query({ prompt: 'bench prompt', options: { pathToClaudeCodeExecutable: fake, cwd: tmpdir(), ...(partial && { includePartialMessages: true }) } })) {
    if (message) onItem();
  }
};

const codexSdk: Consume = async (fake, onItem) => {
  const { Codex } = await vendor<CodexSdk>('@openai/codex-sdk');
  const thread = new Codex({ codexPathOverride: fake }).startThread({ workingDirectory: tmpdir(), skipGitRepoCheck: true });
  const { events } = await thread.runStreamed('bench prompt');
  for await (const event of events) {
    if (event) onItem();
  }
};

/** What each consumer imports before its first run (the floor imports nothing of its own). */
const modulesOf = (name: ConsumerName, coderlinePath: string): Array<() => Promise<unknown>> => ({
  floor: [],
  splitter: [],
  coderline: [() => loadCoderline(coderlinePath)],
  'coderline-run': [() => loadCoderline(coderlinePath)],
  'coderline-unread': [() => loadCoderline(coderlinePath)],
  'ai-sdk': [() => loadAiSdk(coderlinePath)],
  'ai-sdk-streamtext': [() => loadAiSdk(coderlinePath), () => import('ai')],
  'claude-sdk': [() => vendor('@anthropic-ai/claude-agent-sdk')],
  'codex-sdk': [() => vendor('@openai/codex-sdk')],
})[name];

/** One timed run: wall and CPU time, time to the first item, items (each count also to `onCount`). */
async function timed(consume: Consume, fake: string, onCount: (items: number) => void) {
  let items = 0;
  let firstMs: number | undefined;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  await consume(fake, () => {
    items += 1;
    onCount(items);
    firstMs ??= performance.now() - started;
  });
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, firstMs: firstMs ?? ms, items };
}

/** The first run of a fresh process, imports excluded (measured apart): no warm-up, no GC first. */
async function coldRun(name: ConsumerName, consume: Consume, fake: string, coderlinePath: string): Promise<void> {
  const importStarted = performance.now();
  for (const load of modulesOf(name, coderlinePath)) await load();
  const importMs = performance.now() - importStarted;
  const { ms, cpuMs, firstMs, items } = await timed(consume, fake, () => {});
  const rss = process.resourceUsage().maxRSS / 1024;
  const report: ConsumerReport = { ms, cpuMs, firstMs, coldFirstMs: firstMs, importMs, items, peakRssMb: rss, rssAtQuarter: [rss, rss, rss, rss] };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

async function main(): Promise<void> {
  const [name, kind, fake, coderlinePath] = process.argv.slice(2) as [ConsumerName, StreamKind, string, string];
  const consumers: Record<ConsumerName, Consume> = {
    floor,
    splitter,
    coderline: coderlineStream(kind, coderlinePath),
    'coderline-run': coderlineRun(kind, coderlinePath),
    'coderline-unread': coderlineUnread(kind, coderlinePath),
    'ai-sdk': aiSdkStream(kind, coderlinePath),
    'ai-sdk-streamtext': aiSdkStreamText(kind, coderlinePath),
    'claude-sdk': claudeSdk,
    'codex-sdk': codexSdk,
  };
  const consume = consumers[name];
  if (!consume) throw new Error(`unknown consumer ${name}`);
  if (process.env.BENCH_COLD === '1') return coldRun(name, consume, fake, coderlinePath);

  // One short run first, untimed: imports, the version probe and JIT warm-up are once per process
  // (they are measured on their own: import cost, latency), throughput is what is timed here.
  const timedEnv = { ...process.env };
  for (const name of ['BENCH_LINES', 'BENCH_BYTES', 'BENCH_STDERR_BYTES']) delete process.env[name];
  const warmStarted = performance.now();
  let coldFirstMs: number | undefined;
  await consume(fake, () => {
    coldFirstMs ??= performance.now() - warmStarted;
  });
  Object.assign(process.env, timedEnv);
  // Every consumer starts the timed run from a collected heap: otherwise whether the first full GC
  // after loading falls inside the timed run or before it decides ~10 % of a 200k-line run.
  (globalThis as { gc?: () => void }).gc?.();

  const samples: Array<[items: number, rss: number]> = [];
  let seen = 0;
  const sampler = setInterval(() => samples.push([seen, process.memoryUsage.rss()]), 50);
  const { ms, cpuMs, firstMs, items } = await timed(consume, fake, (count) => (seen = count));
  clearInterval(sampler);
  samples.push([items, process.memoryUsage.rss()]);

  // RSS at each quarter of the stream: flat means nothing grows with the output.
  const rssAtQuarter = [0.25, 0.5, 0.75, 1].map((quarter) => {
    const sample = samples.find(([seen]) => seen >= quarter * items) ?? samples.at(-1)!;
    return sample[1] / 2 ** 20;
  });
  const report: ConsumerReport = { ms, cpuMs, firstMs, coldFirstMs: coldFirstMs ?? 0, items, peakRssMb: process.resourceUsage().maxRSS / 1024, rssAtQuarter };
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

await main();
