// Records fixtures/claude/<version>/<scenario>.jsonl: the stdout of the real `claude` binary, run with
// the adapter's own argv against the fake Anthropic server. Next to each: <scenario>.meta.json with the
// options, exit code and stderr, so replay tests translate with the same options.
// CLAUDE_RECORD_BIN=/path/to/claude records with another binary (e.g. an older version installed
// outside the repo); the version folder is whatever that binary's `--version` says.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { buildClaudeInvocation } from '../../src/adapters/claude/argv.js';
import type { SessionTarget } from '../../src/core/contract/adapter.js';
import { buildEnv } from '../../src/core/process/env.js';
import type { ResolvedOpts } from '../../src/options.js';
import { startFakeModel, type FakeEnvOptions, type Script } from '../../src/testing/index.js';

const answerSchema = {
  type: 'object',
  properties: { answer: { type: 'string' }, confidence: { type: 'number' } },
  required: ['answer', 'confidence'],
  additionalProperties: false,
};

interface Scenario {
  name: string;
  script: Script;
  prompt?: string;
  opts?: ResolvedOpts;
  session?: SessionTarget;
  /** How the fake model's env() points claude at it (retries, request timeout). */
  env?: FakeEnvOptions;
}

const bash = (command: string) => ({ name: 'Bash', input: { command, description: 'run a command' } });

/** Calls of Claude's tools, old names and mode-dependent ones too (the CLI prints a call of any name). */
const claudeToolKindCalls = [
  bash('echo kinds'),
  { name: 'Read', input: { file_path: '/tmp/coderline-kinds/read.txt' } },
  { name: 'Write', input: { file_path: '/tmp/coderline-kinds/write.txt', content: 'x' } },
  { name: 'Edit', input: { file_path: '/tmp/coderline-kinds/edit.txt', old_string: 'a', new_string: 'b' } },
  { name: 'MultiEdit', input: { file_path: '/tmp/coderline-kinds/multi.txt', edits: [{ old_string: 'a', new_string: 'b' }] } },
  { name: 'NotebookEdit', input: { notebook_path: '/tmp/coderline-kinds/book.ipynb', new_source: 'print(1)' } },
  { name: 'Glob', input: { pattern: '**/*.ts', path: '/tmp/coderline-kinds' } },
  { name: 'Grep', input: { pattern: 'TODO', path: '/tmp/coderline-kinds' } },
  { name: 'LS', input: { path: '/tmp/coderline-kinds' } },
  { name: 'WebFetch', input: { url: 'http://127.0.0.1:9/page', prompt: 'summarize' } },
  { name: 'WebSearch', input: { query: 'coderline sdk' } },
  { name: 'Task', input: { description: 'no prompt: refused before a subagent starts' } },
  { name: 'TodoWrite', input: { todos: [{ content: 'write tests', status: 'pending', activeForm: 'Writing tests' }] } },
  { name: 'AskUserQuestion', input: { questions: [] } },
  { name: 'mcp__fake__echo', input: { text: 'hi' } },
];

/** Scenarios that need no earlier run. */
const scenarios: Scenario[] = [
  { name: 'text', script: [{ text: 'Hello from the fake model.' }] },
  { name: 'prompt_dashes', prompt: '--version is what I typed', script: [{ text: 'You typed a flag-like prompt.' }] },
  { name: 'thinking', script: [{ thinking: 'The user wants a greeting.', text: 'Hi there!' }] },
  {
    name: 'tool_bash',
    opts: { permissionPolicy: { allow: ['Bash'] } },
    script: [{ text: 'Running it.', toolCalls: [bash('echo coderline-tool-ran')] }, { text: 'The command printed coderline-tool-ran.' }],
  },
  {
    name: 'tool_denied',
    opts: { permissionPolicy: { deny: ['Bash'] } },
    script: [{ toolCalls: [bash('touch denied.txt')] }, { text: 'I could not run Bash.' }],
  },
  {
    name: 'plan_mode',
    opts: { permissionPolicy: { mode: 'plan' } },
    script: [{ toolCalls: [bash('touch planned.txt')] }, { text: 'Here is my plan instead.' }],
  },
  { name: 'partial', opts: { streamPartialMessages: true }, script: [{ thinking: 'Short thought.', text: 'Streaming words one by one.' }] },
  {
    name: 'partial_tool',
    opts: { streamPartialMessages: true, permissionPolicy: { allow: ['Bash'] } },
    script: [{ text: 'Let me check.', toolCalls: [bash('echo partial')] }, { text: 'Done checking.' }],
  },
  {
    name: 'json_schema',
    opts: { outputSchema: answerSchema },
    script: [{ toolCalls: [{ name: 'StructuredOutput', input: { answer: 'forty-two', confidence: 0.9 } }] }, { text: 'Submitted.' }],
  },
  { name: 'json_schema_text_only', opts: { outputSchema: answerSchema }, script: [{ text: 'The answer is forty-two.' }] },
  {
    name: 'json_schema_invalid',
    opts: { outputSchema: answerSchema },
    script: [{ toolCalls: [{ name: 'StructuredOutput', input: { answer: 42 } }] }],
  },
  {
    name: 'max_turns',
    opts: { maxTurns: 1, permissionPolicy: { allow: ['Bash'] } },
    script: [{ text: 'First a tool.', toolCalls: [bash('echo turn-one')] }, { text: 'never reached' }],
  },
  {
    name: 'max_budget',
    opts: { maxBudgetUsd: 0.0001, permissionPolicy: { allow: ['Bash'] } },
    script: [{ text: 'Spending.', toolCalls: [bash('echo budget')], usage: { inputTokens: 100, outputTokens: 20 } }, { text: 'never reached' }],
  },
  { name: 'error_401', env: { retries: 1 }, script: [{ kind: 'error', status: 401, message: 'invalid x-api-key' }] },
  { name: 'error_429', env: { retries: 0 }, script: [{ kind: 'error', status: 429, message: 'rate limited', retryAfterSeconds: 0 }] },
  { name: 'error_500', env: { retries: 1 }, script: [{ kind: 'error', status: 500, message: 'fake internal error' }] },
  {
    name: 'error_context_too_large',
    script: [{ kind: 'error', status: 400, message: 'prompt is too long: 250000 tokens > 200000 maximum' }],
  },
  {
    name: 'partial_cut_retry',
    opts: { streamPartialMessages: true },
    env: { retries: 2 },
    script: [{ text: 'First attempt that breaks off midway', cutAfterEvents: 4 }, { text: 'Second attempt.' }],
  },
  { name: 'retry_then_ok', env: { retries: 2 }, script: [{ kind: 'error', status: 500 }, { text: 'Recovered.' }] },
  { name: 'hang_before_headers', env: { retries: 0, requestTimeoutMs: 3000 }, script: [{ kind: 'hang', after: 'nothing' }] },
  { name: 'bare', opts: { claudeBare: true }, script: [{ text: 'Bare hello.' }] },
  {
    // One call of each tool kind, as the CLI prints them (the tool kinds table test reads it); side
    // requests (a subagent's, a web search's) get the final answer.
    name: 'tool_kinds',
    script: (_request, index) => (index === 0 ? { toolCalls: claudeToolKindCalls } : { text: 'Done with the tools.' }),
  },
  { name: 'resume_unknown', session: { kind: 'resume', sessionId: '00000000-0000-4000-8000-000000000000' }, script: [{ text: 'unused' }] },
  {
    // The `agents` option's subagent, started with the Agent tool in the foreground; it runs Bash.
    name: 'subagent',
    opts: { agents: { greeter: { description: 'Greets the user', prompt: 'You greet.' } }, permissionPolicy: { allow: ['Bash'] } },
    script: [
      { text: 'Delegating.', toolCalls: [{ name: 'Agent', input: { description: 'Greet the user', prompt: 'Say hi', subagent_type: 'greeter', run_in_background: false } }] },
      { text: 'Checking.', toolCalls: [bash('echo subagent-ran')], usage: { inputTokens: 30, outputTokens: 7 } },
      { text: 'Subagent says hi.' },
      { text: 'The subagent said hi.' },
    ],
  },
  {
    // 2.1.x plans with TaskCreate / TaskUpdate (TodoWrite is off while its tasks are on).
    name: 'plan_tasks',
    script: [
      { toolCalls: [{ name: 'TaskCreate', input: { subject: 'Write the tests', description: 'Cover the parser', activeForm: 'Writing the tests' } }, { name: 'TaskCreate', input: { subject: 'Fix the bug', description: 'In the parser', activeForm: 'Fixing the bug' } }] },
      { toolCalls: [{ name: 'TaskUpdate', input: { taskId: '1', status: 'in_progress' } }] },
      { toolCalls: [{ name: 'TaskUpdate', input: { taskId: '1', status: 'completed' } }] },
      { text: 'Planned.' },
    ],
  },
  {
    // CLAUDE_CODE_ENABLE_TASKS=0 brings back TodoWrite, the list as one input.
    name: 'plan_todo',
    opts: { extraEnv: { CLAUDE_CODE_ENABLE_TASKS: '0' } },
    script: [
      { toolCalls: [{ name: 'TodoWrite', input: { todos: [{ content: 'Write the tests', status: 'in_progress', activeForm: 'Writing the tests' }, { content: 'Fix the bug', status: 'pending', activeForm: 'Fixing the bug' }] } }] },
      { toolCalls: [{ name: 'TodoWrite', input: { todos: [{ content: 'Write the tests', status: 'completed', activeForm: 'Writing the tests' }, { content: 'Fix the bug', status: 'in_progress', activeForm: 'Fixing the bug' }] } }] },
      { text: 'Planned.' },
    ],
  },
];

interface Recorded {
  lines: string[];
  exitCode: number | undefined;
  sessionId: string | undefined;
}

/** Where one recording runs: claude's options from the fake model, its config dir and working dir. */
interface Sandbox {
  opts: ResolvedOpts;
  configDir: string;
  workDir: string;
}

async function runOnce(dir: string, sandbox: Sandbox, scenario: Scenario): Promise<Recorded> {
  const opts: ResolvedOpts = { ...sandbox.opts, ...scenario.opts, extraEnv: { ...sandbox.opts.extraEnv, ...scenario.opts?.extraEnv } };
  const outputJsonSchema = scenario.opts?.outputSchema as Record<string, unknown> | undefined;
  const invocation = await buildClaudeInvocation({
    prompt: scenario.prompt ?? 'Please answer.',
    opts,
    session: scenario.session ?? { kind: 'new' },
    cwd: sandbox.workDir,
    writeTempFile: () => Promise.reject(new Error('not used by the claude adapter')),
    coderStateDir: () => Promise.resolve(sandbox.configDir),
    outputJsonSchema,
  });
  const env = buildEnv({ inherited: process.env, adapter: invocation.env, extra: opts.extraEnv, unset: opts.unsetEnv });
  const result = await execa(recordBinary(), invocation.args, {
    input: invocation.stdin,
    cwd: sandbox.workDir,
    env,
    extendEnv: false,
    reject: false,
    timeout: 60_000,
  });
  const lines = String(result.stdout).split('\n').filter((line) => line.trim() !== '');
  await writeFile(join(dir, `${scenario.name}.jsonl`), lines.map((line) => `${line}\n`).join(''));
  const meta = {
    scenario: scenario.name,
    args: invocation.args,
    opts: scenario.opts ?? {},
    session: scenario.session ?? { kind: 'new' },
    exitCode: result.exitCode,
    stderr: String(result.stderr).split('\n').slice(0, 5),
  };
  await writeFile(join(dir, `${scenario.name}.meta.json`), `${JSON.stringify(meta, null, 2)}\n`);
  console.error(`  ${scenario.name}: exit ${result.exitCode}, ${lines.length} lines`);
  const last = lines.length ? (JSON.parse(lines[lines.length - 1]!) as { session_id?: string }) : {};
  return { lines, exitCode: result.exitCode, sessionId: last.session_id };
}

/** Starts a fake model with `script`, runs `body` in a sandbox pointed at it, then removes both. */
async function withSandbox(script: Script, env: FakeEnvOptions, body: (sandbox: Sandbox) => Promise<void>): Promise<void> {
  const fake = await startFakeModel({ api: 'anthropic', script });
  const workDir = await mkdtemp(join(tmpdir(), 'coderline-claude-rec-'));
  try {
    const opts = await fake.env('claude', env);
    const configDir = opts.extraEnv?.CLAUDE_CONFIG_DIR;
    if (!configDir) throw new Error('the fake model set no CLAUDE_CONFIG_DIR');
    await body({ opts, configDir, workDir });
  } finally {
    await fake.close();
    await rm(workDir, { recursive: true, force: true });
  }
}

function recordScenario(dir: string, scenario: Scenario): Promise<void> {
  return withSandbox(scenario.script, scenario.env ?? {}, async (sandbox) => void (await runOnce(dir, sandbox, scenario)));
}

/** first → resume (same id, earlier turns sent) → fork (new id, same history); one config dir and cwd. */
function recordSessions(dir: string): Promise<void> {
  const script: Script = [{ text: 'Remember: the word is apricot.' }, { text: 'The word was apricot.' }, { text: 'Forked: apricot.' }];
  return withSandbox(script, {}, async (sandbox) => {
    const first = await runOnce(dir, sandbox, { name: 'session_first', script: [], prompt: 'Remember the word apricot.' });
    if (!first.sessionId) throw new Error('session_first printed no session id');
    await runOnce(dir, sandbox, { name: 'session_resume', script: [], prompt: 'What was the word?', session: { kind: 'resume', sessionId: first.sessionId } });
    await runOnce(dir, sandbox, { name: 'session_fork', script: [], prompt: 'Fork and repeat it.', session: { kind: 'fork', sessionId: first.sessionId } });
  });
}

/**
 * A turn with a tool call, then `/compact` on the same session: compact_boundary with the tokens
 * before and after (2.1.197 refuses to compact a single exchange: "Not enough messages to compact.").
 */
function recordCompaction(dir: string): Promise<void> {
  const script: Script = [{ text: 'Checking.', toolCalls: [bash('echo apricot')] }, { text: 'Noted: apricot.' }, { text: '<summary>The user asked to remember apricot.</summary>' }];
  return withSandbox(script, {}, async (sandbox) => {
    const first = await runOnce(dir, sandbox, { name: 'compact_first', script: [], prompt: 'Remember the word apricot.', opts: { permissionPolicy: { allow: ['Bash'] } } });
    if (!first.sessionId) throw new Error('compact_first printed no session id');
    await runOnce(dir, sandbox, { name: 'compact', script: [], prompt: '/compact', session: { kind: 'resume', sessionId: first.sessionId } });
  });
}

/** The binary to record: CLAUDE_RECORD_BIN when set, else the pinned devDependency. */
function recordBinary(): string {
  const pinned = join(dirname(createRequire(import.meta.url).resolve('@anthropic-ai/claude-code/package.json')), 'bin', 'claude.exe');
  return process.env.CLAUDE_RECORD_BIN || pinned;
}

export async function record(): Promise<void> {
  const binary = recordBinary();
  const version = /(\d+\.\d+\.\d+)/.exec(String((await execa(binary, ['--version'])).stdout))?.[1];
  if (!version) throw new Error('could not read the claude version');
  const dir = join('fixtures', 'claude', version);
  // RECORD_ONLY=a,b re-records some scenarios and keeps the others.
  const only = process.env.RECORD_ONLY?.split(',');
  if (!only) await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  console.error(`claude ${version} (${binary}) → ${dir}`);
  for (const scenario of scenarios) {
    if (only && !only.includes(scenario.name)) continue;
    await recordScenario(dir, scenario);
  }
  if (!only || only.includes('session')) await recordSessions(dir);
  if (!only || only.includes('compact')) await recordCompaction(dir);
}
