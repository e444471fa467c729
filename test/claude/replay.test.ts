// Replays the recorded stdout of the real claude binary (fixtures/claude/<version>/, made by
// `npm run record -- claude`) through the translator and checks what a user would see.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeAdapter } from '../../src/adapters/claude/index.js';
import { createClaudeTranslator } from '../../src/adapters/claude/translate.js';
import type { TranslatedEvent } from '../../src/events.js';
import type { ResolvedOpts } from '../../src/options.js';
import { describeCompatReplay } from '../support/compat-replay.js';

const root = join(import.meta.dirname, '..', '..', 'fixtures', 'claude');
// Versions with a full `npm run record` set (the others hold only the sweep's compat/ recordings).
const versions = readdirSync(root).filter((name) => /^\d+\.\d+\.\d+$/.test(name) && existsSync(join(root, name, 'text.jsonl')));

/**
 * What each recorded version really prints where versions differ. Every recorded version needs an
 * entry, so a newly recorded one is checked against its own output, not against another's.
 */
interface VersionTruth {
  /** `system/*` records --bare prints besides init. */
  bareProgress: string[];
  /** Whether a tool refused in plan mode also gets a `system/permission_denied` record. */
  permissionDeniedRecord: boolean;
  /** `result.terminal_reason` per scenario (undefined: the field is absent). */
  terminalReason: Record<string, string | undefined>;
  /** `system/api_retry` records before the retried stream in partial_cut_retry. */
  cutRetryRecords: number;
}

const apiErrorTerminal = (reason: string) =>
  Object.fromEntries(['error_401', 'error_429', 'error_500', 'hang_before_headers'].map((scenario) => [scenario, reason]));

const truths: Record<string, VersionTruth> = {
  '2.1.197': {
    bareProgress: [],
    permissionDeniedRecord: false,
    // API errors still say `completed`; budget and structured-output failures carry no terminal_reason.
    terminalReason: {
      ...apiErrorTerminal('completed'),
      error_context_too_large: 'prompt_too_long',
      max_turns: 'max_turns',
      max_budget: undefined,
      json_schema_invalid: undefined,
      resume_unknown: undefined,
      text: 'completed',
    },
    // 2.1.197 retries a connection cut before any event was handled without saying so (most runs;
    // some print one api_retry). The recording is of the silent kind.
    cutRetryRecords: 0,
  },
  '2.1.332': {
    bareProgress: ['system/ui_invalidate'],
    permissionDeniedRecord: true,
    terminalReason: {
      ...apiErrorTerminal('api_error'),
      error_context_too_large: 'prompt_too_long',
      max_turns: 'max_turns',
      max_budget: 'budget_exhausted',
      json_schema_invalid: 'structured_output_retry_exhausted',
      resume_unknown: undefined,
      text: 'completed',
    },
    cutRetryRecords: 1,
  },
};

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

const scenariosOf = (version: string) =>
  readdirSync(join(root, version))
    .filter((name) => name.endsWith('.jsonl'))
    .map((name) => name.replace(/\.jsonl$/, ''))
    .sort();

it('has fixtures from the oldest supported and the newest tested claude, each with the same scenarios', () => {
  expect(versions).toEqual(expect.arrayContaining([claudeAdapter.versions.min, claudeAdapter.versions.testedMax]));
  for (const version of versions) expect(scenariosOf(version), version).toEqual(scenariosOf(claudeAdapter.versions.testedMax));
});

describe.each(versions)('claude %s fixtures', (version) => {
  const has = (scenario: string) => existsSync(join(root, version, `${scenario}.jsonl`));
  const scenarios = scenariosOf(version);
  const truth = truths[version]!;

  it('knows what this version prints where versions differ', () => {
    expect(truths[version]).toBeDefined();
  });

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
    const denied = plan.of('progress').filter((p) => p.subtype === 'system/permission_denied');
    expect(denied.map((p) => p.kind)).toEqual(truth.permissionDeniedRecord ? ['warning'] : []);
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
    expect(of('progress').filter((p) => p.kind === 'retry')).toHaveLength(truth.cutRetryRecords);
    expect(of('error').filter((e) => !e.fatal)).toHaveLength(truth.cutRetryRecords);
    // The streamed text is the second request's reply, with or without a retry record before it.
    expect(new Set(of('message').map((m) => m.id))).toEqual(new Set(['msg_fake_2']));
    expect(of('message').filter((m) => m.delta).map((m) => m.text).join('')).toBe('Second attempt.');
    expect(of('message').some((m) => m.reset)).toBe(false);
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
    ['resume_unknown', 'session_not_found'],
  ])('%s → one fatal %s error and done status error', (scenario, code) => {
    expect(has(scenario)).toBe(true);
    const { fatal, done } = replay(version, scenario);
    expect(fatal.map((e) => e.code)).toEqual([code]);
    expect(done?.status).toBe('error');
    expect(done?.text).toBeUndefined();
    // The code comes from the record, not from terminal_reason, which differs between versions.
    expect(scenario in truth.terminalReason).toBe(true);
    expect(done?.extra?.terminalReason).toBe(truth.terminalReason[scenario]);
  });

  it('text: terminal_reason is completed', () => {
    expect(replay(version, 'text').done?.extra?.terminalReason).toBe(truth.terminalReason.text);
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
    const { of, done } = replay(version, 'bare');
    expect(of('progress').map((p) => p.subtype)).toEqual(truth.bareProgress);
    expect(of('progress').filter((p) => p.kind === 'unknown')).toEqual([]);
    expect(done).toMatchObject({ status: 'success', text: 'Bare hello.' });
  });
});

describeCompatReplay('claude');
