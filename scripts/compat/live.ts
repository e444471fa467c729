// Live-session scenarios (coder.open()) run through a real binary against a fake model server, every
// line both ways recorded (src/replay/live-recording.ts has the format). `npm run record -- --live`
// keeps them as the pinned version's live fixtures; the compatibility sweep runs the canaries among
// them on every swept version and judges each from what a user sees: the turns' results, whether the
// CLI asked canUseTool, whether the command's file appeared, what the model was sent.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AdapterSpec, LiveFeature, LiveSpec, ProbeSpec } from '../../src/core/contract/adapter.js';
import { withCanaryOpts } from '../../src/probe/run.js';
import { LiveSession } from '../../src/core/live/live.js';
import type { RunStream } from '../../src/result.js';
import { compareVersions } from '../../src/core/versions/version.js';
import { formatRecording, type RecordedLine, type RecordingMeta } from '../../src/replay/live-recording.js';
import type { ProviderName } from '../../src/events.js';
import type { OneShotOpts } from '../../src/options.js';
import { fakeApiOf, startFakeModel, type Script, type ScriptStep } from '../../src/testing/index.js';
import { PI_FAKE_PLAIN_MODEL, PI_FAKE_PROVIDER } from '../../src/testing/pi-env.js';
import { repoRoot, type CanaryOutcome, type LiveObservation } from './data.js';
import { cacheRoot } from './install.js';
import { OPENCODE_FAKE_REASONING_MODEL } from '../../src/testing/opencode-env.js';

export type LiveScenarioName = 'two-turns' | 'interrupt' | 'tool-allowed' | 'tool-denied' | 'set-model' | 'steer' | 'model-error' | 'compaction';

/** The message steer() pushes into a running turn. */
const STEER = 'STEERED: mind the tests.';

/** The model setModel() switches to, per CLI: the name given and the one the next model request names. */
const otherModel: Record<ProviderName, { model: string; requested: string }> = {
  claude: { model: 'claude-haiku-4-5', requested: 'claude-haiku-4-5' },
  codex: { model: 'gpt-5.4', requested: 'gpt-5.4' },
  copilot: { model: 'other-model', requested: 'other-model' },
  pi: { model: `${PI_FAKE_PROVIDER}/${PI_FAKE_PLAIN_MODEL}`, requested: PI_FAKE_PLAIN_MODEL },
  gemini: { model: 'gemini-2.5-pro', requested: 'gemini-2.5-pro' },
  // The model the fake config has besides its default (setModel is not wired: n/a).
  opencode: { model: OPENCODE_FAKE_REASONING_MODEL, requested: 'fake-reasoning' },
};

interface ExpectedTurn {
  status: string;
  /** The answer's text, where every version must print the scripted one. */
  text?: string;
}

export interface LiveScenario {
  name: LiveScenarioName;
  what: string;
  script(shell: (command: string) => ScriptStep, hang: ScriptStep, probe: ProbeSpec): Script;
  /** The adapter's probe data the scenario is made of (it is n/a where the adapter has none). */
  probe?: 'liveCompaction';
  /** Options from the adapter's probe data, on top of the fake model's. */
  opts?(probe: ProbeSpec): OneShotOpts;
  /** `interrupt`: once the model was asked; `steer`: at the turn's first tool use; `setModelBefore`: between turns. */
  turns: Array<{ prompt: string; interrupt?: true; steer?: true; setModelBefore?: true }>;
  /** The live feature the scenario needs beyond open (it is n/a where the live protocol lacks it). */
  feature?: LiveFeature;
  /** canUseTool's answer, which the CLI must ask for. */
  decision?: 'allow' | 'deny';
  /** canUseTool allows whatever the CLI asks about (it need not ask: claude runs `sleep` unasked). */
  allowTools?: true;
  /** The file the scripted shell command creates in the working directory. */
  file?: string;
  /** What a user must see of each turn. */
  expect: ExpectedTurn[];
}

export const liveScenarios: readonly LiveScenario[] = [
  {
    name: 'two-turns',
    what: 'two turns in one process; the second request carries the first',
    script: () => [{ text: 'Noted: apricot.' }, { text: 'The word was apricot.' }],
    turns: [{ prompt: 'Remember the word apricot.' }, { prompt: 'What was the word?' }],
    expect: [{ status: 'success', text: 'Noted: apricot.' }, { status: 'success', text: 'The word was apricot.' }],
  },
  {
    name: 'tool-allowed',
    what: 'canUseTool allows a shell call: the question, the answer, the command runs',
    script: (shell) => [shell('touch allowed.txt'), { text: 'Done.' }],
    turns: [{ prompt: 'Touch it.' }],
    decision: 'allow',
    file: 'allowed.txt',
    expect: [{ status: 'success', text: 'Done.' }],
  },
  {
    name: 'tool-denied',
    what: 'canUseTool denies a shell call: the command does not run',
    script: (shell) => [shell('touch denied.txt'), { text: 'Refused.' }],
    turns: [{ prompt: 'Touch it.' }],
    decision: 'deny',
    file: 'denied.txt',
    // Copilot ends a denied turn with its own words, not the model's.
    expect: [{ status: 'success' }],
  },
  {
    name: 'interrupt',
    what: 'a turn stuck on a hung model is interrupted; the next turn answers',
    script: (_shell, hang) => (_request, index) => (index === 0 ? hang : { text: 'Back again.' }),
    turns: [{ prompt: 'Think forever.', interrupt: true }, { prompt: 'Are you there?' }],
    expect: [{ status: 'cancelled' }, { status: 'success', text: 'Back again.' }],
  },
  {
    name: 'set-model',
    what: 'setModel() between two turns: the second turn\'s model request names the new model',
    script: () => () => ({ text: 'Done.' }),
    turns: [{ prompt: 'First.' }, { prompt: 'Second.', setModelBefore: true }],
    feature: 'setModel',
    expect: [{ status: 'success', text: 'Done.' }, { status: 'success', text: 'Done.' }],
  },
  {
    name: 'steer',
    what: 'steer() while an allowed shell command runs: the message reaches the model within the same turn',
    script: (shell) => (request, index) => (JSON.stringify(request.body).includes(STEER) ? { text: 'Saw the steer.' } : index < 3 ? shell('sleep 3') : { text: 'No steer seen.' }),
    turns: [{ prompt: 'Run it.', steer: true }],
    feature: 'steer',
    allowTools: true,
    expect: [{ status: 'success', text: 'Saw the steer.' }],
  },
  {
    // Codex: a reply over model_auto_compact_token_limit, then the summary the CLI asks for itself.
    name: 'compaction',
    what: 'a turn brought to compact by the adapter\'s probe data (liveCompaction): compaction events, started and completed, and the turn answers',
    script: (_shell, _hang, probe) => probe.liveCompaction?.script ?? [],
    opts: (probe) => probe.liveCompaction?.opts ?? {},
    probe: 'liveCompaction',
    turns: [{ prompt: 'Plan the work, then answer.' }],
    expect: [{ status: 'success' }],
  },
  {
    name: 'model-error',
    what: 'every model request of the first turn fails with HTTP 401: the turn fails with auth; the next turn answers',
    script: () => (request) => (JSON.stringify(request.body).includes('Are you back?') ? { text: 'Back again.' } : { kind: 'error', status: 401, message: 'bad key' }),
    turns: [{ prompt: 'Say hi.' }, { prompt: 'Are you back?' }],
    expect: [{ status: 'error' }, { status: 'success', text: 'Back again.' }],
  },
];

export const liveScenario = (name: LiveScenarioName): LiveScenario => liveScenarios.find((scenario) => scenario.name === name)!;

/** The findings against what a user must see: none is a pass. */
export function judgeLive(scenario: LiveScenario, observed: LiveObservation): string[] {
  if (observed.error !== undefined) return [`the session failed: ${observed.error}`];
  const findings: string[] = [];
  scenario.expect.forEach((expected, index) => {
    const turn = observed.turns[index];
    if (!turn) return findings.push(`turn ${index + 1} never ended`);
    if (turn.status !== expected.status) findings.push(`turn ${index + 1} ended ${turn.status}, not ${expected.status}`);
    else if (expected.text !== undefined && turn.text !== expected.text) findings.push(`turn ${index + 1} answered ${JSON.stringify(turn.text)}, not ${JSON.stringify(expected.text)}`);
  });
  if (scenario.decision && observed.asked === 0) findings.push('canUseTool was never asked');
  if (scenario.decision === 'allow' && observed.fileCreated === false) findings.push(`the allowed command did not create ${scenario.file}`);
  if (scenario.decision === 'deny' && observed.fileCreated === true) findings.push(`the denied command created ${scenario.file}`);
  if (observed.carriedFirstTurn === false) findings.push('the second turn\'s model request lacks the first turn');
  if (observed.switchedModel === false) findings.push('the model request after setModel() names another model');
  if (scenario.name === 'compaction') {
    for (const phase of ['started', 'completed'] as const) if (!observed.compaction?.includes(phase)) findings.push(`no compaction event of phase ${phase}`);
  }
  return findings;
}

/** Whether the live protocol has the control the scenario needs, and the adapter the probe data it is made of (n/a otherwise). */
export const liveCanaryApplies = (adapter: AdapterSpec, scenario: LiveScenario): boolean =>
  adapter.live !== undefined && (!scenario.feature || adapter.live.capabilities[scenario.feature] !== undefined) && (!scenario.probe || adapter.probe?.[scenario.probe] !== undefined);

/**
 * A canary with findings fails, unless the adapter refuses its control on this version
 * (FeatureNotInVersionError, the capability's `since`): then the findings are why, and it is gated.
 */
export function liveOutcome(spec: LiveSpec, scenario: LiveScenario, version: string, findings: readonly string[]): CanaryOutcome {
  if (!findings.length) return 'pass';
  const since = scenario.feature && spec.capabilities[scenario.feature]?.since;
  return since && compareVersions(version, since) < 0 ? 'gated' : 'fail';
}

/** Which binary a scenario runs: the adapter's own unless an executable (and a PATH for it) is given. */
export interface LiveTarget {
  executablePath?: string;
  path?: string;
}

export interface LiveRun {
  version: string | undefined;
  /** The recording (temp paths and ports scrubbed), as a fixture file's text. */
  text: string;
  observed: LiveObservation;
}

/**
 * A turn whose end the SDK never reads (e.g. an end record this version does not print) is given up
 * after this long: the stall watch does not cover a turn once it was interrupted.
 */
const TURN_DEADLINE_MS = 90_000;
/** The fake model answers at once: a turn silent this long is stuck (e.g. waits for an end record). */
const LIVE_STALL_MS = 30_000;

async function withDeadline<T>(work: Promise<T>, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), TURN_DEADLINE_MS)));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

async function waitFor(condition: () => boolean, timeoutMs = 60_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error('the model was never asked');
    await new Promise((done) => setTimeout(done, 50));
  }
}

/** Pushes the steer message at the turn's first tool use (the scripted command runs for seconds). */
async function steerAtToolUse(live: LiveSession<ProviderName>, running: RunStream<unknown, ProviderName>): Promise<void> {
  let steered = false;
  for await (const event of running) {
    if (event.type !== 'tool_use' || steered) continue;
    steered = true;
    void live.steer(STEER);
  }
}

/** The phases of the turn's compaction events. */
async function compactionPhases(running: RunStream<unknown, ProviderName>): Promise<Array<'started' | 'completed'>> {
  const phases: Array<'started' | 'completed'> = [];
  for await (const event of running) if (event.type === 'compaction') phases.push(event.phase);
  return phases;
}

/** Temp paths and ports differ per recording: replaced so the files stay readable and comparable. */
const scrub = (line: string, replacements: Array<[string, string]>) => replacements.reduce((text, [from, to]) => text.split(from).join(to), line);

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';

export async function runLiveScenario(adapter: AdapterSpec<ProviderName>, scenario: LiveScenario, target: LiveTarget = {}): Promise<LiveRun> {
  const probe = adapter.probe!;
  const shellCall = probe.shellCall;
  // Codex's request of a hung reply is seen once its headers are out; the others' after the first event.
  const hang: ScriptStep = { kind: 'hang', after: adapter.name === 'codex' ? 'headers' : 'first-event' };
  const model = await startFakeModel({ api: fakeApiOf[adapter.name], script: scenario.script((command) => ({ toolCalls: [{ ...shellCall(command), id: 'call_live_1' }] }), hang, probe) });
  const workDir = await mkdtemp(join(tmpdir(), 'coderline-live-rec-'));
  const stateDir = await mkdtemp(join(tmpdir(), 'coderline-live-rec-state-'));
  const lines: RecordedLine[] = [];
  const observed: LiveObservation = { turns: [], asked: 0 };
  let version: string | undefined;
  try {
    // A long request timeout keeps the hung model hung until the interrupt (copilot and gemini have no such setting).
    const env = await model.env(adapter.name, adapter.name === 'copilot' || adapter.name === 'gemini' ? {} : { requestTimeoutMs: 120_000 });
    const opts: OneShotOpts = {
      ...withCanaryOpts(env, scenario.opts?.(probe) ?? {}),
      ...(target.path ? { extraEnv: { ...env.extraEnv, PATH: target.path } } : {}),
      ...(target.executablePath ? { executablePath: target.executablePath } : {}),
      workingDirectory: workDir,
      stallTimeoutMs: LIVE_STALL_MS,
      ...(scenario.decision || scenario.allowTools
        ? {
            canUseTool: () => {
              observed.asked += 1;
              return scenario.decision === 'deny' ? { behavior: 'deny' as const, message: 'Denied by the recording.' } : { behavior: 'allow' as const };
            },
          }
        : {}),
    };
    try {
      const live = await LiveSession.open(adapter, { cwd: workDir, coderStateDir: async () => stateDir, recordLine: (line) => lines.push(line) }, opts, { kind: 'new' });
      version = live.cliVersion;
      try {
        for (const [index, turn] of scenario.turns.entries()) {
          const drive = async () => {
            if (turn.setModelBefore) await live.setModel(otherModel[adapter.name].model);
            const requestsBefore = model.requests.length;
            const running = live.send(turn.prompt);
            if (turn.interrupt) {
              await waitFor(() => model.requests.length > requestsBefore);
              await live.interrupt();
            }
            if (turn.steer) await steerAtToolUse(live, running);
            if (scenario.name === 'compaction') observed.compaction = [...(observed.compaction ?? []), ...(await compactionPhases(running))];
            return running.result;
          };
          const result = await withDeadline(drive(), `turn ${index + 1} did not end within ${TURN_DEADLINE_MS / 1000} s`);
          observed.turns.push({ prompt: turn.prompt, status: result.status, text: result.text });
        }
      } finally {
        await live.close();
      }
    } catch (error) {
      observed.error = messageOf(error);
    }
    if (scenario.file) observed.fileCreated = existsSync(join(workDir, scenario.file));
    if (scenario.name === 'two-turns' && observed.turns.length === 2) {
      const last = JSON.stringify(model.requests.at(-1)?.body ?? '');
      observed.carriedFirstTurn = last.includes(scenario.turns[0]!.prompt) && last.includes(observed.turns[0]!.text);
    }
    if (scenario.name === 'set-model' && observed.turns.length === 2) {
      observed.switchedModel = (model.requests.at(-1)?.body as { model?: unknown } | undefined)?.model === otherModel[adapter.name].requested;
    }
    const replacements: Array<[string, string]> = [[model.url, 'http://127.0.0.1:PORT'], [workDir, '$WORKSPACE'], [stateDir, '$STATE'], [tmpdir(), '$TMPDIR'], [repoRoot, '$REPO'], [cacheRoot, '$COMPAT_CACHE']];
    const meta: RecordingMeta = { cli: adapter.name, version: version ?? 'unknown', scenario: scenario.name, what: scenario.what, turns: observed.turns };
    return { version, observed, text: formatRecording({ meta, lines: lines.map(({ dir, line }) => ({ dir, line: scrub(line, replacements) })) }) };
  } finally {
    await model.close();
    await rm(workDir, { recursive: true, force: true });
    await rm(stateDir, { recursive: true, force: true });
  }
}
