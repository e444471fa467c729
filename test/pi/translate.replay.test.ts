// Recorded pi runs, replayed: what a user of run() / onEvent sees for each scenario.
import { describe, expect, it } from 'vitest';
import { fixtureLines, fixtureVersions, replay } from './fixtures.js';
import { ofType } from '../support/events.js';
import { describeCompatReplay } from '../support/compat-replay.js';

const versions = fixtureVersions();

describe.each(versions)('pi %s recordings', (version) => {
  const load = (name: string) => fixtureLines(version, name);

  it('every recorded line yields events with the record as raw, and exactly one done', () => {
    for (const name of ['text', 'thinking', 'tool-bash', 'tool-bash-failing', 'tool-parallel', 'error-401', 'error-500-persistent', 'retry-then-success', 'resume', 'fork']) {
      const records = load(name);
      const events = replay(records, { streamPartialMessages: true });
      for (const event of events) expect(records).toContain(event.raw);
      expect(ofType(events, 'done'), name).toHaveLength(1);
      expect(ofType(events, 'progress').filter((event) => event.kind === 'unknown'), name).toEqual([]);
    }
  });

  it('text: init with the session id, deltas when asked, the full answer, usage and done', () => {
    const records = load('text');
    const header = records[0] as { id: string; cwd: string };
    const events = replay(records, { streamPartialMessages: true });
    expect(events[0]).toMatchObject({ type: 'init', sessionId: header.id, cwd: header.cwd });
    const deltas = ofType(events, 'message').filter((event) => event.delta);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((event) => event.text).join('')).toBe('Hello from the fake model.');
    expect(ofType(events, 'message').filter((event) => !event.delta).map((event) => event.text)).toEqual(['Hello from the fake model.']);
    expect(ofType(events, 'usage')).toEqual([expect.objectContaining({ usage: { inputTokens: 10, cachedInputTokens: 0, outputTokens: 5, reasoningTokens: 0 } })]);
    expect(ofType(events, 'done')).toEqual([expect.objectContaining({ status: 'success', text: 'Hello from the fake model.', sessionId: header.id })]);
    expect(ofType(events, 'error')).toEqual([]);
  });

  it('without streamPartialMessages, no deltas', () => {
    const events = replay(load('text'));
    expect(ofType(events, 'message').map((event) => event.delta)).toEqual([false]);
  });

  it('the user prompt and the system prompt are never assistant text', () => {
    const events = replay(load('thinking'), { streamPartialMessages: true });
    const texts = ofType(events, 'message').map((event) => event.text).join('|');
    expect(texts).not.toContain('Think, then answer.');
    expect(texts).not.toContain('coding assistant');
  });

  it('thinking: reasoning deltas and the full reasoning, apart from the answer', () => {
    const events = replay(load('thinking'), { streamPartialMessages: true });
    const reasoning = ofType(events, 'reasoning');
    expect(reasoning.filter((event) => event.delta).map((event) => event.text).join('')).toBe('Let me think about it.');
    expect(reasoning.filter((event) => !event.delta).map((event) => event.text)).toEqual(['Let me think about it.']);
    expect(ofType(events, 'done')[0]).toMatchObject({ status: 'success', text: 'The answer is 42.' });
    // pi reports reasoning tokens since 1.x; 0.73 leaves them out.
    const reasoningTokens = version.startsWith('0.') ? 0 : 5;
    expect(ofType(events, 'usage')[0]!.usage).toEqual({ inputTokens: 30, cachedInputTokens: 0, outputTokens: 12, reasoningTokens });
  });

  it('bash tool: tool_use, live output as progress, tool_result joined by id', () => {
    const events = replay(load('tool-bash'));
    const [use] = ofType(events, 'tool_use');
    expect(use).toMatchObject({ name: 'bash', input: { command: 'echo hello-from-bash' } });
    expect(ofType(events, 'tool_result')).toEqual([
      expect.objectContaining({ id: use!.id, name: 'bash', isError: false, output: 'hello-from-bash\n' }),
    ]);
    expect(ofType(events, 'progress').some((event) => event.kind === 'tool_output' && event.message === 'hello-from-bash\n')).toBe(true);
    expect(ofType(events, 'done')[0]).toMatchObject({ status: 'success', text: 'The command printed hello-from-bash.' });
    // Two model calls, two usage events.
    expect(ofType(events, 'usage')).toHaveLength(2);
  });

  it('failing command: tool_result isError, the run still succeeds', () => {
    const events = replay(load('tool-bash-failing'));
    const [result] = ofType(events, 'tool_result');
    expect(result).toMatchObject({ isError: true, name: 'bash' });
    expect(result!.output).toContain('Command exited with code 3');
    expect(ofType(events, 'done')[0]).toMatchObject({ status: 'success' });
  });

  it('parallel tools: each result pairs with its call, an unknown tool is an error result', () => {
    const events = replay(load('tool-parallel'));
    const uses = ofType(events, 'tool_use');
    const results = ofType(events, 'tool_result');
    expect(uses.map((event) => event.name).sort()).toEqual(['bash', 'no_such_tool']);
    expect(results.map((event) => event.id).sort()).toEqual(uses.map((event) => event.id).sort());
    expect(results.find((event) => event.name === 'no_such_tool')).toMatchObject({ isError: true, output: 'Tool no_such_tool not found' });
  });

  it('401: a fatal auth error and a failed done although pi exits 0', () => {
    const events = replay(load('error-401'));
    const fatal = ofType(events, 'error').filter((event) => event.fatal);
    expect(fatal).toEqual([expect.objectContaining({ code: 'auth', httpStatus: 401 })]);
    expect(fatal[0]!.message).toContain('Invalid API key');
    expect(ofType(events, 'done')).toEqual([expect.objectContaining({ status: 'error' })]);
    expect(ofType(events, 'done')[0]!.text).toBeUndefined();
  });

  it('500 forever: attempts are warnings, retries are progress, the end is one fatal server error', () => {
    const events = replay(load('error-500-persistent'));
    const errors = ofType(events, 'error');
    expect(errors.filter((event) => !event.fatal).length).toBeGreaterThanOrEqual(2);
    expect(errors.filter((event) => event.fatal)).toEqual([expect.objectContaining({ code: 'server', httpStatus: 500 })]);
    expect(ofType(events, 'progress').filter((event) => event.kind === 'retry').map((event) => event.subtype)).toContain('auto_retry_start');
    // done comes after the last attempt, not at the first agent_end.
    const doneIndex = events.findIndex((event) => event.type === 'done');
    const lastAttempt = events.map((event) => event.type === 'error' && !event.fatal).lastIndexOf(true);
    expect(doneIndex).toBeGreaterThan(lastAttempt);
  });

  it('429 forever: rate_limit', () => {
    const events = replay(load('error-429-persistent'));
    expect(ofType(events, 'error').filter((event) => event.fatal)).toEqual([expect.objectContaining({ code: 'rate_limit', httpStatus: 429 })]);
  });

  it('a retry that succeeds: success, the streamed text restarts with reset', () => {
    const events = replay(load('retry-then-success'), { streamPartialMessages: true });
    expect(ofType(events, 'done')).toEqual([expect.objectContaining({ status: 'success', text: 'Recovered answer.' })]);
    expect(ofType(events, 'error').filter((event) => event.fatal)).toEqual([]);
    expect(ofType(events, 'message')[0]).toMatchObject({ delta: true, reset: true });
  });

  it('a stream cut mid-answer is retried and succeeds', () => {
    const events = replay(load('stream-cut'));
    expect(ofType(events, 'done')).toEqual([expect.objectContaining({ status: 'success', text: 'Second try.' })]);
  });

  it('fork: a new session id and the parent session file', () => {
    const records = load('fork');
    const events = replay(records);
    const init = ofType(events, 'init')[0]!;
    expect(init.extra?.parentSession).toEqual(expect.stringContaining('.jsonl'));
    expect(ofType(events, 'done')[0]).toMatchObject({ sessionId: init.sessionId, text: 'Forked answer.' });
  });

  it('is deterministic: the same lines give the same events', () => {
    const records = load('tool-parallel');
    expect(replay(records, { streamPartialMessages: true })).toEqual(replay(records, { streamPartialMessages: true }));
  });
});

describe('pi 1.6.0 auto-compaction (usage 120 000 of a 128 000 window, reserveTokens 16 384, keepRecentTokens 1)', () => {
  it('between the tool call and the answer: started and completed with the tokens before and after; the summary call counts in the usage; the answer is the one after it', () => {
    const records = fixtureLines('1.6.0', 'compaction');
    const events = replay(records);
    expect(ofType(events, 'compaction').map(({ phase, trigger, tokensBefore, tokensAfter }) => ({ phase, trigger, tokensBefore, tokensAfter }))).toEqual([
      { phase: 'started', trigger: 'auto', tokensBefore: undefined, tokensAfter: undefined },
      { phase: 'completed', trigger: 'auto', tokensBefore: 120_012, tokensAfter: 1342 },
    ]);
    const types = events.map((event) => event.type).filter((type) => type !== 'progress');
    expect(types.indexOf('compaction')).toBeGreaterThan(types.indexOf('tool_result'));
    // The tool call, the summary call, the answer.
    expect(ofType(events, 'usage').map((event) => event.usage.inputTokens)).toEqual([120_000, 10, 10]);
    // The summary is not an answer.
    expect(ofType(events, 'message').map((event) => event.text)).toEqual(['Done after compaction.']);
    expect(ofType(events, 'done')).toEqual([expect.objectContaining({ status: 'success', text: 'Done after compaction.' })]);
  });

  it('after the answer (its usage passed the threshold): the compaction follows agent_end, and the same done comes again after it (the core lets a compaction reopen a done)', () => {
    const events = replay(fixtureLines('1.6.0', 'compaction-after-answer'));
    const types = events.map((event) => event.type).filter((type) => type !== 'progress' && type !== 'usage');
    expect(types.slice(-4)).toEqual(['done', 'compaction', 'compaction', 'done']);
    expect(ofType(events, 'done').map(({ status, text }) => ({ status, text }))).toEqual([
      { status: 'success', text: 'A long answer.' },
      { status: 'success', text: 'A long answer.' },
    ]);
  });
});

describeCompatReplay('pi');
