// Records fixtures/opencode/<version>/: the real `opencode run --format json` run offline against the
// fake chat-completions server, with the argv and environment the adapter builds (buildInvocation):
// stdout exactly as printed, plus <name>.meta.json (argv, exit, stderr, requests made).
// OPENCODE_RECORD_BIN=/path/to/opencode records another install; OPENCODE_SCENARIOS=a,b picks scenarios.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { opencodeAdapter } from '../../src/adapters/opencode/index.js';
import type { SessionTarget } from '../../src/core/contract/adapter.js';
import { buildEnv } from '../../src/core/process/env.js';
import type { ResolvedOpts } from '../../src/options.js';
import { startFakeChat } from '../../src/testing/openai-chat.js';
import { OPENCODE_BIN, OPENCODE_FAKE_REASONING_MODEL, opencodeFakeOpts } from '../../src/testing/opencode-env.js';
import type { Script } from '../../src/testing/script.js';

const root = resolve(import.meta.dirname, '../..');
const bin = process.env.OPENCODE_RECORD_BIN ?? OPENCODE_BIN;
/** A retried failure waits what the server's retry-after-ms says: the six attempts take milliseconds. */
const quick = { retryAfterMs: 5 };

interface Scenario {
  name: string;
  what: string;
  script: Script;
  opts?: ResolvedOpts;
  /** Runs in order in one workspace and store; each after the first names the previous session. */
  runs?: Array<{ suffix: string; session(previous: string | undefined): SessionTarget; prompt: string }>;
  /** Made in the workspace before the run. */
  files?: Record<string, string>;
}

const scenarios: Scenario[] = [
  { name: 'text', what: 'a plain answer', script: [{ text: 'Hello from the fake model.', usage: { inputTokens: 120, outputTokens: 8 } }] },
  {
    name: 'thinking',
    what: 'a reasoning model with --variant high: reasoning part, then the answer',
    opts: { model: OPENCODE_FAKE_REASONING_MODEL, reasoningEffort: 'high' },
    script: [{ thinking: 'Let me think about it.', text: 'The answer is 42.', usage: { inputTokens: 30, cachedInputTokens: 10, outputTokens: 12, reasoningTokens: 5 } }],
  },
  {
    name: 'tool-bash',
    what: 'one shell call, then the answer',
    script: [{ toolCalls: [{ name: 'bash', input: { command: 'echo coderline-tool-ran', description: 'Print a marker' } }] }, { text: 'The command printed coderline-tool-ran.' }],
  },
  {
    name: 'tool-bash-failing',
    what: 'a shell command that exits 3 (completed, metadata.exit 3)',
    script: [{ toolCalls: [{ name: 'bash', input: { command: 'echo oops; exit 3', description: 'Fail' } }] }, { text: 'It failed with exit code 3.' }],
  },
  {
    name: 'tool-parallel',
    what: 'two calls in one step: a read and a tool OpenCode does not have (the tool `invalid`)',
    files: { 'notes.txt': 'some notes\n' },
    script: [{ toolCalls: [{ name: 'read', input: { filePath: 'notes.txt' } }, { name: 'no_such_tool', input: {} }] }, { text: 'Done with both.' }],
  },
  {
    name: 'tools-write-edit-search',
    what: 'write, edit, glob, grep and webfetch (refused offline) calls',
    script: [
      { toolCalls: [{ name: 'write', input: { filePath: 'a.txt', content: 'alpha\n' } }] },
      { toolCalls: [{ name: 'edit', input: { filePath: 'a.txt', oldString: 'alpha', newString: 'beta' } }] },
      { toolCalls: [{ name: 'glob', input: { pattern: '*.txt' } }, { name: 'grep', input: { pattern: 'beta' } }] },
      { toolCalls: [{ name: 'webfetch', input: { url: 'http://127.0.0.1:9/page', format: 'text' } }] },
      { text: 'Wrote, edited and searched.' },
    ],
  },
  {
    name: 'todos',
    what: 'todowrite: the list as the output and metadata.todos',
    script: [
      { toolCalls: [{ name: 'todowrite', input: { todos: [{ content: 'Read the code', status: 'completed', priority: 'high' }, { content: 'Fix the bug', status: 'in_progress', priority: 'high' }, { content: 'Old idea', status: 'cancelled', priority: 'low' }] } }] },
      { text: 'Planned.' },
    ],
  },
  {
    name: 'subagent',
    what: 'a task call: the child session answers (its calls are not printed), then the parent',
    script: [
      { toolCalls: [{ name: 'task', input: { description: 'Look around', prompt: 'List the files.', subagent_type: 'general' } }] },
      { text: 'The child found nothing.' },
      { text: 'The subagent reported back.' },
    ],
  },
  {
    name: 'compaction',
    what: 'usage 127 000 of the 128 000 context: OpenCode summarizes (a side call), prints its nudge to go on, and the turn goes on',
    script: [
      { toolCalls: [{ name: 'bash', input: { command: 'echo filled', description: 'Fill the context' } }], usage: { inputTokens: 127_000, outputTokens: 10 } },
      { text: 'Summary: the context was filled by one shell call.' },
      { text: 'Done after compaction.' },
    ],
  },
  { name: 'error-401', what: '401: not retried, an APIError with statusCode, exit 1', script: [{ kind: 'error', status: 401, message: 'Invalid API key' }] },
  { name: 'error-500', what: '500 on every attempt (5 retries), then the APIError', script: [{ kind: 'error', status: 500, message: 'upstream exploded', ...quick }] },
  { name: 'error-429', what: '429 on every attempt (5 retries), then the APIError', script: [{ kind: 'error', status: 429, message: 'slow down', ...quick }] },
  { name: 'retry-then-success', what: 'one 503, then an answer: the retry is silent', script: [{ kind: 'error', status: 503, message: 'overloaded', ...quick }, { text: 'Recovered answer.' }] },
  { name: 'stream-cut', what: 'a stream closed mid-answer, then an answer: a step_start per attempt', script: [{ text: 'partial answer that is cut off', cutAfterEvents: 3 }, { text: 'Second try.' }] },
  { name: 'structured', what: 'outputSchema: the instructions on stdin, a JSON answer', opts: { outputSchema: { type: 'object', properties: { answer: { type: 'number' } }, required: ['answer'] } }, script: [{ text: '{"answer": 42}' }] },
  {
    name: 'permission-rejected',
    what: 'a read outside the working directory: an ask, auto-rejected by run; the run stops after the step, exit 0',
    script: [{ toolCalls: [{ name: 'read', input: { filePath: '/etc/hostname' } }] }, { text: 'never' }],
  },
  {
    name: 'plan-denied',
    what: 'permissionPolicy plan: bash not offered, a call of it is the tool `invalid`; the run goes on',
    opts: { permissionPolicy: { mode: 'plan' } },
    script: [{ toolCalls: [{ name: 'bash', input: { command: 'touch plan-made.txt', description: 'Write' } }] }, { text: 'I cannot write in plan mode.' }],
  },
  {
    name: 'resume',
    what: 'a session resumed by id, then the latest (--continue)',
    script: [{ text: 'First answer.' }, { text: 'Second answer.' }, { text: 'Third answer.' }],
    runs: [
      { suffix: '-1-new', session: () => ({ kind: 'new' }), prompt: 'First question.' },
      { suffix: '-2-by-id', session: (previous) => ({ kind: 'resume', sessionId: previous ?? 'missing' }), prompt: 'Second question.' },
      { suffix: '-3-latest', session: () => ({ kind: 'continue' }), prompt: 'Third question.' },
    ],
  },
  {
    name: 'fork',
    what: '--session <id> --fork: a new id with the history',
    script: [{ text: 'Original answer.' }, { text: 'Forked answer.' }],
    runs: [
      { suffix: '-1-new', session: () => ({ kind: 'new' }), prompt: 'Original question.' },
      { suffix: '-2-fork', session: (previous) => ({ kind: 'fork', sessionId: previous ?? 'missing' }), prompt: 'A forked question.' },
    ],
  },
  {
    name: 'resume-unknown',
    what: 'resume of an id the store lacks: stderr "Session not found", exit 1, nothing on stdout',
    script: [{ text: 'never' }],
    runs: [{ suffix: '', session: () => ({ kind: 'resume', sessionId: 'ses_doesnotexist0000000000' }), prompt: 'Hi.' }],
  },
];

interface Outcome {
  stdout: string;
  stderr: string;
  exitCode: number | null;
  signal: string | null;
  args: string[];
}

async function runOpencode(opts: ResolvedOpts, cwd: string, session: SessionTarget, prompt: string, stateDir: string): Promise<Outcome> {
  const outputJsonSchema = opts.outputSchema && !('~standard' in opts.outputSchema) ? (opts.outputSchema as Record<string, unknown>) : undefined;
  const invocation = await opencodeAdapter.buildInvocation({
    prompt,
    opts,
    session,
    cwd,
    writeTempFile: () => Promise.reject(new Error('the recorder writes no temp files')),
    coderStateDir: () => Promise.resolve(stateDir),
    outputJsonSchema,
  });
  const env = buildEnv({ inherited: process.env, cli: opencodeAdapter, adapter: invocation.env, extra: opts.extraEnv });
  return new Promise((resolvePromise, reject) => {
    const child = spawn(bin, invocation.args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (exitCode, signal) => resolvePromise({ stdout, stderr, exitCode, signal, args: invocation.args }));
    child.stdin.end(invocation.stdin);
  });
}

const scrub = (text: string, replacements: Array<[string, string]>) => replacements.reduce((acc, [from, to]) => acc.split(from).join(to), text);
// OpenCode colours its stderr even off a terminal.
const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');

async function opencodeVersion(): Promise<string> {
  const out = await new Promise<string>((resolvePromise, reject) => {
    const child = spawn(bin, ['--version'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', () => resolvePromise(text));
  });
  const version = opencodeAdapter.parseVersion(out);
  if (!version) throw new Error(`cannot read the opencode version from "${out}"`);
  return version;
}

async function recordScenario(outDir: string, scenario: Scenario): Promise<void> {
  const server = await startFakeChat(scenario.script);
  const dir = await mkdtemp(join(tmpdir(), 'coderline-opencode-rec-'));
  const cwd = join(dir, 'work');
  await mkdir(cwd);
  try {
    for (const [name, content] of Object.entries(scenario.files ?? {})) await writeFile(join(cwd, name), content);
    const fake = await opencodeFakeOpts({ serverUrl: server.url, dir: join(dir, 'env') });
    const opts: ResolvedOpts = { ...fake, ...scenario.opts, extraEnv: fake.extraEnv };
    const runs = scenario.runs ?? [{ suffix: '', session: (): SessionTarget => ({ kind: 'new' }), prompt: 'Please do the task.' }];
    let previous: string | undefined;
    for (const run of runs) {
      const started = Date.now();
      const outcome = await runOpencode(opts, cwd, run.session(previous), run.prompt, join(dir, 'state'));
      const elapsedMs = Date.now() - started;
      previous = /"sessionID":"(ses_[^"]+)"/.exec(outcome.stdout)?.[1] ?? previous;
      const replacements: Array<[string, string]> = [[server.url, 'http://127.0.0.1:PORT'], [cwd, '$WORKSPACE'], [dir, '$DIR']];
      const name = `${scenario.name}${run.suffix}`;
      // A run that printed nothing (stderr only) has its meta file alone: there is nothing to replay.
      if (outcome.stdout) await writeFile(join(outDir, `${name}.jsonl`), scrub(outcome.stdout, replacements));
      const meta = {
        scenario: name,
        what: scenario.what,
        args: outcome.args.map((arg) => scrub(arg, replacements)),
        exitCode: outcome.exitCode,
        signal: outcome.signal,
        elapsedMs,
        stderr: plain(scrub(outcome.stderr, replacements)).split('\n').filter(Boolean),
        modelRequests: server.modelRequests.length,
      };
      await writeFile(join(outDir, `${name}.meta.json`), `${JSON.stringify(meta, null, 2)}\n`);
      console.error(`  ${name}: exit ${outcome.exitCode ?? outcome.signal}, ${outcome.stdout.split('\n').filter(Boolean).length} lines, ${elapsedMs} ms`);
    }
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export async function record(): Promise<void> {
  const outDir = join(root, 'fixtures/opencode', await opencodeVersion());
  await mkdir(outDir, { recursive: true });
  const wanted = process.env.OPENCODE_SCENARIOS?.split(',');
  for (const scenario of scenarios) {
    if (wanted && !wanted.includes(scenario.name)) continue;
    await recordScenario(outDir, scenario);
  }
}
