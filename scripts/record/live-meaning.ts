// Records fixtures/<cli>/<version>/live/<scenario>.jsonl for what a live session shows beyond the
// compatibility canaries: a plan, a compaction, a subagent, as the pinned binary prints them over its
// live protocol against the fake model (every line both ways; the format is src/replay/live-recording.ts).
// `npm run record -- --live` runs these after the canaries; LIVE_SCENARIOS picks some by name.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { LiveSession } from '../../src/core/live/live.js';
import type { AdapterSpec } from '../../src/core/contract/adapter.js';
import type { ProviderName } from '../../src/events.js';
import type { OneShotOpts } from '../../src/options.js';
import { formatRecording, type RecordedLine } from '../../src/replay/live-recording.js';
import { fakeApiOf, startFakeModel, type FakeEnvOptions, type Script } from '../../src/testing/index.js';
import { withSummaries } from '../../src/testing/script.js';
import type { ScriptStep } from '../../src/core/contract/model-reply.js';
import { pathWithNode22 } from '../../src/testing/pi-env.js';

const root = resolve(import.meta.dirname, '../..');

interface MeaningScenario {
  cli: ProviderName;
  name: string;
  what: string;
  script: Script;
  prompts: string[];
  opts?: OneShotOpts;
  fakeEnv?: FakeEnvOptions;
}

const todos = "INSERT INTO todos (id, title, status) VALUES ('t1', 'Write the tests', 'in_progress'), ('t2', 'Fix the bug', 'pending')";

const fill = (command: string, name = 'bash'): ScriptStep => ({ toolCalls: [{ name, input: { command, description: 'Fill the context' } }], usage: { inputTokens: 19_000, outputTokens: 10 } });
const scenarios: MeaningScenario[] = [
  {
    cli: 'codex',
    name: 'plan-compaction',
    what: 'update_plan (tools.update_plan.enabled) with a reply of 5000 input tokens over model_auto_compact_token_limit 1000: turn/plan/updated, then a contextCompaction item',
    opts: { codexConfig: { 'tools.update_plan.enabled': true, model_auto_compact_token_limit: 1000 } },
    script: [
      { toolCalls: [{ name: 'update_plan', input: { explanation: 'Two steps', plan: [{ step: 'Write the tests', status: 'in_progress' }, { step: 'Fix the bug', status: 'pending' }] } }], usage: { inputTokens: 5000, outputTokens: 10 } },
      { text: 'Summary: planned two steps.' },
      { text: 'Planned.' },
    ],
    prompts: ['Plan it.'],
  },
  {
    cli: 'copilot',
    name: 'plan-subagent',
    what: 'the sql tool fills the session todos (ACP plan update, empty in 1.0.102), then the task tool runs a subagent that runs bash',
    opts: { permissionPolicy: { mode: 'bypass' } },
    script: [
      { toolCalls: [{ name: 'sql', input: { description: 'Insert todos', query: todos } }] },
      { text: 'Planned.' },
      { toolCalls: [{ name: 'task', input: { name: 'runner', description: 'Run the command', prompt: 'Run echo sub', agent_type: 'task', mode: 'sync' } }] },
      { toolCalls: [{ name: 'bash', input: { command: 'echo subagent-ran', description: 'run it' } }] },
      { text: 'Subagent ran it.' },
      { text: 'The subagent ran it.' },
    ],
    prompts: ['Plan it.', 'Delegate it.'],
  },
  {
    cli: 'copilot',
    name: 'compaction',
    what: 'usage 19 000 of COPILOT_PROVIDER_MAX_PROMPT_TOKENS 20 000: a background summary call while the turn goes on, then /compact (a summary call): no record of either but the text of /compact',
    opts: { permissionPolicy: { mode: 'bypass' } },
    fakeEnv: { contextWindow: 20_000 },
    script: withSummaries([fill('echo filled'), fill('sleep 3; echo two'), { toolCalls: [{ name: 'bash', input: { command: 'echo three', description: 'three' } }] }, { text: 'Done after compaction.' }], /create a detailed summary/),
    prompts: ['Fill the context.', '/compact'],
  },
  {
    cli: 'opencode',
    name: 'compaction',
    what: 'usage 19 000 of a 20 000 context (limit.context): the summary call, then the answer; then /compact. No record marks either compaction: the summaries stream as agent messages',
    fakeEnv: { contextWindow: 20_000 },
    script: withSummaries([fill('echo filled'), { text: 'Done after compaction.' }], /summarization agent/i),
    prompts: ['Fill the context.', '/compact'],
  },
  {
    cli: 'pi',
    name: 'compaction',
    what: 'usage 19 000 of a 20 000 window (reserveTokens 2000, keepRecentTokens 1): compaction_start/end before the next model call',
    fakeEnv: { contextWindow: 20_000 },
    script: [fill('echo filled'), { text: 'Summary: the context was filled by shell calls.' }, { text: 'Done after compaction.' }],
    prompts: ['Fill the context.'],
  },
  {
    cli: 'gemini',
    name: 'compaction',
    what: 'model.compressionThreshold 0.0001: the second and third prompts start with the two compression calls, which no record shows; /compress is no command over ACP (the model gets it)',
    opts: { geminiSettings: { model: { compressionThreshold: 0.0001 } } },
    script: [{ text: 'First answer.', usage: { inputTokens: 5000, outputTokens: 10 } }, { text: 'Second answer.', usage: { inputTokens: 5000, outputTokens: 10 } }, { text: 'Third answer.' }],
    prompts: ['First question.', 'Second question.', '/compress'],
  },
];

/** Temp paths and ports differ per recording: replaced so the files stay readable and comparable. */
const scrub = (line: string, replacements: Array<[string, string]>) => replacements.reduce((text, [from, to]) => text.split(from).join(to), line);

async function recordOne(adapter: AdapterSpec<ProviderName>, scenario: MeaningScenario): Promise<void> {
  const model = await startFakeModel({ api: fakeApiOf[scenario.cli], script: scenario.script });
  const workDir = await mkdtemp(join(tmpdir(), 'coderline-live-rec-'));
  const stateDir = await mkdtemp(join(tmpdir(), 'coderline-live-rec-state-'));
  const lines: RecordedLine[] = [];
  try {
    const env = await model.env(scenario.cli, scenario.fakeEnv ?? {});
    const extraEnv = { ...env.extraEnv, ...(scenario.cli === 'pi' ? { PATH: pathWithNode22() } : {}) };
    const codexConfig = env.codexConfig || scenario.opts?.codexConfig ? { ...env.codexConfig, ...scenario.opts?.codexConfig } : undefined;
    const geminiSettings = env.geminiSettings || scenario.opts?.geminiSettings ? { ...env.geminiSettings, ...scenario.opts?.geminiSettings } : undefined;
    const opts: OneShotOpts = { ...env, ...scenario.opts, extraEnv, ...(codexConfig ? { codexConfig } : {}), ...(geminiSettings ? { geminiSettings } : {}), workingDirectory: workDir };
    const live = await LiveSession.open(adapter, { cwd: workDir, coderStateDir: async () => stateDir, recordLine: (line) => lines.push(line) }, opts, { kind: 'new' });
    const turns: Array<{ prompt: string; status: string; text: string }> = [];
    try {
      for (const prompt of scenario.prompts) {
        const result = await live.send(prompt).result;
        turns.push({ prompt, status: result.status, text: result.text });
      }
    } finally {
      await live.close();
    }
    const version = live.cliVersion ?? 'unknown';
    const replacements: Array<[string, string]> = [[model.url, 'http://127.0.0.1:PORT'], [workDir, '$WORKSPACE'], [stateDir, '$STATE'], [tmpdir(), '$TMPDIR'], [root, '$REPO']];
    const dir = join(root, 'fixtures', scenario.cli, version, 'live');
    await mkdir(dir, { recursive: true });
    const text = formatRecording({ meta: { cli: scenario.cli, version, scenario: scenario.name, what: scenario.what, turns }, lines: lines.map(({ dir: way, line }) => ({ dir: way, line: scrub(line, replacements) })) });
    await writeFile(join(dir, `${scenario.name}.jsonl`), text);
    console.error(`  live/${scenario.name}: ${lines.length} lines, turns ${turns.map((turn) => turn.status).join(', ')}, requests ${model.allRequests.map((request) => `${request.method} ${request.path}`).join(', ')}`);
  } finally {
    await model.close();
    await rm(workDir, { recursive: true, force: true });
    await rm(stateDir, { recursive: true, force: true });
  }
}

/** Records this CLI's scenarios above (none for a CLI without one). */
export async function recordLiveMeaning(adapter: AdapterSpec<ProviderName>): Promise<void> {
  const wanted = process.env.LIVE_SCENARIOS?.split(',');
  for (const scenario of scenarios) {
    if (scenario.cli !== adapter.name || (wanted && !wanted.includes(scenario.name))) continue;
    await recordOne(adapter, scenario);
  }
}
