// What the queue's checks of a job cost per job, with no Redis and no CLI: the shape check (the run
// options' schema; enqueue() and the worker each run it) and the worker's refusals (the allowlist,
// and the real paths of the working directory and the attached files inside the workspace root), and its
// bounds (jobLimits: numbers, the schema's size and depth, the attached files' sizes).
// Prints one JSON line per measurement: µs per job, median of 9 rounds of 2,000 jobs each.
// Runs from source through tsx: node --import tsx bench/queue-checks.ts
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkedJobData } from '../src/queue/job-data.js';
import { DEFAULT_JOB_LIMITS, limitIssues } from '../src/queue/job-limits.js';
import { refusedOptions, type JobPolicy } from '../src/queue/job-policy.js';
import type { JobData } from '../src/queue/protocol.js';

const JOBS = 2_000;
const ROUNDS = 9;
const root = realpathSync(mkdtempSync(join(tmpdir(), 'coderline-bench-root-')));
mkdirSync(join(root, 'repo'));
writeFileSync(join(root, 'repo', 'diff.patch'), 'diff');
const policy: JobPolicy = { allowOptions: new Set(), workspaceRoot: root, sessionRoot: undefined };

/** Jobs as a producer makes them: a plain one, and one with a working directory, a file and an output schema. */
const jobs: Record<string, JobData> = {
  plain: { cli: 'claude', prompt: 'Review this pull request.', options: { model: 'sonnet' }, events: { maxLen: 10_000, raw: false } },
  'paths+schema': {
    cli: 'claude',
    prompt: 'Review this pull request.'.repeat(40),
    options: { model: 'sonnet', workingDirectory: join(root, 'repo'), files: ['diff.patch'], tools: ['lookupTicket'], canUseTool: 'readOnly', outputSchema: { type: 'object', properties: { verdict: { type: 'string' } }, required: ['verdict'] } },
    events: { maxLen: 10_000, raw: false },
  },
};

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function microsPerJob(work: () => unknown): Promise<number> {
  for (let i = 0; i < 200; i += 1) await work();
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const started = performance.now();
    for (let i = 0; i < JOBS; i += 1) await work();
    rounds.push(((performance.now() - started) * 1_000) / JOBS);
  }
  return Math.round(median(rounds) * 10) / 10;
}

for (const [kind, data] of Object.entries(jobs)) {
  // A job read from Redis is a fresh object each time: JSON round trip, as BullMQ hands it over.
  const text = JSON.stringify(data);
  const parse = await microsPerJob(() => JSON.parse(text));
  const shape = await microsPerJob(() => checkedJobData(JSON.parse(text)));
  const refusals = await microsPerJob(() => refusedOptions(JSON.parse(text) as JobData, policy));
  const limits = await microsPerJob(() => limitIssues(JSON.parse(text) as JobData, { attempts: 3, backoffMs: 1_000 }, DEFAULT_JOB_LIMITS, join(root, 'repo')));
  process.stdout.write(`${JSON.stringify({ kind, jsonParseUs: parse, shapeCheckUs: shape, refusalsUs: refusals, limitsUs: limits })}\n`);
}
