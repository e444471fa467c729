// The meaning canaries (plan, subagent, compaction, session_not_found) on the compatibility sweep's
// recordings of each CLI's newest version (fixtures/<cli>/<testedMax>/compat/): as recorded they judge
// as the sweep did; doctored in memory here — the plan's steps renamed, the records of a subagent or
// a compaction dropped, a refusal given another code — the analysis names what went wrong, so the
// replay of the sweep's recordings (test/support/compat-replay.ts) fails on such a recording.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compatFixtureDir, type CompatMeta } from '../../scripts/compat/data.js';
import type { ProviderName } from '../../src/events.js';
import { analyseCanary, type ProbeExit, type RefusedRun } from '../../src/probe/analyse.js';
import type { Canary, MeaningCanaryName } from '../../src/probe/canaries.js';
import { sweepCanariesFor } from '../../src/probe/sweep-canaries.js';
import { replay } from '../../src/replay/replay.js';
import { builtInAdapters } from '../../src/registry.js';

const meaningCanaries: readonly MeaningCanaryName[] = ['plan', 'subagent', 'compaction', 'session_not_found'];
const clis = Object.keys(builtInAdapters) as ProviderName[];

interface Recorded {
  cli: ProviderName;
  canary: Canary;
  lines: string[];
  meta: CompatMeta;
}

function recorded(cli: ProviderName, canary: Canary): Recorded {
  const dir = compatFixtureDir(cli, builtInAdapters[cli].versions.testedMax);
  const name = canary.expect.canary;
  const meta = JSON.parse(readFileSync(join(dir, `${name}.meta.json`), 'utf8')) as CompatMeta;
  const lines = readFileSync(join(dir, `${name}.jsonl`), 'utf8').split('\n').filter((line) => line.trim() !== '');
  return { cli, canary, lines, meta };
}

const cases: Recorded[] = clis.flatMap((cli) => (sweepCanariesFor(builtInAdapters[cli]) ?? []).filter((canary) => (meaningCanaries as readonly string[]).includes(canary.expect.canary)).map((canary) => recorded(cli, canary)));
const named = (canary: MeaningCanaryName) => cases.filter((each) => each.canary.expect.canary === canary).map((each) => [each.cli, each] as const);

function analyse({ cli, canary, meta }: Recorded, lines: string[], exit: ProbeExit = meta.exit, refused: RefusedRun | undefined = meta.refused) {
  return analyseCanary(cli, canary.expect, lines, exit, canary.opts, meta.earlierSessionId ?? undefined, refused);
}

/** The lines without those that, read alone, translate to an event of this type. */
function without(cli: ProviderName, lines: string[], type: string): string[] {
  const kept = lines.filter((line) => !replay(cli, [line]).some((event) => event.type === type));
  expect(kept.length, `no record of ${cli} gave a ${type} event by itself`).toBeLessThan(lines.length);
  return kept;
}

describe('the meaning canaries on the sweep\'s recordings', () => {
  it('run on every CLI that claims the event, and session_not_found on all', () => {
    const ran = (name: MeaningCanaryName) => cases.filter((each) => each.canary.expect.canary === name).map((each) => each.cli).sort();
    expect(ran('session_not_found')).toEqual([...clis].sort());
    expect(ran('plan')).toEqual(['claude', 'codex', 'opencode']);
    expect(ran('subagent')).toEqual(['claude', 'copilot', 'opencode']);
    expect(ran('compaction')).toEqual(['claude']);
  });

  it.each(cases.map((each) => [each.cli, each.canary.expect.canary, each] as const))('%s %s as recorded: judged as the sweep judged it', (_cli, _name, each) => {
    expect(each.meta.analysed).toBe(true);
    expect(analyse(each, each.lines)).toEqual(each.meta.report);
  });

  it.each(named('plan'))('%s plan with its steps renamed in every record: each plan event is named wrong, the last plan is missing', (_cli, each) => {
    const report = analyse(each, each.lines.map((line) => line.split('Fix the bug').join('Fix the bog')));
    expect(report.drift).toBe(true);
    expect(report.misclassified).toContain('a plan event lists Write the tests: completed, Fix the bog: pending; expected the steps Write the tests, Fix the bug');
    expect(report.missing).toContain('RunResult.plan Write the tests: completed, Fix the bug: pending (got Write the tests: completed, Fix the bog: pending)');
  });

  it.each(named('plan'))('%s plan without its plan records: no plan event, no RunResult.plan', (cli, each) => {
    const report = analyse(each, without(cli, each.lines, 'plan'));
    expect(report.missing).toEqual(expect.arrayContaining(['a plan event per plan written (2; got 0)', 'RunResult.plan Write the tests: completed, Fix the bug: pending (got none)']));
  });

  it.each(named('subagent'))('%s subagent without its subagent records: the phases are missing', (cli, each) => {
    const lines = without(cli, each.lines, 'subagent');
    const report = analyse(each, lines);
    expect(report.drift).toBe(true);
    // OpenCode prints the task call and its end as one record: both go.
    const taskGone = !replay(cli, lines).some((event) => event.type === 'tool_use' && event.tool?.kind === 'task');
    const expected = taskGone ? ['a tool_use of kind task'] : each.canary.expect.subagent!.phases.map((phase) => `a subagent event of phase ${phase}`);
    expect(report.missing).toEqual(expect.arrayContaining(expected));
  });

  it.each(named('subagent').filter(([, each]) => each.canary.expect.subagent?.innerTool))('%s subagent whose records name another parent: parentToolUseId is missing', (cli, each) => {
    const task = replay(cli, each.lines).find((event) => event.type === 'tool_use' && event.tool?.kind === 'task');
    const taskId = task?.type === 'tool_use' ? task.id : undefined;
    expect(taskId).toBeTruthy();
    // Every record but the task call's own names another tool use as the parent.
    const startsTask = (line: string) => replay(cli, [line]).some((event) => event.type === 'tool_use' && event.id === taskId);
    const lines = each.lines.map((line) => (startsTask(line) ? line : line.split(taskId!).join('toolu_other')));
    const report = analyse(each, lines);
    expect(report.drift).toBe(true);
    expect(report.missing).toContain(`parentToolUseId "${taskId}" on the subagent's tool_use (got toolu_other)`);
  });

  it.each(named('compaction'))('%s compaction without its compaction records: the phases are missing', (cli, each) => {
    const report = analyse(each, without(cli, each.lines, 'compaction'));
    for (const phase of each.canary.expect.compaction!.phases) expect(report.missing).toContain(`a compaction event of phase ${phase}`);
  });

  it.each(named('session_not_found'))('%s session_not_found classified otherwise: misclassified', (_cli, each) => {
    const report = each.meta.refused
      ? analyse(each, each.lines, each.meta.exit, { ...each.meta.refused, code: 'invalid_options' })
      : analyse(each, each.lines, { ...each.meta.exit, exitCode: 0, stderrTail: '' });
    expect(report.drift).toBe(true);
    expect(report.misclassified.length).toBeGreaterThan(0);
  });
});
