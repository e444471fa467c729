// Records fixtures/copilot/<version>/*.jsonl from the real `copilot` binary, offline, against the fake
// chat-completions server. Each scenario writes the CLI's stdout verbatim (<name>.jsonl) and what the
// recorder saw around it (<name>.meta.json: argv, exit code, signal, model calls, stderr).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { copilotAdapter } from '../../src/adapters/copilot/index.js';
import type { InvocationContext, SessionTarget } from '../../src/core/contract/adapter.js';
import type { ResolvedOpts } from '../../src/options.js';
import { copilotBinary, copilotTestEnv, copilotTokenVars, freshCopilotHome } from '../../src/testing/copilot-env.js';
import { startFakeChat, type FakeChatOptions } from '../../src/testing/openai-chat.js';
import { withSummaries, type Script } from '../../src/testing/script.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

interface Scenario {
  name: string;
  prompt: string;
  script: Script;
  opts?: ResolvedOpts;
  server?: FakeChatOptions;
  /** Send this signal once the first model request has been received and this many ms passed. */
  signalAfterRequest?: { signal: NodeJS.Signals; ms: number };
  /** The first run's session target (default: a new session). */
  session?: SessionTarget;
  /** More environment for the CLI (after the fake provider's). */
  env?: Record<string, string>;
  /** Record a second run that resumes the first one's session (stored as <name>-resume.jsonl). */
  resume?: { prompt: string; script: Script };
}

const bash = (command: string, description = 'run a command') => ({ name: 'bash', input: { command, description } });

const scenarios: Scenario[] = [
  { name: 'text', prompt: 'Say hello', script: [{ text: 'Hello from the fake model.' }] },
  {
    // The task tool's subagent (sync), which runs bash: subagent.started/completed around it, its records
    // carry data.parentToolCallId.
    name: 'subagent',
    prompt: 'Delegate it',
    script: [
      { toolCalls: [{ name: 'task', input: { name: 'runner', description: 'Run the command', prompt: 'Run echo sub', agent_type: 'task', mode: 'sync' } }] },
      { toolCalls: [bash('echo subagent-ran', 'run it')] },
      { text: 'Subagent ran it.' },
      { text: 'The subagent ran it.' },
    ],
    opts: { permissionPolicy: { mode: 'bypass' } },
  },
  {
    // Usage 19 000 of COPILOT_PROVIDER_MAX_PROMPT_TOKENS 20 000: a background summary call ("Please create
    // a detailed summary…") while the turn goes on, whose result the later calls use; JSON prints no record of it.
    name: 'compaction',
    prompt: 'Fill the context',
    env: { COPILOT_PROVIDER_MAX_PROMPT_TOKENS: '20000' },
    script: withSummaries(
      [
        { toolCalls: [bash('echo filled', 'fill it')], usage: { inputTokens: 19_000, outputTokens: 10 } },
        { toolCalls: [bash('sleep 3; echo two', 'fill it')], usage: { inputTokens: 19_000, outputTokens: 10 } },
        { toolCalls: [bash('echo three', 'three')] },
        { text: 'Done after compaction.' },
      ],
      /create a detailed summary/,
    ),
    opts: { permissionPolicy: { mode: 'bypass' } },
  },
  {
    // Copilot keeps its plan in the session's SQL `todos` table (the sql tool): no record on stdout.
    name: 'plan-sql',
    prompt: 'Plan it',
    script: [
      { toolCalls: [{ name: 'sql', input: { description: 'Insert todos', query: "INSERT INTO todos (id, title, status) VALUES ('t1', 'Write the tests', 'in_progress'), ('t2', 'Fix the bug', 'pending')" } }] },
      { text: 'Planned.' },
    ],
    opts: { permissionPolicy: { mode: 'bypass' } },
  },
  {
    name: 'resume-missing',
    prompt: 'Continue',
    script: [{ text: 'never' }],
    session: { kind: 'resume', sessionId: '01a22c6b-0000-7000-8000-000000000000' },
  },
  {
    name: 'bash-tool',
    prompt: 'Run echo hi',
    script: [{ toolCalls: [bash('echo hi', 'print hi')] }, { text: 'The command printed hi.' }],
    opts: { permissionPolicy: { mode: 'bypass' } },
  },
  {
    name: 'failing-command',
    prompt: 'Run a failing command',
    script: [{ toolCalls: [bash('echo oops >&2; exit 3', 'fail on purpose')] }, { text: 'It failed with exit code 3.' }],
    opts: { permissionPolicy: { mode: 'bypass' } },
  },
  {
    name: 'denied-tool',
    prompt: 'Run echo hi',
    script: [{ toolCalls: [bash('echo hi', 'print hi')] }, { text: 'I was not allowed to run it.' }],
    opts: { permissionPolicy: { deny: ['shell(echo)'] } },
  },
  {
    name: 'parallel-tools',
    prompt: 'Run two commands',
    script: [{ toolCalls: [bash('echo one'), bash('echo two')] }, { text: 'Both ran.' }],
    opts: { permissionPolicy: { mode: 'bypass' } },
  },
  {
    name: 'tool-kinds',
    prompt: 'Use every tool',
    script: [
      {
        toolCalls: [
          bash('echo kinds'),
          { name: 'view', input: { path: '/tmp/coderline-kinds/read.txt' } },
          { name: 'create', input: { path: '/tmp/coderline-kinds/write.txt', file_text: 'x' } },
          { name: 'edit', input: { path: '/tmp/coderline-kinds/write.txt', old_str: 'x', new_str: 'y' } },
          { name: 'grep', input: { pattern: 'TODO', paths: ['/tmp/coderline-kinds'] } },
          { name: 'glob', input: { pattern: '**/*.txt', paths: ['/tmp/coderline-kinds'] } },
          { name: 'task', input: { description: 'no prompt: refused before an agent starts' } },
        ],
      },
      { text: 'Done with the tools.' },
    ],
    opts: { permissionPolicy: { deny: ['shell', 'write'] } },
  },
  {
    name: 'unknown-tool',
    prompt: 'Use a tool that does not exist',
    script: [{ toolCalls: [{ name: 'no_such_tool', input: {} }] }, { text: 'That tool does not exist.' }],
  },
  { name: 'reasoning', prompt: 'Think, then answer', script: [{ thinking: 'The user wants a short answer.', text: 'Short answer.' }] },
  {
    name: 'retry-500-then-ok',
    prompt: 'Say hello',
    script: [{ kind: 'error', status: 500 }, { kind: 'error', status: 500 }, { text: 'Hello after two failures.' }],
  },
  {
    name: 'midstream-error-then-ok',
    prompt: 'Say hello',
    script: [{ text: 'Partial words that will be lost', cutAfterEvents: 3 }, { text: 'The complete answer.' }],
    server: { cutWith: 'error' },
  },
  { name: 'auth-401', prompt: 'Say hello', script: [{ kind: 'error', status: 401, message: 'Incorrect API key provided' }] },
  { name: 'rate-limit-429', prompt: 'Say hello', script: [{ kind: 'error', status: 429, retryAfterSeconds: 1, message: 'Rate limit reached' }] },
  { name: 'bad-request-400', prompt: 'Say hello', script: [{ kind: 'error', status: 400, message: 'Bad request: invalid parameter' }] },
  {
    name: 'hang-sigterm',
    prompt: 'Say hello',
    script: [{ kind: 'hang', after: 'headers' }],
    signalAfterRequest: { signal: 'SIGTERM', ms: 1000 },
  },
  {
    name: 'hang-sigint',
    prompt: 'Say hello',
    script: [{ kind: 'hang', after: 'first-event' }],
    signalAfterRequest: { signal: 'SIGINT', ms: 1000 },
  },
  {
    name: 'json-answer',
    prompt: 'Give me a JSON object',
    script: [{ text: '{"answer": 42, "unit": "none"}' }],
  },
  {
    name: 'session',
    prompt: 'Remember the word banana',
    script: [{ text: 'I will remember banana.' }],
    resume: { prompt: 'Which word?', script: [{ text: 'The word was banana.' }] },
  },
];

async function versionOfBinary(): Promise<string> {
  const { stdout } = await execa(copilotBinary, ['--version'], { env: { HOME: copilotTestEnv('http://127.0.0.1:9').HOME } });
  const version = copilotAdapter.parseVersion(stdout);
  if (!version) throw new Error(`cannot read the copilot version from: ${stdout}`);
  return version;
}

function invocationContext(prompt: string, opts: ResolvedOpts, session: SessionTarget, cwd: string, scratch: string): InvocationContext {
  return {
    prompt,
    opts,
    session,
    cwd,
    outputJsonSchema: undefined,
    writeTempFile: async (name, content) => {
      const file = join(scratch, name);
      writeFileSync(file, content, { mode: 0o600 });
      return file;
    },
    coderStateDir: async () => scratch,
  };
}

interface Recorded {
  stdout: string;
  sessionId: string | undefined;
}

async function recordRun(
  outDir: string,
  name: string,
  prompt: string,
  script: Script,
  scenario: Scenario,
  copilotHome: string,
  session: SessionTarget,
): Promise<Recorded> {
  const server = await startFakeChat(script, scenario.server);
  const cwd = mkdtempSync(join(tmpdir(), 'coderline-copilot-cwd-'));
  const scratch = mkdtempSync(join(tmpdir(), 'coderline-copilot-scratch-'));
  try {
    const opts = scenario.opts ?? {};
    const invocation = await copilotAdapter.buildInvocation(invocationContext(prompt, opts, session, cwd, scratch));
    const env: Record<string, string> = { ...process.env, ...invocation.env, ...copilotTestEnv(server.url, { copilotHome }), ...scenario.env } as Record<string, string>;
    for (const name of copilotTokenVars) delete env[name];
    const started = Date.now();
    // Its own process group, signalled as a whole (as the SDK does): `copilot` is a Node loader that
    // runs the native binary with spawnSync, so signalling the loader alone orphans the real CLI.
    const child = execa(copilotBinary, invocation.args, { cwd, env, extendEnv: false, input: invocation.stdin, reject: false, detached: true });
    if (scenario.signalAfterRequest) {
      const { signal, ms } = scenario.signalAfterRequest;
      void (async () => {
        while (server.modelRequests.length === 0 && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
        await new Promise((r) => setTimeout(r, ms));
        if (child.pid !== undefined) process.kill(-child.pid, signal);
      })();
    }
    const result = await child;
    const stdout = result.stdout;
    writeFileSync(join(outDir, `${name}.jsonl`), stdout.endsWith('\n') || !stdout ? stdout : `${stdout}\n`);
    const meta = {
      args: invocation.args,
      exitCode: result.exitCode ?? null,
      signal: result.signal ?? null,
      modelCalls: server.modelRequests.length,
      durationMs: Date.now() - started,
      stderr: result.stderr,
    };
    writeFileSync(join(outDir, `${name}.meta.json`), `${JSON.stringify(meta, null, 2)}\n`);
    console.error(`  ${name}: exit ${meta.exitCode ?? meta.signal}, ${meta.modelCalls} model calls, ${meta.durationMs} ms`);
    const last = stdout.trim().split('\n').at(-1);
    let sessionId: string | undefined;
    try {
      sessionId = (JSON.parse(last ?? '') as { sessionId?: string }).sessionId;
    } catch {
      sessionId = undefined;
    }
    return { stdout, sessionId };
  } finally {
    await server.close();
    rmSync(cwd, { recursive: true, force: true });
    rmSync(scratch, { recursive: true, force: true });
  }
}

export async function record(): Promise<void> {
  const version = await versionOfBinary();
  const outDir = join(repoRoot, 'fixtures', 'copilot', version);
  mkdirSync(outDir, { recursive: true });
  const only = process.env.COPILOT_SCENARIOS?.split(',');
  for (const scenario of scenarios) {
    if (only && !only.includes(scenario.name)) continue;
    const copilotHome = freshCopilotHome();
    try {
      const first = await recordRun(outDir, scenario.name, scenario.prompt, scenario.script, scenario, copilotHome, scenario.session ?? { kind: 'new' });
      if (scenario.resume) {
        if (!first.sessionId) throw new Error(`${scenario.name}: no session id to resume`);
        await recordRun(outDir, `${scenario.name}-resume`, scenario.resume.prompt, scenario.resume.script, scenario, copilotHome, {
          kind: 'resume',
          sessionId: first.sessionId,
        });
      }
    } finally {
      rmSync(copilotHome, { recursive: true, force: true });
    }
  }
}
