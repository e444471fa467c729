// Replays the recorded stdout of the real claude binary (fixtures/claude/<version>/, made by
// `npm run record -- claude`) through the translator and checks what a user would see.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createClaudeTranslator } from '../../src/adapters/claude/translate.js';
import type { TranslatedEvent } from '../../src/events.js';
import type { ResolvedOpts } from '../../src/options.js';

const root = join(import.meta.dirname, '..', '..', 'fixtures', 'claude');
const versions = readdirSync(root).filter((name) => /^\d+\.\d+\.\d+$/.test(name));

interface Meta {
  opts: ResolvedOpts;
  exitCode: number;
}

function replay(version: string, scenario: string) {
  const dir = join(root, version);
  const meta = JSON.parse(readFileSync(join(dir, `${scenario}.meta.json`), 'utf8')) as Meta;
  const records = readFileSync(join(dir, `${scenario}.jsonl`), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as unknown);
  const translator = createClaudeTranslator({ opts: meta.opts });
  const perRecord = records.map((record) => translator.translate(record));
  const events = perRecord.flat();
  const of = <T extends TranslatedEvent['type']>(type: T) => events.filter((e): e is Extract<TranslatedEvent, { type: T }> => e.type === type);
  const done = of('done').at(-1);
  const fatal = of('error').filter((e) => e.fatal);
  return { meta, records, perRecord, events, of, done, fatal };
}

it('has fixtures recorded from at least one claude version', () => {
  expect(versions.length).toBeGreaterThan(0);
});

describe.each(versions)('claude %s fixtures', (version) => {
  const has = (scenario: string) => existsSync(join(root, version, `${scenario}.jsonl`));
  const scenarios = readdirSync(join(root, version))
    .filter((name) => name.endsWith('.jsonl'))
    .map((name) => name.replace(/\.jsonl$/, ''));

  it.each(scenarios)('%s: every record yields events that carry it, and one final done', (scenario) => {
    const { records, perRecord, of, meta, done } = replay(version, scenario);
    perRecord.forEach((events, index) => {
      expect(events.length).toBeGreaterThan(0);
      for (const event of events) expect(event.raw).toBe(records[index]);
    });
    expect(of('done')).toHaveLength(1);
    // The exit code and the terminal record agree.
    expect(done?.status).toBe(meta.exitCode === 0 ? (scenario === 'json_schema_text_only' ? 'error' : 'success') : 'error');
  });

  it('translates the same records to the same events twice (pure)', () => {
    expect(replay(version, 'partial_tool').events).toEqual(replay(version, 'partial_tool').events);
  });

  it('text: init with session, model and tools; the answer as a full message and as done.text', () => {
    const { of, done } = replay(version, 'text');
    const [init] = of('init');
    expect(init?.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(init?.model).toBe('claude-sonnet-4-5');
    expect(init?.tools).toContain('Bash');
    expect(of('message').map((m) => [m.text, m.delta])).toEqual([['Hello from the fake model.', false]]);
    expect(done).toMatchObject({ status: 'success', text: 'Hello from the fake model.', sessionId: init?.sessionId });
    expect(of('usage')[0]?.usage).toMatchObject({ inputTokens: 10, outputTokens: 5, cachedInputTokens: 0 });
    expect(of('usage')[0]?.usage.costUsd).toBeGreaterThan(0);
  });

  it('thinking: a reasoning event before the answer', () => {
    const { events } = replay(version, 'thinking');
    const kinds = events.filter((e) => e.type === 'reasoning' || e.type === 'message').map((e) => [e.type, 'text' in e ? e.text : '']);
    expect(kinds).toEqual([['reasoning', 'The user wants a greeting.'], ['message', 'Hi there!']]);
  });

  it('tool_bash: tool_use then its tool_result (joined by id, with the tool name), text is the final answer only', () => {
    const { of, done } = replay(version, 'tool_bash');
    const [use] = of('tool_use');
    expect(use).toMatchObject({ name: 'Bash', input: { command: 'echo coderline-tool-ran' } });
    expect(of('tool_result')).toEqual([expect.objectContaining({ id: use?.id, name: 'Bash', output: 'coderline-tool-ran', isError: false })]);
    expect(done?.text).toBe('The command printed coderline-tool-ran.');
  });

  it('tool_denied and plan_mode: the refused tool comes back as an error result; the run still succeeds', () => {
    for (const scenario of ['tool_denied', 'plan_mode']) {
      const { of, done, fatal } = replay(version, scenario);
      expect(of('tool_result')[0]?.isError).toBe(true);
      expect(fatal).toEqual([]);
      expect(done?.status).toBe('success');
    }
    const plan = replay(version, 'plan_mode');
    expect(plan.of('init')[0]?.extra?.permissionMode).toBe('plan');
  });

  it('partial: deltas arrive before the full blocks and add up to them', () => {
    const { of } = replay(version, 'partial');
    const deltas = of('message').filter((m) => m.delta);
    const full = of('message').filter((m) => !m.delta);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.map((d) => d.text).join('')).toBe(full[0]?.text);
    expect(deltas[0]?.id).toBe(full[0]?.id);
    expect(of('reasoning').filter((r) => r.delta).map((r) => r.text).join('')).toBe('Short thought.');
  });

  it('partial_cut_retry: a stream broken off is retried; only the retried text is streamed', () => {
    const { of, done } = replay(version, 'partial_cut_retry');
    expect(of('progress').filter((p) => p.kind === 'retry')).toHaveLength(1);
    expect(of('message').filter((m) => m.delta).map((m) => m.text).join('')).toBe('Second attempt.');
    expect(done).toMatchObject({ status: 'success', text: 'Second attempt.' });
  });

  it('json_schema: done.output is the structured output', () => {
    const { done, fatal } = replay(version, 'json_schema');
    expect(fatal).toEqual([]);
    expect(done).toMatchObject({ status: 'success', output: { answer: 'forty-two', confidence: 0.9 } });
  });

  it('json_schema_text_only: a prose answer to a schema is invalid_output', () => {
    const { done, fatal, of } = replay(version, 'json_schema_text_only');
    expect(fatal.map((e) => e.code)).toEqual(['invalid_output']);
    expect(done?.status).toBe('error');
    expect(of('progress').some((p) => p.subtype === 'user/synthetic' || p.subtype === 'user')).toBe(true);
  });

  it.each([
    ['json_schema_invalid', 'invalid_output'],
    ['max_turns', 'max_turns'],
    ['max_budget', 'budget'],
    ['error_401', 'auth'],
    ['error_429', 'rate_limit'],
    ['error_500', 'server'],
    ['error_context_too_large', 'context_too_large'],
    ['hang_before_headers', 'server'],
    ['resume_unknown', 'invalid_options'],
  ])('%s → one fatal %s error and done status error', (scenario, code) => {
    if (!has(scenario)) return;
    const { fatal, done } = replay(version, scenario);
    expect(fatal.map((e) => e.code)).toEqual([code]);
    expect(done?.status).toBe('error');
    expect(done?.text).toBeUndefined();
  });

  it('API errors carry the HTTP status; retries are non-fatal with a retry progress event', () => {
    const { fatal, of } = replay(version, 'error_500');
    expect(fatal[0]?.httpStatus).toBe(500);
    expect(of('progress').filter((p) => p.kind === 'retry')).toHaveLength(1);
    expect(of('error').filter((e) => !e.fatal).map((e) => [e.code, e.httpStatus])).toEqual([['server', 500]]);
    const recovered = replay(version, 'retry_then_ok');
    expect(recovered.fatal).toEqual([]);
    expect(recovered.done?.text).toBe('Recovered.');
  });

  it('max_budget: usage comes from modelUsage when result.usage is all zero', () => {
    const { of } = replay(version, 'max_budget');
    expect(of('usage')[0]?.usage).toMatchObject({ inputTokens: 100, outputTokens: 20 });
  });

  it('sessions: resume keeps the id, fork gets a new one; usage and cost are per run', () => {
    const first = replay(version, 'session_first');
    const resumed = replay(version, 'session_resume');
    const forked = replay(version, 'session_fork');
    expect(resumed.done?.sessionId).toBe(first.done?.sessionId);
    expect(forked.done?.sessionId).not.toBe(first.done?.sessionId);
    const cost = (r: typeof first) => r.of('usage')[0]?.usage.costUsd ?? 0;
    // The CLI reports the session's cost after a resume; the run's share is the same as the first run's.
    expect(cost(resumed)).toBeCloseTo(cost(first), 9);
    expect(cost(forked)).toBeCloseTo(cost(first), 9);
    expect(resumed.of('usage')[0]?.usage.inputTokens).toBe(10);
  });

  it('bare: unknown-to-us system records become progress, not crashes', () => {
    const { of } = replay(version, 'bare');
    expect(of('progress').map((p) => p.subtype)).toContain('system/ui_invalidate');
  });
});
