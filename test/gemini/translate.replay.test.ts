// Recorded gemini runs (fixtures/gemini/<version>/, `npm run record -- gemini`), replayed through the
// translator one parsed line at a time: what a user of run() / onEvent sees for each scenario.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createGeminiTranslator } from '../../src/adapters/gemini/translate.js';
import type { TranslatedEvent } from '../../src/events.js';
import type { ResolvedOpts } from '../../src/options.js';
import { ofType } from '../support/events.js';
import { describeCompatReplay } from '../support/compat-replay.js';

const root = join(import.meta.dirname, '..', '..', 'fixtures', 'gemini');
const versions = readdirSync(root).filter((version) => existsSync(join(root, version, 'text.jsonl'))).sort();
const lines = (version: string, name: string) =>
  readFileSync(join(root, version, `${name}.jsonl`), 'utf8').split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as unknown);
const meta = (version: string, name: string) => JSON.parse(readFileSync(join(root, version, `${name}.meta.json`), 'utf8')) as { status: string; error: { code: string } | null };
const replay = (records: unknown[], opts: ResolvedOpts = {}): TranslatedEvent[] => {
  const translator = createGeminiTranslator({ opts });
  return records.flatMap((record) => translator.translate(record));
};

describe.each(versions)('gemini %s recordings', (version) => {
  const scenarios = readdirSync(join(root, version)).filter((file) => file.endsWith('.jsonl')).map((file) => file.replace(/\.jsonl$/, ''));

  it('every scenario: each event carries a recorded record, one done whose status (and error code) the run had, nothing unknown', () => {
    expect(scenarios.length).toBeGreaterThan(10);
    for (const name of scenarios) {
      const records = lines(version, name);
      const events = replay(records, { streamPartialMessages: true });
      for (const event of events) expect(records).toContain(event.raw);
      const recorded = meta(version, name);
      expect(ofType(events, 'done').map((event) => event.status), name).toEqual([recorded.status === 'success' ? 'success' : 'error']);
      if (recorded.error) expect(ofType(events, 'error').filter((event) => event.fatal).map((event) => event.code), name).toEqual([recorded.error.code]);
      expect(ofType(events, 'progress').filter((event) => event.kind === 'unknown'), name).toEqual([]);
    }
  });

  it('text: init, deltas only when asked, one whole message, usage and the answer', () => {
    const events = replay(lines(version, 'text'), { streamPartialMessages: true });
    expect(events[0]).toMatchObject({ type: 'init', model: 'gemini-2.5-flash', sessionId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(ofType(events, 'message').filter((event) => event.delta).map((event) => event.text).join('')).toBe('Hello from the fake model.');
    expect(ofType(replay(lines(version, 'text')), 'message').map((event) => event.delta)).toEqual([false]);
    expect(ofType(events, 'usage')[0]?.usage).toEqual({ inputTokens: 100, cachedInputTokens: 0, outputTokens: 10, reasoningTokens: 0 });
    expect(ofType(events, 'done')[0]).toMatchObject({ status: 'success', text: 'Hello from the fake model.' });
  });

  it('shell-tool: the lead-in is a message of its own, the answer is what follows the tool result, with tool facts on both', () => {
    const events = replay(lines(version, 'shell-tool'));
    expect(ofType(events, 'message').map((event) => event.text)).toEqual(['I will run it.', 'The command printed hi.']);
    expect(ofType(events, 'tool_use')[0]).toMatchObject({ name: 'run_shell_command', tool: { kind: 'shell', command: 'echo hi' } });
    expect(ofType(events, 'tool_result')[0]).toMatchObject({ name: 'run_shell_command', output: 'hi', isError: false, tool: { kind: 'shell' } });
    expect(ofType(events, 'done')[0]?.text).toBe('The command printed hi.');
  });

  it('refusals: a tool not offered and a rule violation are errors marked refused; parallel calls pair by id', () => {
    expect(ofType(replay(lines(version, 'tool-not-offered')), 'tool_result')[0]).toMatchObject({ isError: true, extra: { errorType: 'tool_not_registered', refused: true } });
    const allowed = ofType(replay(lines(version, 'allowed-rule')), 'tool_result');
    expect(allowed.map((event) => event.isError)).toEqual([false, true]);
    expect(allowed[1]).toMatchObject({ extra: { errorType: 'policy_violation', refused: true } });
    const parallel = replay(lines(version, 'parallel-tools'));
    const uses = ofType(parallel, 'tool_use');
    expect(ofType(parallel, 'tool_result').map((event) => event.name)).toEqual(uses.map((event) => event.name));
  });

  it('errors: the HTTP status from [API Error: …], the turn limit as max_turns', () => {
    expect(ofType(replay(lines(version, 'auth-401')), 'error')[0]).toMatchObject({ code: 'auth', httpStatus: 401, message: 'API key not valid. Please pass a valid API key.', fatal: true });
    // An exhausted 429 carries no JSON body in 0.61.0: the text says quota.
    expect(ofType(replay(lines(version, 'rate-limit-429')), 'error')[0]).toMatchObject({ code: 'rate_limit', message: expect.stringContaining('quota') });
    expect(ofType(replay(lines(version, 'max-turns')), 'error')[0]).toMatchObject({ code: 'max_turns' });
  });

  it('todos: write_todos is a plan tool', () => {
    expect(ofType(replay(lines(version, 'todos')), 'tool_use')[0]).toMatchObject({ name: 'write_todos', tool: { kind: 'plan' } });
  });
});

describe('gemini translator on hand-made malformed input (not recordings)', () => {
  it('any shape gives events, never a throw; unknown records are progress', () => {
    const hostile: unknown[] = [null, 42, 'text', [], {}, { type: 7 }, { type: 'tool_result' }, { type: 'message', role: 'assistant', delta: true, content: { no: 1 } }, { type: 'result', status: 'error', error: { message: '[API Error: {not json}]' } }, { type: 'result', status: 'error' }, { type: 'brand_new' }];
    const events = replay(hostile);
    expect(events.length).toBeGreaterThanOrEqual(hostile.length - 1);
    expect(ofType(events, 'progress').filter((event) => event.kind === 'unknown').length).toBeGreaterThanOrEqual(5);
    expect(ofType(events, 'error').map((event) => event.code)).toEqual(['server', 'server']);
  });
});

// The sweep's recordings of every swept version (fixtures/gemini/<version>/compat/), judged again.
describeCompatReplay('gemini');
