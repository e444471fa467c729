// Records fixtures/pi/<version>/*.jsonl: the real `pi --mode json --print` run offline against the
// fake chat-completions server, one file of raw stdout lines per scenario.
// PI_RECORD_BIN=/path/to/pi records another pi install (e.g. the 0.73 line on Node 20).
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeChat } from '../../src/testing/openai-chat.js';
import { createPiEnv, PI_BIN, PI_FAKE_PLAIN_MODEL, type PiEnv, type PiEnvOptions } from '../../src/testing/pi-env.js';
import type { Script } from '../../src/testing/script.js';

interface Scenario {
  name: string;
  prompt: string;
  script: Script;
  args?: string[];
  /** settings.json `compaction` (createPiEnv). */
  compaction?: PiEnvOptions['compaction'];
  /** Runs before this scenario and returns extra args (e.g. a session to resume). */
  before?(env: PiEnv, cwd: string): Promise<string[]>;
}

const bin = process.env.PI_RECORD_BIN ?? PI_BIN;

interface Captured {
  stdout: string;
  stderr: string;
  code: number | null;
}

function runPi(env: PiEnv, cwd: string, args: string[], prompt: string): Promise<Captured> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['--mode', 'json', '--print', '--provider', 'fake', '--model', 'fake-model', ...args], {
      cwd,
      env: { ...process.env, ...env.opts.extraEnv },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ stdout, stderr, code }));
    child.stdin.end(prompt);
  });
}

function sessionIdOf(stdout: string): string {
  const header = JSON.parse(stdout.split('\n')[0] ?? '{}') as { id?: string };
  if (!header.id) throw new Error('no session header in pi output');
  return header.id;
}

const scenarios: Scenario[] = [
  { name: 'text', prompt: 'Say hello.', script: [{ text: 'Hello from the fake model.' }] },
  {
    name: 'thinking',
    prompt: 'Think, then answer.',
    args: ['--thinking', 'high'],
    script: [{ thinking: 'Let me think about it.', text: 'The answer is 42.', usage: { inputTokens: 30, outputTokens: 12, reasoningTokens: 5 } }],
  },
  {
    name: 'tool-bash',
    prompt: 'Run echo.',
    script: [
      { toolCalls: [{ name: 'bash', input: { command: 'echo hello-from-bash' } }] },
      { text: 'The command printed hello-from-bash.' },
    ],
  },
  {
    name: 'tool-bash-failing',
    prompt: 'Run a failing command.',
    script: [
      { toolCalls: [{ name: 'bash', input: { command: 'echo oops; exit 3' } }] },
      { text: 'The command failed with exit code 3.' },
    ],
  },
  {
    name: 'tool-parallel',
    prompt: 'Run two commands.',
    script: [
      {
        toolCalls: [
          { name: 'bash', input: { command: 'echo one' } },
          { name: 'no_such_tool', input: {} },
        ],
      },
      { text: 'Done with both.' },
    ],
  },
  {
    name: 'tool-kinds',
    prompt: 'Use every tool.',
    args: ['--tools', 'read,bash,edit,write,grep,find,ls'],
    script: [
      {
        toolCalls: [
          { name: 'bash', input: { command: 'echo kinds' } },
          { name: 'read', input: { path: 'read.txt' } },
          { name: 'write', input: { path: 'write.txt', content: 'x' } },
          { name: 'edit', input: { path: 'write.txt', edits: [{ oldText: 'x', newText: 'y' }] } },
          { name: 'grep', input: { pattern: 'TODO', path: '.' } },
          { name: 'find', input: { pattern: '*.txt', path: '.' } },
          { name: 'ls', input: { path: '.' } },
        ],
      },
      { text: 'Done with the tools.' },
    ],
  },
  {
    name: 'compaction',
    prompt: 'Fill the context, then answer.',
    // A tool call whose usage (120 000) passes 128 000 less reserveTokens: before the next model call
    // pi summarizes what lies before the last keepRecentTokens (one side call), then the turn goes on.
    compaction: { reserveTokens: 16_384, keepRecentTokens: 1 },
    script: [
      { toolCalls: [{ name: 'bash', input: { command: 'echo filled' } }], usage: { inputTokens: 120_000, outputTokens: 10 } },
      { text: 'Summary: the context was filled by one shell call.' },
      { text: 'Done after compaction.' },
    ],
  },
  {
    name: 'compaction-after-answer',
    prompt: 'Answer near the limit.',
    // The answer's own usage passes the threshold: pi compacts after the run, before it settles.
    compaction: { reserveTokens: 16_384, keepRecentTokens: 1 },
    script: [{ text: 'A long answer.', usage: { inputTokens: 120_000, outputTokens: 10 } }, { text: 'Summary: one long answer.' }],
  },
  { name: 'error-401', prompt: 'Hi.', script: [{ kind: 'error', status: 401, message: 'Invalid API key' }] },
  { name: 'error-500-persistent', prompt: 'Hi.', script: [{ kind: 'error', status: 500, message: 'upstream exploded' }] },
  { name: 'error-429-persistent', prompt: 'Hi.', script: [{ kind: 'error', status: 429, message: 'slow down', retryAfterSeconds: 0 }] },
  {
    name: 'retry-then-success',
    prompt: 'Hi.',
    script: [{ kind: 'error', status: 503, message: 'overloaded' }, { text: 'Recovered answer.' }],
  },
  { name: 'stream-cut', prompt: 'Hi.', script: [{ text: 'partial answer that is cut off', cutAfterEvents: 3 }, { text: 'Second try.' }] },
  {
    name: 'structured',
    prompt: 'Answer in JSON.',
    args: ['--model', PI_FAKE_PLAIN_MODEL],
    script: [{ text: '{"answer": 42, "unit": "none"}' }],
  },
  {
    name: 'resume',
    prompt: 'And again?',
    script: [{ text: 'First answer.' }, { text: 'Second answer.' }],
    async before(env, cwd) {
      const first = await runPi(env, cwd, [], 'First question.');
      return ['--session', sessionIdOf(first.stdout)];
    },
  },
  {
    name: 'fork',
    prompt: 'A forked question.',
    script: [{ text: 'Original answer.' }, { text: 'Forked answer.' }],
    async before(env, cwd) {
      const first = await runPi(env, cwd, [], 'Original question.');
      return ['--fork', sessionIdOf(first.stdout)];
    },
  },
];

async function version(env: PiEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['--version'], { env: { ...process.env, ...env.opts.extraEnv }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    // pi 0.73 prints its version on stderr, 1.x on stdout.
    const collect = (chunk: Buffer) => (out += chunk.toString('utf8'));
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', reject);
    child.on('close', () => {
      const version = /^v?(\d+\.\d+\.\d+\S*)\s*$/m.exec(out)?.[1];
      if (version) resolve(version);
      else reject(new Error(`could not read the pi version from: ${out}`));
    });
  });
}

export async function record(): Promise<void> {
  let outDir: string | undefined;
  // PI_SCENARIOS=a,b re-records some scenarios and keeps the others.
  const only = process.env.PI_SCENARIOS?.split(',');
  for (const scenario of scenarios) {
    if (only && !only.includes(scenario.name)) continue;
    const server = await startFakeChat(scenario.script);
    const env = await createPiEnv({ serverUrl: server.url, retry: { maxRetries: 1, baseDelayMs: 50 }, ...(scenario.compaction ? { compaction: scenario.compaction } : {}) });
    const cwd = await mkdtemp(join(tmpdir(), 'coderline-pi-cwd-'));
    try {
      if (!outDir) {
        outDir = join('fixtures', 'pi', await version(env));
        await mkdir(outDir, { recursive: true });
      }
      const extra = scenario.before ? await scenario.before(env, cwd) : [];
      const { stdout, stderr, code } = await runPi(env, cwd, [...(scenario.args ?? []), ...extra], scenario.prompt);
      await writeFile(join(outDir, `${scenario.name}.jsonl`), stdout);
      console.error(`  ${scenario.name}: exit ${code}, ${stdout.split('\n').filter(Boolean).length} lines${stderr.trim() ? `, stderr: ${stderr.trim().slice(0, 200)}` : ''}`);
    } finally {
      await env.cleanup();
      await rm(cwd, { recursive: true, force: true });
      await server.close();
    }
  }
}
