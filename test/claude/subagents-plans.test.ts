// Replays the recorded stdout of the real claude binary (2.1.197 and 2.1.332; `npm run record -- claude`)
// where the fake model starts a subagent (the `agents` option, the Agent tool), writes a plan
// (TaskCreate/TaskUpdate; TodoWrite with CLAUDE_CODE_ENABLE_TASKS=0) and `/compact`s a session.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CoderStreamEvent } from '../../src/events.js';
import { replay } from '../../src/replay/replay.js';

const root = join(import.meta.dirname, '..', '..', 'fixtures', 'claude');
const events = (version: string, scenario: string): CoderStreamEvent<'claude'>[] =>
  replay('claude', readFileSync(join(root, version, `${scenario}.jsonl`), 'utf8').split('\n'), {
    opts: (JSON.parse(readFileSync(join(root, version, `${scenario}.meta.json`), 'utf8')) as { opts: object }).opts,
  });
const ofType = <T extends CoderStreamEvent['type']>(list: CoderStreamEvent<'claude'>[], type: T) =>
  list.filter((event): event is Extract<CoderStreamEvent<'claude'>, { type: T }> => event.type === type);

describe.each(['2.1.197', '2.1.332'])('claude %s', (version) => {
  it('a subagent: started, progress and completed events name its task, and its tool calls carry the Agent call as parent', () => {
    const all = events(version, 'subagent');
    const agent = ofType(all, 'tool_use').find((event) => event.name === 'Agent')!;
    const phases = ofType(all, 'subagent');
    expect(phases.map((event) => event.phase)).toEqual(['started', 'progress', 'progress', 'completed']);
    expect(new Set(phases.map((event) => event.taskId)).size).toBe(1);
    expect(phases[0]).toMatchObject({ toolUseId: agent.id, description: 'Greet the user' });
    expect(phases.at(-1)).toMatchObject({ toolUseId: agent.id, status: 'success', usage: { totalTokens: expect.any(Number) } });
    // The subagent's Bash call and its result are the subagent's, the parent's own events are not.
    const bash = all.filter((event) => (event.type === 'tool_use' || event.type === 'tool_result') && event.id !== agent.id);
    expect(bash.map((event) => event.type)).toEqual(['tool_use', 'tool_result']);
    for (const event of bash) expect(event.parentToolUseId).toBe(agent.id);
    expect(agent.parentToolUseId).toBeUndefined();
    expect(all.filter((event) => event.type === 'message').every((event) => event.parentToolUseId === undefined)).toBe(true);
  });

  it('TaskCreate / TaskUpdate: a plan event after each call, the whole list each time', () => {
    const plans = ofType(events(version, 'plan_tasks'), 'plan').map((event) => event.items);
    expect(plans).toEqual([
      [{ content: 'Write the tests', status: 'pending' }],
      [{ content: 'Write the tests', status: 'pending' }, { content: 'Fix the bug', status: 'pending' }],
      [{ content: 'Write the tests', status: 'in_progress' }, { content: 'Fix the bug', status: 'pending' }],
      [{ content: 'Write the tests', status: 'completed' }, { content: 'Fix the bug', status: 'pending' }],
    ]);
  });

  it('TodoWrite: a plan event per call, next to the tool_use it came from', () => {
    const all = events(version, 'plan_todo');
    const plans = ofType(all, 'plan');
    expect(plans.map((event) => event.items)).toEqual([
      [{ content: 'Write the tests', status: 'in_progress' }, { content: 'Fix the bug', status: 'pending' }],
      [{ content: 'Write the tests', status: 'completed' }, { content: 'Fix the bug', status: 'in_progress' }],
    ]);
    expect(plans.map((event) => event.toolUseId)).toEqual(ofType(all, 'tool_use').map((event) => event.id));
  });
});

describe.each(['2.1.197', '2.1.332'])('claude %s /compact', (version) => {
  it('compaction started, then completed with the trigger and the tokens before and after', () => {
    const compactions = ofType(events(version, 'compact'), 'compaction');
    expect(compactions.map((event) => event.phase)).toEqual(['started', 'completed']);
    expect(compactions[1]).toMatchObject({ trigger: 'manual', tokensBefore: expect.any(Number), tokensAfter: expect.any(Number) });
  });
});
