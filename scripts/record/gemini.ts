// Records fixtures/gemini/<version>/*.jsonl: the real `gemini --output-format stream-json` run offline
// against the fake Gemini API through coderline's run() (the adapter's argv, settings and env), one
// file of raw stdout lines per scenario and a .meta.json beside it (exit code, model calls, stderr).
// GEMINI_RECORD_BIN=/path/to/gemini records another install (the compat cache's).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createCoder, type SharedStartOpts } from '../../src/index.js';
import { startFakeModel, type ScriptedToolCall, type ScriptStep } from '../../src/testing/index.js';

const root = resolve(import.meta.dirname, '../..');
const bin = process.env.GEMINI_RECORD_BIN ?? join(root, 'node_modules', '.bin', 'gemini');
const bypass: SharedStartOpts = { permissionPolicy: { mode: 'bypass' } };

interface Scenario {
  name: string;
  prompt: string;
  script: ScriptStep[];
  opts?: SharedStartOpts;
  /** The CLI's own attempts per model call (general.maxAttempts), 1 unless said. */
  attempts?: number;
  /** A first run in the same coder, whose session this one resumes. */
  resume?: boolean;
}

const shell = (command: string): { toolCalls: ScriptedToolCall[] } => ({ toolCalls: [{ name: 'run_shell_command', input: { command, description: 'coderline recording' } }] });

const scenarios: Scenario[] = [
  { name: 'text', prompt: 'Say hello.', script: [{ text: 'Hello from the fake model.' }] },
  { name: 'thinking', prompt: 'Think, then answer.', script: [{ thinking: 'Let me think about it.', text: 'The answer is 42.', usage: { inputTokens: 30, outputTokens: 12, reasoningTokens: 5 } }] },
  { name: 'shell-tool', prompt: 'Run echo.', opts: bypass, script: [{ text: 'I will run it.', ...shell('echo hi') }, { text: 'The command printed hi.' }] },
  { name: 'failing-command', prompt: 'Run a failing command.', opts: bypass, script: [shell('echo oops >&2; exit 3'), { text: 'It failed.' }] },
  { name: 'parallel-tools', prompt: 'Run two tools.', opts: bypass, script: [{ toolCalls: [{ name: 'run_shell_command', input: { command: 'echo one' } }, { name: 'no_such_tool', input: {} }] }, { text: 'Done with both.' }] },
  { name: 'tool-not-offered', prompt: 'Run echo.', script: [shell('echo hi'), { text: 'The shell is not offered.' }] },
  { name: 'allowed-rule', prompt: 'Run two commands.', opts: { permissionPolicy: { allow: ['run_shell_command(echo)'] } }, script: [shell('echo allowed'), shell('touch refused.txt'), { text: 'One ran.' }] },
  { name: 'read-file', prompt: 'Read a file.', script: [{ toolCalls: [{ name: 'read_file', input: { file_path: 'missing.txt' } }] }, { text: 'It is missing.' }] },
  { name: 'todos', prompt: 'Plan it.', opts: bypass, script: [{ toolCalls: [{ name: 'write_todos', input: { todos: [{ description: 'First step', status: 'in_progress' }, { description: 'Second step', status: 'pending' }] } }] }, { text: 'Planned.' }] },
  { name: 'json-answer', prompt: 'Answer in JSON.', script: [{ text: '{"answer": 42, "unit": "none"}' }] },
  { name: 'auth-401', prompt: 'Hi.', script: [{ kind: 'error', status: 401, message: 'API key not valid. Please pass a valid API key.' }] },
  { name: 'bad-request-400', prompt: 'Hi.', script: [{ kind: 'error', status: 400, message: 'Request contains an invalid argument.' }] },
  { name: 'server-500', prompt: 'Hi.', script: [{ kind: 'error', status: 500, message: 'An internal error has occurred.' }] },
  { name: 'rate-limit-429', prompt: 'Hi.', script: [{ kind: 'error', status: 429, message: 'Resource has been exhausted (e.g. check quota).' }] },
  { name: 'retry-500-then-ok', prompt: 'Hi.', attempts: 2, script: [{ kind: 'error', status: 500, message: 'An internal error has occurred.' }, { text: 'Recovered answer.' }] },
  { name: 'max-turns', prompt: 'Keep going.', opts: bypass, script: [shell('echo one'), shell('echo two'), { text: 'Never reached.' }] },
  { name: 'session-resume', prompt: 'And again?', resume: true, script: [{ text: 'First answer.' }, { text: 'Resumed answer.' }] },
];

export async function record(): Promise<void> {
  for (const scenario of scenarios) {
    const fake = await startFakeModel({ api: 'gemini', script: scenario.script });
    const cwd = await mkdtemp(join(tmpdir(), 'coderline-gemini-rec-'));
    try {
      const env = await fake.env('gemini', { retries: (scenario.attempts ?? 1) - 1 });
      const lines: string[] = [];
      const opts: SharedStartOpts = { ...env, ...scenario.opts, executablePath: bin, workingDirectory: cwd };
      const coder = createCoder('gemini', opts);
      let sessionId: string | undefined;
      if (scenario.resume) sessionId = (await coder.start().run('First question.')).sessionId;
      const runOpts = { onRawLine: (line: string) => lines.push(line), signal: AbortSignal.timeout(120_000), ...(scenario.name === 'max-turns' ? { maxTurns: 1 } : {}) };
      const result = sessionId ? await coder.resume(sessionId).run(scenario.prompt, runOpts) : await coder.start().run(scenario.prompt, runOpts);
      await coder.close();
      if (!result.cliVersion) throw new Error('gemini reported no version');
      const dir = join(root, 'fixtures', 'gemini', result.cliVersion);
      await mkdir(dir, { recursive: true });
      const meta = {
        prompt: scenario.prompt,
        answers: scenario.script,
        exitCode: result.exitCode ?? null,
        status: result.status,
        error: result.error ? { code: result.error.code, message: result.error.message } : null,
        modelCalls: fake.requests.length,
      };
      await writeFile(join(dir, `${scenario.name}.jsonl`), lines.map((line) => `${line}\n`).join(''));
      await writeFile(join(dir, `${scenario.name}.meta.json`), `${JSON.stringify(meta, null, 2)}\n`);
      console.error(`  ${scenario.name}: ${result.status} ${result.error?.code ?? ''} exit ${result.exitCode}, ${lines.length} lines`);
    } finally {
      await fake.close();
      await rm(cwd, { recursive: true, force: true });
    }
  }
}

