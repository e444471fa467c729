#!/usr/bin/env node
// A stand-in for `claude` or `codex` that replays one real recorded turn as fast as the pipe takes it.
// Plain JS so it starts in the same few ms under every consumer (no loader in front of it).
//
// Driven by environment variables, because the vendor SDKs pass their own argv:
//   BENCH_KIND          claude | codex (which recording, and how `--version` answers)
//   BENCH_PARTIAL=1     Claude with partial messages (`--include-partial-messages`): the recorded turn
//                       streams its text as `stream_event` deltas before each whole message
//   BENCH_LINES         stdout lines in all (default: the recorded turn once, as recorded)
//   BENCH_BYTES         pad the recorded text fields so stdout totals about this many bytes
//   BENCH_STDERR_BYTES  write this much stderr at the same time as stdout
//   BENCH_MODE          replay (default) | stall (head lines, then silence) | hang (head lines, a
//                       grandchild in the process group, then silence)
//   BENCH_IGNORE_SIGNALS=1  ignore SIGINT/SIGTERM/SIGHUP (only SIGKILL stops it)
//   BENCH_LIVE=1        with `--input-format stream-json`: a live session, the recorded turn replayed
//                       for each user line until stdin ends (without it: one turn, as a one-shot SDK)
// The middle of the turn repeats with fresh ids; its first lines (init) and last line (the terminal
// record) come once, so the stream stays one turn however long it is.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const RECORDINGS = {
  claude: { fixture: 'claude/2.1.332/tool_bash.jsonl', head: 1, tail: 1, version: '2.1.332 (Claude Code)' },
  'claude-partial': { fixture: 'claude/2.1.332/partial_tool.jsonl', head: 2, tail: 1, version: '2.1.332 (Claude Code)' },
  codex: { fixture: 'codex/0.171.0/two-messages.jsonl', head: 2, tail: 1, version: 'codex-cli 0.171.0' },
};
/** Keys whose string values are per-message ids: they get fresh values in each repetition. */
const ID_KEYS = new Set(['id', 'uuid', 'tool_use_id']);
const BATCH_BYTES = 64 * 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const kind = process.env.BENCH_KIND ?? 'claude';
const recording = RECORDINGS[kind === 'claude' && process.env.BENCH_PARTIAL === '1' ? 'claude-partial' : kind];
if (!recording) throw new Error('BENCH_KIND must be claude or codex');

if (process.argv.includes('--version')) {
  process.stdout.write(`${recording.version}\n`);
  process.exit(0);
}
if (process.env.BENCH_IGNORE_SIGNALS === '1') for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => {});

const recorded = readFileSync(new URL(`../fixtures/${recording.fixture}`, import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '');
const head = recorded.slice(0, recording.head);
const tail = recorded.slice(recorded.length - recording.tail);
const body = recorded.slice(recording.head, recorded.length - recording.tail);

/**
 * A body line as literal parts and slots: `parts[0] slot[0] parts[1] …`. A slot is an id (index into
 * the turn's id list) or the text padding (-1). Parts are encoded once: a line is written as the
 * bytes of its pieces, so the fake spends its time in the pipe, not in encoding 1 GB of text.
 */
function compile(line, ids) {
  const marked = JSON.stringify(JSON.parse(line), function mark(key, value) {
    if (typeof value !== 'string') return value;
    if (ID_KEYS.has(key)) {
      if (!ids.includes(value)) ids.push(value);
      return `\u2063${ids.indexOf(value)}\u2063`;
    }
    if (key === 'text') return `${value}\u2063-1\u2063`;
    return value;
  });
  const pieces = marked.split('\u2063');
  return { parts: pieces.filter((_, i) => i % 2 === 0).map((part) => Buffer.from(part)), slots: pieces.filter((_, i) => i % 2 === 1).map(Number) };
}

/** The same id in every line of one repetition, different in each repetition. */
function freshId(original, repetition) {
  const suffix = repetition.toString(16);
  if (UUID.test(original)) return original.slice(0, 36 - suffix.length) + suffix;
  return `${original}_${suffix}`;
}

/** A line's pieces, in order: literal parts with the ids and the padding between them. */
function render({ parts, slots }, ids, pad) {
  const pieces = [parts[0]];
  for (let i = 0; i < slots.length; i += 1) pieces.push(slots[i] === -1 ? pad : ids[slots[i]], parts[i + 1]);
  return pieces;
}

const byteLength = (pieces) => pieces.reduce((sum, piece) => sum + piece.length, 0);
const encodeIds = (ids) => ids.map((id) => Buffer.from(id));

const originalIds = [];
const templates = body.map((line) => compile(line, originalIds));
const totalLines = Number(process.env.BENCH_LINES ?? recorded.length);
const bodyLines = Math.max(0, totalLines - head.length - tail.length);
const NO_PAD = Buffer.alloc(0);

function paddingFor(targetBytes) {
  if (!targetBytes) return NO_PAD;
  let plain = [...head, ...tail].reduce((sum, line) => sum + Buffer.byteLength(line) + 1, 0);
  let padded = 0;
  templates.forEach((template, t) => {
    const uses = Math.floor(bodyLines / templates.length) + (t < bodyLines % templates.length ? 1 : 0);
    plain += uses * (byteLength(render(template, encodeIds(originalIds), NO_PAD)) + 8);
    padded += uses * template.slots.filter((slot) => slot === -1).length;
  });
  if (padded === 0 || plain >= targetBytes) return NO_PAD;
  const length = Math.floor((targetBytes - plain) / padded);
  return Buffer.from(' lorem ipsum dolor'.repeat(Math.ceil(length / 18)).slice(0, length));
}

const NEWLINE = Buffer.from('\n');

/** Writes through a batch so a slow reader blocks us (backpressure) instead of queueing in memory. */
function writer(stream) {
  let batch = [];
  let bytes = 0;
  const flush = async () => {
    if (bytes === 0) return;
    const ok = stream.write(Buffer.concat(batch, bytes));
    batch = [];
    bytes = 0;
    if (!ok) await new Promise((resolve) => stream.once('drain', resolve));
  };
  return {
    /** One line, as a string or as its pieces. */
    async line(text) {
      const pieces = typeof text === 'string' ? [Buffer.from(text)] : text;
      for (const piece of pieces) batch.push(piece);
      batch.push(NEWLINE);
      bytes += byteLength(pieces) + 1;
      if (bytes >= BATCH_BYTES) await flush();
    },
    flush,
  };
}

async function replay() {
  const out = writer(process.stdout);
  for (const line of head) await out.line(line);
  const pad = paddingFor(Number(process.env.BENCH_BYTES ?? 0));
  let ids = encodeIds(originalIds);
  for (let i = 0; i < bodyLines; i += 1) {
    const repetition = Math.floor(i / templates.length);
    if (i % templates.length === 0 && repetition > 0) ids = encodeIds(originalIds.map((id) => freshId(id, repetition)));
    await out.line(render(templates[i % templates.length], ids, pad));
  }
  for (const line of tail) await out.line(line);
  await out.flush();
}

async function floodStderr(bytes) {
  const err = writer(process.stderr);
  const line = [Buffer.from(`[debug] ${'stderr noise '.repeat(8)}`)];
  for (let sent = 0; sent < bytes; sent += line[0].length + 1) await err.line(line);
  await err.flush();
}

async function silence() {
  const out = writer(process.stdout);
  for (const line of head) await out.line(line);
  await out.flush();
  if (process.env.BENCH_MODE === 'hang') spawn('sleep', ['1000'], { stdio: 'ignore' });
  setInterval(() => {}, 1 << 30);
}

/**
 * The Claude agent SDK talks stream-json on stdin: it sends an `initialize` control request and waits
 * for the answer, then the user message. Control requests are answered as they come; `nextUserMessage`
 * resolves at the next user line (true), or when stdin ends (false). The first turn is replayed either way.
 */
function streamJsonInput() {
  const waiting = [];
  let pending = 0;
  let ended = false;
  const input = createInterface({ input: process.stdin });
  input.on('line', (line) => {
    const message = JSON.parse(line);
    if (message.type === 'control_request') {
      const response = { subtype: 'success', request_id: message.request_id, response: {} };
      process.stdout.write(`${JSON.stringify({ type: 'control_response', response })}\n`);
    } else if (message.type === 'user') {
      if (waiting.length > 0) waiting.shift()(true);
      else pending += 1;
    }
  });
  input.on('close', () => {
    ended = true;
    for (const resolve of waiting.splice(0)) resolve(false);
  });
  return {
    nextUserMessage: () => {
      if (pending > 0) {
        pending -= 1;
        return Promise.resolve(true);
      }
      if (ended) return Promise.resolve(false);
      return new Promise((resolve) => waiting.push(resolve));
    },
  };
}

async function turn() {
  const mode = process.env.BENCH_MODE ?? 'replay';
  if (mode === 'replay') await Promise.all([replay(), floodStderr(Number(process.env.BENCH_STDERR_BYTES ?? 0))]);
  else await silence();
}

const inputIsStreamJson = process.argv.some((arg, i) => arg === '--input-format=stream-json' || (arg === '--input-format' && process.argv[i + 1] === 'stream-json'));
if (!inputIsStreamJson) await turn();
else {
  const input = streamJsonInput();
  await input.nextUserMessage();
  await turn();
  if (process.env.BENCH_LIVE === '1') while (await input.nextUserMessage()) await turn();
}
process.stdin.destroy();
