// Records fixtures/codex/<version>/*.jsonl from the real `codex` binary against the fake Responses
// server: stdout exactly as printed, plus <name>.meta.json (argv shape, exit, stderr, requests made).
// Builds argv with the adapter itself, so the fixtures show what the SDK really runs.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { execa } from 'execa';
import { buildCodexInvocation } from '../../src/adapters/codex/argv.js';
import type { SessionTarget } from '../../src/core/contract/adapter.js';
import type { ResolvedOpts } from '../../src/options.js';
import { codexFakeOpts, responseFailedStep, startFakeResponses, streamClosedStep } from '../../src/testing/openai-responses.js';
import type { Script } from '../../src/testing/script.js';

const root = resolve(import.meta.dirname, '../..');
const codexBin = join(root, 'node_modules/.bin/codex');

interface Scenario {
  name: string;
  what: string;
  script: Script;
  prompt?: string;
  opts?: ResolvedOpts;
  retries?: number;
  streamIdleTimeoutMs?: number;
  /** Kill the CLI with this signal this long after its first stdout line. */
  killAfterFirstLineMs?: number;
  signal?: NodeJS.Signals;
  outputSchema?: Record<string, unknown>;
}

const answerSchema = {
  type: 'object',
  properties: { answer: { type: 'string' }, confidence: { type: 'number' } },
  required: ['answer', 'confidence'],
  additionalProperties: false,
};

const patch = '*** Begin Patch\n*** Add File: hello.txt\n+hello from codex\n*** End Patch\n';

const scenarios: Scenario[] = [
  { name: 'text', what: 'plain text answer', script: [{ text: 'Hello from the fake model.' }] },
  {
    name: 'shell-workspace-write',
    what: 'exec_command that runs under workspace-write',
    script: [{ toolCalls: [{ name: 'exec_command', input: { cmd: 'echo hi > made.txt && cat made.txt' } }] }, { text: 'Ran it.' }],
  },
  {
    name: 'shell-read-only',
    what: 'a write refused by the read-only sandbox',
    opts: { codexSandbox: 'read-only' },
    script: [{ toolCalls: [{ name: 'exec_command', input: { cmd: 'touch refused.txt' } }] }, { text: 'Could not write.' }],
  },
  {
    name: 'shell-failing',
    what: 'a command that exits non-zero',
    script: [{ toolCalls: [{ name: 'exec_command', input: { cmd: 'ls /nonexistent-dir' } }] }, { text: 'It failed.' }],
  },
  {
    name: 'apply-patch',
    what: 'apply_patch (custom tool) adds a file',
    script: [{ toolCalls: [{ name: 'apply_patch', custom: true, input: patch }] }, { text: 'Patched.' }],
  },
  {
    name: 'reasoning',
    what: 'reasoning summary before the answer, effort high',
    opts: { reasoningEffort: 'high' },
    script: [{ thinking: 'The user wants a greeting, so I greet.', text: 'Hi!', usage: { reasoningTokens: 7 } }],
  },
  {
    name: 'web-search',
    what: 'a web_search_call item (duplicate id keys in the record)',
    script: [{ toolCalls: [{ name: 'web_search', input: { query: 'coderline sdk' } }] }, { text: 'Searched.' }],
  },
  {
    name: 'tool-kinds',
    what: 'one call of each tool the model has, as exec prints them (the tool kinds table test reads it)',
    opts: { codexSandbox: 'workspace-write' },
    script: [
      {
        toolCalls: [
          { name: 'exec_command', input: { cmd: 'echo kinds' } },
          { name: 'apply_patch', custom: true, input: patch },
          { name: 'web_search', input: { query: 'coderline sdk' } },
          { name: 'update_plan', input: { plan: [{ step: 'write tests', status: 'pending' }] } },
          { name: 'view_image', input: { path: 'missing.png' } },
        ],
      },
      { text: 'Done with the tools.' },
    ],
  },
  {
    name: 'two-messages',
    what: 'text and a tool call in one response, then a final answer',
    script: [{ text: 'Let me check.', toolCalls: [{ name: 'exec_command', input: { cmd: 'true' } }] }, { text: 'All good.' }],
  },
  {
    name: 'structured-output',
    what: '--output-schema; the model answers JSON',
    outputSchema: answerSchema,
    script: [{ text: '{"answer":"42","confidence":0.9}' }],
  },
  {
    name: 'model-turn-limit-ignored',
    what: 'the CLI ignores -c model_turn_limit (why maxTurns is not supported)',
    opts: { codexConfig: { model_turn_limit: 1 } },
    script: [{ toolCalls: [{ name: 'exec_command', input: { cmd: 'true' } }] }, { toolCalls: [{ name: 'exec_command', input: { cmd: 'true' } }] }, { text: 'Two calls later.' }],
  },
  {
    name: 'plan',
    what: 'update_plan (offered with tools.update_plan.enabled) twice: a todo_list item started, updated, completed',
    opts: { codexConfig: { 'tools.update_plan.enabled': true } },
    script: [
      { toolCalls: [{ name: 'update_plan', input: { explanation: 'Two steps', plan: [{ step: 'Write the tests', status: 'in_progress' }, { step: 'Fix the bug', status: 'pending' }] } }] },
      { toolCalls: [{ name: 'update_plan', input: { plan: [{ step: 'Write the tests', status: 'completed' }, { step: 'Fix the bug', status: 'in_progress' }] } }] },
      { text: 'Planned.' },
    ],
  },
  {
    name: 'compaction-silent',
    what: 'model_auto_compact_token_limit 1000 and a reply of 5000 input tokens: codex compacts (a model request of its own) and exec prints nothing of it',
    opts: { codexConfig: { model_auto_compact_token_limit: 1000 } },
    script: [{ toolCalls: [{ name: 'exec_command', input: { cmd: 'true' } }], usage: { inputTokens: 5000, outputTokens: 10 } }, { text: 'Summary: ran true.' }, { text: 'Done.' }],
  },
  { name: 'error-500', what: '500 with retries 0', script: [{ kind: 'error', status: 500, message: 'boom' }] },
  { name: 'error-500-retry', what: '500 with retries 1: one Reconnecting record', retries: 1, script: [{ kind: 'error', status: 500, message: 'boom' }] },
  { name: 'error-500-then-ok', what: '500 once, then an answer (silent retry)', retries: 1, script: [{ kind: 'error', status: 500 }, { text: 'Recovered.' }] },
  { name: 'error-401', what: '401 with retries 0', script: [{ kind: 'error', status: 401, message: 'Incorrect API key provided' }] },
  { name: 'error-400', what: '400: the raw body is the message', script: [{ kind: 'error', status: 400, message: 'Invalid schema for response_format' }] },
  { name: 'error-429', what: '429 with retries 0', script: [{ kind: 'error', status: 429, message: 'Rate limit reached' }] },
  { name: 'response-failed', what: 'response.failed in the stream', script: [responseFailedStep('The model had an internal error')] },
  { name: 'stream-cut', what: 'connection reset after the message item, before response.completed', script: [{ text: 'partial answer', cutAfterEvents: 8, delayMs: 20 }] },
  { name: 'stream-closed', what: 'stream ended cleanly without response.completed', script: [streamClosedStep({ text: 'partial answer' })] },
  { name: 'idle-timeout', what: 'the model hangs; the CLI idle timeout (2 s) fails the turn', streamIdleTimeoutMs: 2000, script: [{ kind: 'hang', after: 'headers' }] },
  {
    name: 'sigterm',
    what: 'SIGTERM while the model hangs: the stream just stops',
    script: [{ kind: 'hang', after: 'headers' }],
    killAfterFirstLineMs: 1000,
    signal: 'SIGTERM',
  },
];

interface RunOutcome {
  stdout: string;
  stderr: string;
  exitCode: number | undefined;
  signal: string | undefined;
  args: string[];
}

async function runCodex(scenario: Scenario, home: string, cwd: string, serverOpts: ResolvedOpts, session: SessionTarget, prompt: string): Promise<RunOutcome> {
  const tempDir = await mkdtemp(join(tmpdir(), 'coderline-codex-rec-tmp-'));
  const opts: ResolvedOpts = {
    ...serverOpts,
    ...scenario.opts,
    codexConfig: { ...serverOpts.codexConfig, ...scenario.opts?.codexConfig },
    ...(scenario.outputSchema ? { outputSchema: scenario.outputSchema } : {}),
  };
  const invocation = await buildCodexInvocation({
    prompt,
    opts,
    session,
    cwd,
    writeTempFile: async (name, content) => {
      const file = join(tempDir, name);
      await writeFile(file, content, { mode: 0o600 });
      return file;
    },
    coderStateDir: async () => home,
    outputJsonSchema: scenario.outputSchema,
  });
  const child = execa(codexBin, invocation.args, {
    cwd,
    input: invocation.stdin,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...serverOpts.extraEnv },
    extendEnv: false,
    reject: false,
    timeout: 60_000,
  });
  if (scenario.killAfterFirstLineMs !== undefined) {
    child.stdout.once('data', () => setTimeout(() => child.kill(scenario.signal ?? 'SIGTERM'), scenario.killAfterFirstLineMs));
  }
  const result = await child;
  await rm(tempDir, { recursive: true, force: true });
  return {
    stdout: String(result.stdout),
    stderr: String(result.stderr),
    exitCode: result.exitCode,
    signal: result.signal,
    args: invocation.args,
  };
}

/** Temp paths and the port differ per recording; keep argv readable and stable in the meta file. */
function scrub(text: string, replacements: Array<[string, string]>): string {
  return replacements.reduce((acc, [from, to]) => acc.split(from).join(to), text);
}

async function recordScenario(outDir: string, scenario: Scenario, runs: Array<{ suffix: string; session: (previous: string | undefined) => SessionTarget; prompt: string }>) {
  const server = await startFakeResponses(scenario.script);
  const home = await mkdtemp(join(tmpdir(), 'coderline-codex-rec-home-'));
  const cwd = await mkdtemp(join(tmpdir(), 'coderline-codex-rec-ws-'));
  try {
    const serverOpts = codexFakeOpts(server, {
      home,
      retries: scenario.retries ?? 0,
      ...(scenario.streamIdleTimeoutMs ? { streamIdleTimeoutMs: scenario.streamIdleTimeoutMs } : {}),
    });
    let previousThread: string | undefined;
    for (const run of runs) {
      const started = Date.now();
      const outcome = await runCodex(scenario, home, cwd, serverOpts, run.session(previousThread), run.prompt);
      const elapsedMs = Date.now() - started;
      previousThread = /"thread_id":"([^"]+)"/.exec(outcome.stdout)?.[1] ?? previousThread;
      const replacements: Array<[string, string]> = [[server.url, 'http://127.0.0.1:PORT'], [home, '$HOME'], [cwd, '$WORKSPACE']];
      const name = `${scenario.name}${run.suffix}`;
      await writeFile(join(outDir, `${name}.jsonl`), outcome.stdout.endsWith('\n') || !outcome.stdout ? outcome.stdout : `${outcome.stdout}\n`);
      const meta = {
        scenario: name,
        what: scenario.what,
        args: outcome.args.map((arg) => scrub(arg, replacements).replace(/\/[^ ]*coderline-codex-rec-tmp-[^/]+/, '$TMP')),
        exitCode: outcome.exitCode,
        signal: outcome.signal ?? null,
        elapsedMs,
        stderr: scrub(outcome.stderr, replacements).split('\n').filter(Boolean),
        modelRequests: server.modelRequests.length,
      };
      await writeFile(join(outDir, `${name}.meta.json`), `${JSON.stringify(meta, null, 2)}\n`);
      console.error(`  ${name}: exit ${outcome.exitCode ?? outcome.signal}, ${outcome.stdout.split('\n').filter(Boolean).length} lines, ${elapsedMs} ms`);
    }
  } finally {
    await server.close();
    await rm(home, { recursive: true, force: true });
    await rm(cwd, { recursive: true, force: true });
  }
}

async function codexVersion(): Promise<string> {
  const { stdout } = await execa(codexBin, ['--version']);
  const version = /(\d+\.\d+\.\d+)/.exec(stdout)?.[1];
  if (!version) throw new Error(`cannot read the codex version from "${stdout}"`);
  return version;
}

export async function record(): Promise<void> {
  const outDir = join(root, 'fixtures/codex', await codexVersion());
  await mkdir(outDir, { recursive: true });
  const wanted = process.env.CODEX_SCENARIOS?.split(',');
  const single = [{ suffix: '', session: (): SessionTarget => ({ kind: 'new' }), prompt: 'Please do the task.' }];
  for (const scenario of scenarios) {
    if (wanted && !wanted.includes(scenario.name)) continue;
    await recordScenario(outDir, scenario, single);
  }
  if (!wanted || wanted.includes('resume')) {
    // One thread over three runs: new, resume by id, resume --last (same cwd and CODEX_HOME).
    await recordScenario(outDir, { name: 'resume', what: 'a thread resumed by id and by --last', script: [{ text: 'First.' }, { text: 'Second.', usage: { inputTokens: 150, outputTokens: 5 } }, { text: 'Third.' }] }, [
      { suffix: '-1-new', session: () => ({ kind: 'new' }), prompt: 'Remember 7.' },
      { suffix: '-2-by-id', session: (previous) => ({ kind: 'resume', sessionId: previous ?? 'missing' }), prompt: 'What did I say?' },
      { suffix: '-3-last', session: () => ({ kind: 'continue' }), prompt: 'And again?' },
    ]);
  }
  if (!wanted || wanted.includes('resume-missing')) {
    await recordScenario(outDir, { name: 'resume-missing', what: 'exec resume of a thread id this CODEX_HOME lacks: exit 1, "no rollout found" on stderr', script: [{ text: 'never' }] }, [
      { suffix: '', session: () => ({ kind: 'resume', sessionId: '01a22c6b-0000-7000-8000-000000000000' }), prompt: 'Continue.' },
    ]);
  }
  if (!wanted || wanted.includes('fork')) {
    await recordScenario(outDir, { name: 'fork', what: 'exec fork <id>: a new thread with the old history', script: [{ text: 'Original.' }, { text: 'Forked.' }] }, [
      { suffix: '-1-new', session: () => ({ kind: 'new' }), prompt: 'Start.' },
      { suffix: '-2-fork', session: (previous) => ({ kind: 'fork', sessionId: previous ?? 'missing' }), prompt: 'Branch off.' },
    ]);
  }
}
