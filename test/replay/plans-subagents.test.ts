// Plans, subagents and compactions of codex 0.171.0, copilot 1.0.102, pi 1.6.0 and opencode 1.18.33, replayed from what the real
// binaries printed against the fake model (`npm run record`: one-shot fixtures and live/ recordings).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CoderStreamEvent, ProviderName } from '../../src/events.js';
import { parseRecording } from '../../src/replay/live-recording.js';
import { replay, replayLive } from '../../src/replay/replay.js';

const fixtures = join(import.meta.dirname, '..', '..', 'fixtures');
const oneShot = (cli: ProviderName, path: string) => replay(cli, readFileSync(join(fixtures, cli, path), 'utf8').split('\n'));
const live = (cli: ProviderName, path: string) => replayLive(cli, parseRecording(readFileSync(join(fixtures, cli, path), 'utf8')));
const ofType = <T extends CoderStreamEvent['type']>(events: CoderStreamEvent[], type: T) =>
  events.filter((event): event is Extract<CoderStreamEvent, { type: T }> => event.type === type);

describe('codex 0.171.0 app-server', () => {
  it('turn/plan/updated is a plan (inProgress read as in_progress); the contextCompaction item a compaction started and completed', () => {
    const [turn] = live('codex', '0.171.0/live/plan-compaction.jsonl');
    expect(ofType(turn!, 'plan').map((event) => event.items)).toEqual([[{ content: 'Write the tests', status: 'in_progress' }, { content: 'Fix the bug', status: 'pending' }]]);
    expect(ofType(turn!, 'compaction').map((event) => event.phase)).toEqual(['started', 'completed']);
    // The summary the model wrote for the compaction is not an answer.
    expect(ofType(turn!, 'message').map((event) => event.text)).toEqual(['Planned.']);
  });
});

describe('copilot 1.0.102', () => {
  it('JSON: the task tool’s subagent has started and completed events, and its records carry the task call as parent', () => {
    const events = oneShot('copilot', '1.0.102/subagent.jsonl');
    const task = ofType(events, 'tool_use').find((event) => event.name === 'task')!;
    const phases = ofType(events, 'subagent');
    // subagent.configured between them (the subagent's model) names the same task call.
    expect(phases.map((event) => [event.phase, event.toolUseId])).toEqual([['started', task.id], ['progress', task.id], ['completed', task.id]]);
    expect(phases[1]).toMatchObject({ taskId: phases[0]!.taskId, extra: { model: expect.any(String) } });
    expect(phases[1]).not.toHaveProperty('status');
    expect(phases[2]).toMatchObject({ status: 'success', usage: { totalTokens: expect.any(Number) }, taskId: phases[0]!.taskId });
    const inside = events.filter((event) => event.parentToolUseId === task.id && event.type !== 'progress');
    expect(inside.map((event) => event.type)).toEqual(['tool_use', 'tool_result', 'message']);
    // The subagent's report is not the run's answer.
    expect(ofType(events, 'done')[0]?.text).toBe('The subagent ran it.');
  });

  it('JSON: a plan lives in the session’s SQL todos table, and no record says so', () => {
    expect(ofType(oneShot('copilot', '1.0.102/plan-sql.jsonl'), 'plan')).toEqual([]);
  });

  it('ACP: the plan update is a plan event (empty: 1.0.102 does not fill it from the todos)', () => {
    const [first] = live('copilot', '1.0.102/live/plan-subagent.jsonl');
    expect(ofType(first!, 'plan').map((event) => event.items)).toEqual([[]]);
  });
});

describe('pi 1.6.0 RPC (live)', () => {
  it('an auto-compaction between the tool call and the answer: started, then completed with the tokens before and after', () => {
    const [turn] = live('pi', '1.6.0/live/compaction.jsonl');
    expect(ofType(turn!, 'compaction').map(({ phase, trigger, tokensBefore, tokensAfter }) => ({ phase, trigger, tokensBefore, tokensAfter }))).toEqual([
      { phase: 'started', trigger: 'auto', tokensBefore: undefined, tokensAfter: undefined },
      { phase: 'completed', trigger: 'auto', tokensBefore: 19_012, tokensAfter: expect.any(Number) },
    ]);
    expect(ofType(turn!, 'done').map((event) => event.text)).toEqual(['Done after compaction.']);
  });
});

describe('opencode 1.18.33 ACP (live)', () => {
  it('an auto-compaction has no record over ACP, but its summary is a message of its own (another messageId): the answer is the one after it', () => {
    const [turn] = live('opencode', '1.18.33/live/compaction.jsonl');
    expect(ofType(turn!, 'message').map((event) => event.text)).toEqual(['Summary: the context was filled by shell calls.', 'Done after compaction.']);
    expect(ofType(turn!, 'compaction')).toEqual([]);
  });
});
