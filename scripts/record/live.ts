// Records fixtures/<cli>/<version>/live/*.jsonl: live sessions (coder.open()) of the real binaries
// against the fake model servers, every line both ways (src/core/live-recording.ts has the format).
// The same scenarios for every CLI with a live mode; the shell call is the adapter's probe call.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { builtInAdapters } from '../../src/registry.js';
import type { AdapterSpec } from '../../src/core/adapter.js';
import { LiveSession } from '../../src/core/live.js';
import { formatRecording, type RecordedLine, type RecordingMeta } from '../../src/core/live-recording.js';
import type { ProviderName } from '../../src/events.js';
import type { OneShotOpts } from '../../src/options.js';
import { fakeApiOf, startFakeModel, type Script, type ScriptStep } from '../../src/testing/index.js';
import { pathWithNode22 } from '../../src/testing/pi-env.js';

const root = resolve(import.meta.dirname, '../..');

interface LiveScenario {
  name: string;
  what: string;
  script(shell: (command: string) => ScriptStep, hang: ScriptStep): Script;
  turns: Array<{ prompt: string; interrupt?: true }>;
  decision?: 'allow' | 'deny';
}

const scenarios: LiveScenario[] = [
  {
    name: 'two-turns',
    what: 'two turns in one process; the second request carries the first',
    script: () => [{ text: 'Noted: apricot.' }, { text: 'The word was apricot.' }],
    turns: [{ prompt: 'Remember the word apricot.' }, { prompt: 'What was the word?' }],
  },
  {
    name: 'tool-allowed',
    what: 'canUseTool allows a shell call: the question, the answer, the command runs',
    script: (shell) => [shell('touch allowed.txt'), { text: 'Done.' }],
    turns: [{ prompt: 'Touch it.' }],
    decision: 'allow',
  },
  {
    name: 'tool-denied',
    what: 'canUseTool denies a shell call: the command does not run',
    script: (shell) => [shell('touch denied.txt'), { text: 'Refused.' }],
    turns: [{ prompt: 'Touch it.' }],
    decision: 'deny',
  },
  {
    name: 'interrupt',
    what: 'a turn stuck on a hung model is interrupted; the next turn answers',
    script: (_shell, hang) => (_request, index) => (index === 0 ? hang : { text: 'Back again.' }),
    turns: [{ prompt: 'Think forever.', interrupt: true }, { prompt: 'Are you there?' }],
  },
  {
    name: 'model-error',
    what: 'every model request of the first turn fails with HTTP 401: the turn fails with auth; the next turn answers',
    script: () => (request) => (JSON.stringify(request.body).includes('Are you back?') ? { text: 'Back again.' } : { kind: 'error', status: 401, message: 'bad key' }),
    turns: [{ prompt: 'Say hi.' }, { prompt: 'Are you back?' }],
  },
];

async function waitFor(condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((done) => setTimeout(done, 50));
  }
}

/** Temp paths and ports differ per recording: replaced so the files stay readable and comparable. */
const scrub = (line: string, replacements: Array<[string, string]>) => replacements.reduce((text, [from, to]) => text.split(from).join(to), line);

async function recordScenario(adapter: AdapterSpec<ProviderName>, scenario: LiveScenario): Promise<{ version: string; text: string }> {
  const shellCall = adapter.probe!.shellCall;
  // Codex's request of a hung reply is seen once its headers are out; the others' after the first event.
  const hang: ScriptStep = { kind: 'hang', after: adapter.name === 'codex' ? 'headers' : 'first-event' };
  const model = await startFakeModel({ api: fakeApiOf[adapter.name], script: scenario.script((command) => ({ toolCalls: [{ ...shellCall(command), id: 'call_live_1' }] }), hang) });
  const workDir = await mkdtemp(join(tmpdir(), 'coderline-live-rec-'));
  const stateDir = await mkdtemp(join(tmpdir(), 'coderline-live-rec-state-'));
  const lines: RecordedLine[] = [];
  try {
    // A long request timeout keeps the hung model hung until the interrupt (copilot has no such setting).
    const env = await model.env(adapter.name, adapter.name === 'copilot' ? {} : { requestTimeoutMs: 120_000 });
    const opts: OneShotOpts = {
      ...env,
      ...(adapter.name === 'pi' ? { extraEnv: { ...env.extraEnv, PATH: pathWithNode22() } } : {}),
      workingDirectory: workDir,
      ...(scenario.decision ? { canUseTool: () => (scenario.decision === 'allow' ? { behavior: 'allow' } : { behavior: 'deny', message: 'Denied by the recording.' }) } : {}),
    };
    const live = await LiveSession.open(adapter, { cwd: workDir, coderStateDir: async () => stateDir, recordLine: (line) => lines.push(line) }, opts, { kind: 'new' });
    const turns: RecordingMeta['turns'] = [];
    try {
      for (const turn of scenario.turns) {
        const requestsBefore = model.requests.length;
        const running = live.send(turn.prompt);
        if (turn.interrupt) {
          await waitFor(() => model.requests.length > requestsBefore);
          await live.interrupt();
        }
        const result = await running.result;
        turns.push({ prompt: turn.prompt, status: result.status, text: result.text });
      }
    } finally {
      await live.close();
    }
    const version = live.cliVersion ?? 'unknown';
    const replacements: Array<[string, string]> = [[model.url, 'http://127.0.0.1:PORT'], [workDir, '$WORKSPACE'], [stateDir, '$STATE'], [tmpdir(), '$TMPDIR']];
    const meta: RecordingMeta = { cli: adapter.name, version, scenario: scenario.name, what: scenario.what, turns };
    return { version, text: formatRecording({ meta, lines: lines.map(({ dir, line }) => ({ dir, line: scrub(line, replacements) })) }) };
  } finally {
    await model.close();
    await rm(workDir, { recursive: true, force: true });
    await rm(stateDir, { recursive: true, force: true });
  }
}

/** Records every live scenario of `cli` (nothing for a CLI without a live mode). */
export async function recordLive(cli: ProviderName): Promise<void> {
  const adapter: AdapterSpec<ProviderName> = builtInAdapters[cli];
  if (!adapter.live) return;
  const wanted = process.env.LIVE_SCENARIOS?.split(',');
  for (const scenario of scenarios) {
    if (wanted && !wanted.includes(scenario.name)) continue;
    const { version, text } = await recordScenario(adapter, scenario);
    const dir = join(root, 'fixtures', cli, version, 'live');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, `${scenario.name}.jsonl`), text);
    console.error(`  live/${scenario.name}: ${text.split('\n').length - 2} lines`);
  }
}
