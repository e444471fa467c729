// Replays fixtures recorded from the real copilot 1.0.102 (npm run record -- copilot) through the translator.
import { describe, expect, it } from 'vitest';
import { assembledDeltas, fixtureMeta, fixtureNames, fixtureRecords, replay, replayRecords } from './replay.js';
import { ofType } from '../support/events.js';
import { describeCompatReplay } from '../support/compat-replay.js';

const partial = { streamPartialMessages: true };

describe('copilot translator on recorded fixtures', () => {
  it('keeps every record: each event carries its parsed line, no record type is dropped unless it is a delta', () => {
    for (const name of fixtureNames()) {
      const records = fixtureRecords(name);
      const events = replayRecords(records, partial);
      const raws = new Set(events.map((event) => event.raw));
      const lost = records.filter((record) => !raws.has(record));
      expect(lost, name).toEqual([]);
      expect(events.every((event) => event.raw !== undefined)).toBe(true);
    }
  });

  it('is deterministic', () => {
    for (const name of fixtureNames()) expect(replay(name, partial)).toEqual(replay(name, partial));
  });

  it('text: init with the model, deltas that add up to the final message, usage and done with the session id', () => {
    const events = replay('text', partial);
    expect(ofType(events, 'init')).toEqual([expect.objectContaining({ model: 'fake-model' })]);
    expect(assembledDeltas(events)).toBe('Hello from the fake model.');
    const full = ofType(events, 'message').filter((event) => !event.delta);
    expect(full.map((event) => event.text)).toEqual(['Hello from the fake model.']);
    const done = ofType(events, 'done');
    expect(done).toHaveLength(1);
    expect(done[0]).toMatchObject({ status: 'success', text: 'Hello from the fake model.', sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(events.at(-1)?.type).toBe('done');
    const usage = ofType(events, 'usage');
    expect(usage).toHaveLength(1);
    expect(usage[0]!.usage).toEqual({ inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 });
    expect(usage[0]!.extra).toMatchObject({ premiumRequests: 0 });
  });

  it('drops deltas unless streamPartialMessages is set, keeping the full message', () => {
    const events = replay('text');
    expect(ofType(events, 'message').map((event) => [event.text, event.delta])).toEqual([['Hello from the fake model.', false]]);
    expect(ofType(replay('reasoning'), 'reasoning').map((event) => event.delta)).toEqual([false]);
  });

  it('bash tool: tool_use then tool_result joined by id with the name, output and no error', () => {
    const events = replay('bash-tool');
    const [use] = ofType(events, 'tool_use');
    const [result] = ofType(events, 'tool_result');
    expect(use).toMatchObject({ id: 'call_1', name: 'bash', input: { command: 'echo hi', description: 'print hi' } });
    expect(result).toMatchObject({ id: 'call_1', name: 'bash', isError: false, extra: { exitCode: 0 } });
    expect(String(result!.output)).toContain('hi');
    expect(events.indexOf(use!)).toBeLessThan(events.indexOf(result!));
    expect(ofType(events, 'progress').some((event) => event.kind === 'tool_output' && event.message === 'hi\n')).toBe(true);
    expect(ofType(events, 'done')[0]).toMatchObject({ status: 'success', text: 'The command printed hi.' });
  });

  it('a command exiting 3 is an error result although copilot says success:true', () => {
    const [result] = ofType(replay('failing-command'), 'tool_result');
    expect((result!.raw as { data: { success: boolean } }).data.success).toBe(true);
    expect(result).toMatchObject({ name: 'bash', isError: true, extra: { exitCode: 3 } });
  });

  it('a tool denied by --deny-tool is an error result marked refused', () => {
    expect(fixtureMeta('denied-tool').args).toContain('--deny-tool=shell(echo)');
    const [result] = ofType(replay('denied-tool'), 'tool_result');
    expect(result).toMatchObject({ name: 'bash', isError: true, extra: { errorCode: 'denied', refused: true } });
    expect(String(result!.output)).toMatch(/denied/);
  });

  it('an unknown tool is an error result, not refused', () => {
    const [result] = ofType(replay('unknown-tool'), 'tool_result');
    expect(result).toMatchObject({ name: 'no_such_tool', isError: true, output: "Tool 'no_such_tool' does not exist." });
    expect(result!.extra).not.toHaveProperty('refused');
  });

  it('parallel tool calls: two uses, two results, each joined to its own name', () => {
    const events = replay('parallel-tools');
    const uses = ofType(events, 'tool_use');
    const results = ofType(events, 'tool_result');
    expect(uses).toHaveLength(2);
    expect(new Set(results.map((result) => result.id))).toEqual(new Set(uses.map((use) => use.id)));
    expect(results.every((result) => result.name === 'bash' && !result.isError)).toBe(true);
  });

  it('reasoning: deltas and the whole reasoning text', () => {
    const reasoning = ofType(replay('reasoning', partial), 'reasoning');
    expect(reasoning.filter((event) => event.delta).map((event) => event.text).join('')).toBe('The user wants a short answer.');
    expect(reasoning.filter((event) => !event.delta).map((event) => event.text)).toEqual(['The user wants a short answer.']);
  });

  it('500 twice then success: retry progress, no error, the text once', () => {
    const events = replay('retry-500-then-ok', partial);
    expect(ofType(events, 'progress').filter((event) => event.subtype === 'assistant.turn_retry')).toHaveLength(2);
    expect(ofType(events, 'error')).toEqual([]);
    expect(assembledDeltas(events)).toBe('Hello after two failures.');
    expect(ofType(events, 'done')[0]).toMatchObject({ status: 'success', text: 'Hello after two failures.' });
  });

  it('a stream cut by an error after some text: the partial text is reset before the retry streams again', () => {
    const events = replay('midstream-error-then-ok', partial);
    const resets = ofType(events, 'message').filter((event) => event.reset);
    expect(resets).toHaveLength(1);
    expect(assembledDeltas(events)).toBe('The complete answer.');
    expect(ofType(events, 'done')[0]).toMatchObject({ status: 'success', text: 'The complete answer.' });
  });

  it.each([
    ['auth-401', 'auth', 401],
    ['rate-limit-429', 'rate_limit', 429],
    ['bad-request-400', 'server', 400],
  ] as const)('%s: one fatal error with code %s, done with status error', (name, code, status) => {
    const events = replay(name);
    const errors = ofType(events, 'error');
    expect(errors).toEqual([expect.objectContaining({ code, fatal: true, httpStatus: status })]);
    expect(ofType(events, 'done')[0]).toMatchObject({ status: 'error' });
    expect(fixtureMeta(name).exitCode).toBe(1);
  });

  it('SIGINT: the result record claims exit 0, but done says error (aborted)', () => {
    const events = replay('hang-sigint');
    const done = ofType(events, 'done')[0]!;
    expect((done.raw as { exitCode: number }).exitCode).toBe(0);
    expect(done).toMatchObject({ status: 'error', extra: { aborted: true } });
    expect(fixtureMeta('hang-sigint').signal).toBe('SIGINT');
  });

  it('SIGTERM: abort records; a result record (printed or not, it varies) never makes the run a success', () => {
    const events = replay('hang-sigterm');
    expect(ofType(events, 'progress').some((event) => event.subtype === 'abort')).toBe(true);
    for (const done of ofType(events, 'done')) {
      expect((done.raw as { exitCode: number }).exitCode).toBe(0);
      expect(done).toMatchObject({ status: 'error', extra: { aborted: true } });
    }
    expect(fixtureMeta('hang-sigterm').signal).toBe('SIGTERM');
  });

  it('a resumed session reports the same session id', () => {
    const first = ofType(replay('session'), 'done')[0]!;
    const second = ofType(replay('session-resume'), 'done')[0]!;
    expect(fixtureMeta('session-resume').args).toContain(`--resume=${first.sessionId}`);
    expect(second.sessionId).toBe(first.sessionId);
    expect(second.text).toBe('The word was banana.');
  });

  it('a JSON answer is the done text, for the core to validate', () => {
    expect(JSON.parse(ofType(replay('json-answer'), 'done')[0]!.text!)).toEqual({ answer: 42, unit: 'none' });
  });

  it('fixture records are replayed in one translator per run: state does not leak between translators', () => {
    const records = fixtureRecords('bash-tool');
    expect(replayRecords(records)).toEqual(replayRecords(records));
  });
});

describeCompatReplay('copilot');
