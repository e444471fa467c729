// Recorded `codex exec --json` output (fixtures/codex/<version>, from `npm run record -- codex`)
// through the translator: what a user of the event stream sees for each scenario.
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexAdapter } from '../../src/adapters/codex/index.js';
import { CODEX_VERSION, fixtureLines, fixtureMeta, replay, types } from './fixtures.js';
import { ofType } from '../support/events.js';
import { describeCompatReplay } from '../support/compat-replay.js';

describe(`codex ${CODEX_VERSION} replay`, () => {
  it('plain text: init with the thread id, one message, usage, done with the answer', () => {
    const events = replay('text');
    expect(types(events)).toEqual(['init', 'progress', 'message', 'usage', 'done']);
    const [init] = ofType(events, 'init');
    const [done] = ofType(events, 'done');
    expect(init?.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(done).toMatchObject({ status: 'success', text: 'Hello from the fake model.', sessionId: init?.sessionId });
    expect(ofType(events, 'usage')[0]?.usage).toEqual({ inputTokens: 100, cachedInputTokens: 0, outputTokens: 10, reasoningTokens: 0 });
  });

  it('every event carries the parsed record it came from', () => {
    for (const name of ['text', 'shell-workspace-write', 'error-500']) {
      const records = fixtureLines(name);
      for (const event of replay(name)) expect(records).toContainEqual(event.raw);
    }
  });

  it('a shell command: tool_use at start, tool_result with the output at completion', () => {
    const events = replay('shell-workspace-write');
    const [use] = ofType(events, 'tool_use');
    const [result] = ofType(events, 'tool_result');
    expect(use).toMatchObject({ name: 'command_execution', input: { command: expect.stringContaining('echo hi > made.txt') } });
    expect(result).toMatchObject({ id: use?.id, name: 'command_execution', output: 'hi\n', isError: false, extra: { exitCode: 0 } });
    expect(ofType(events, 'done')[0]?.text).toBe('Ran it.');
  });

  it('a failing command is a tool_result with isError and its exit code', () => {
    const [result] = ofType(replay('shell-failing'), 'tool_result');
    expect(result).toMatchObject({ isError: true, extra: { exitCode: 2 } });
    expect(String(result?.output)).toContain('No such file or directory');
  });

  it('a write refused by the read-only sandbox leaves no command item in the JSONL (the binary hides it)', () => {
    const events = replay('shell-read-only');
    expect(ofType(events, 'tool_use')).toEqual([]);
    expect(ofType(events, 'done')[0]).toMatchObject({ status: 'success', text: 'Could not write.' });
  });

  it('apply_patch is a file_change tool pair with the changed paths', () => {
    const events = replay('apply-patch');
    const [use] = ofType(events, 'tool_use');
    const [result] = ofType(events, 'tool_result');
    expect(use?.name).toBe('file_change');
    expect(result).toMatchObject({ isError: false, output: { changes: [{ kind: 'add', path: expect.stringMatching(/hello\.txt$/) }] } });
  });

  it('reasoning summaries become reasoning events before the message', () => {
    const events = replay('reasoning');
    expect(types(events)).toEqual(['init', 'progress', 'reasoning', 'message', 'usage', 'done']);
    expect(ofType(events, 'reasoning')[0]).toMatchObject({ text: 'The user wants a greeting, so I greet.', delta: false });
  });

  it('web_search (whose record has two id keys) pairs by the id JSON.parse keeps', () => {
    const events = replay('web-search');
    const [use] = ofType(events, 'tool_use');
    const [result] = ofType(events, 'tool_result');
    expect(use).toMatchObject({ name: 'web_search', input: { query: 'coderline sdk' } });
    expect(result?.id).toBe(use?.id);
  });

  it('a turn with several agent messages: done.text is the last one', () => {
    const events = replay('two-messages');
    expect(ofType(events, 'message').map((event) => event.text)).toEqual(['Let me check.', 'All good.']);
    expect(ofType(events, 'done')[0]?.text).toBe('All good.');
  });

  it('structured output: the final text is the raw JSON (the core parses and validates it)', () => {
    const [done] = ofType(replay('structured-output'), 'done');
    expect(JSON.parse(done?.text ?? '')).toEqual({ answer: '42', confidence: 0.9 });
    expect(fixtureMeta('structured-output').args).toContain('--output-schema');
  });

  it('-c model_turn_limit is ignored by the CLI: a warning, and the run goes past the "limit"', () => {
    const events = replay('model-turn-limit-ignored');
    const warnings = ofType(events, 'progress').filter((event) => event.kind === 'warning');
    expect(warnings[0]?.message).toContain('`model_turn_limit` is ignored');
    expect(ofType(events, 'tool_result')).toHaveLength(2);
    expect(ofType(events, 'done')[0]?.status).toBe('success');
  });

  it.each([
    ['error-500', 'server', undefined],
    ['error-401', 'auth', 401],
    ['error-429', 'rate_limit', 429],
    ['error-400', 'server', undefined],
    ['response-failed', 'server', undefined],
    ['stream-cut', 'server', undefined],
    ['idle-timeout', 'server', undefined],
  ] as const)('%s: turn.failed is one fatal %s error, then done(error)', (name, code, httpStatus) => {
    const events = replay(name);
    const fatal = ofType(events, 'error').filter((event) => event.fatal);
    expect(fatal).toHaveLength(1);
    expect(fatal[0]?.code).toBe(code);
    expect(fatal[0]?.httpStatus).toBe(httpStatus);
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'error' });
    expect(fixtureMeta(name).exitCode).toBe(1);
  });

  it('a 400 reports the message from the JSON body, not the body itself', () => {
    const fatal = ofType(replay('error-400'), 'error').find((event) => event.fatal);
    expect(fatal?.message).toBe('Invalid schema for response_format');
  });

  it('"Reconnecting… n/m" records are retries (progress), not failures', () => {
    const events = replay('error-500-retry');
    expect(ofType(events, 'progress').filter((event) => event.kind === 'retry')).toHaveLength(1);
    expect(ofType(events, 'error').filter((event) => event.fatal)).toHaveLength(1);
  });

  it('a silent retry that recovers is a plain success', () => {
    const events = replay('error-500-then-ok');
    expect(ofType(events, 'error')).toEqual([]);
    expect(ofType(events, 'done')[0]).toMatchObject({ status: 'success', text: 'Recovered.' });
  });

  it('a stream closed before response.completed: the partial message first, then the error', () => {
    const events = replay('stream-closed');
    expect(ofType(events, 'message')[0]?.text).toBe('partial answer');
    expect(ofType(events, 'error').find((event) => event.fatal)?.message).toContain('stream closed before response.completed');
  });

  it('SIGTERM: no terminal record at all (the core must end the run itself)', () => {
    const events = replay('sigterm');
    expect(types(events)).toEqual(['init', 'progress']);
    expect(fixtureMeta('sigterm').signal).toBe('SIGTERM');
  });

  it('resume keeps the thread id; usage is cumulative over the thread', () => {
    const first = replay('resume-1-new');
    const threadId = ofType(first, 'init')[0]?.sessionId ?? '';
    const byId = replay('resume-2-by-id', {}, { kind: 'resume', sessionId: threadId });
    const last = replay('resume-3-last', {}, { kind: 'continue' });
    expect(ofType(byId, 'init')[0]?.sessionId).toBe(threadId);
    expect(ofType(last, 'init')[0]?.sessionId).toBe(threadId);
    expect(ofType(byId, 'error')).toEqual([]);
    expect([first, byId, last].map((events) => ofType(events, 'usage')[0]?.usage.inputTokens)).toEqual([100, 250, 350]);
    expect(fixtureMeta('resume-2-by-id').args.slice(-3)).toEqual(['resume', threadId, '-']);
    expect(fixtureMeta('resume-3-last').args.slice(-3)).toEqual(['resume', '--last', '-']);
  });

  it('a resume that comes back with another thread id is a fatal session_not_found: the thread was not found where it was looked for', () => {
    const events = replay('resume-2-by-id', {}, { kind: 'resume', sessionId: '00000000-0000-0000-0000-000000000000' });
    expect(ofType(events, 'error')[0]).toMatchObject({ fatal: true, code: 'session_not_found', message: expect.stringContaining('new thread') });
  });

  it('fork starts a new thread id', () => {
    const parent = ofType(replay('fork-1-new'), 'init')[0]?.sessionId;
    const fork = ofType(replay('fork-2-fork'), 'init')[0]?.sessionId;
    expect(fork).toBeDefined();
    expect(fork).not.toBe(parent);
  });

  it('update_plan: a plan event per todo_list record, done steps completed, the rest pending (exec drops in_progress)', () => {
    const plans = ofType(replay('plan'), 'plan').map((event) => event.items);
    expect(plans).toEqual([
      [{ content: 'Write the tests', status: 'pending' }, { content: 'Fix the bug', status: 'pending' }],
      [{ content: 'Write the tests', status: 'completed' }, { content: 'Fix the bug', status: 'pending' }],
      [{ content: 'Write the tests', status: 'completed' }, { content: 'Fix the bug', status: 'pending' }],
    ]);
  });

  it('an auto-compaction is not printed by exec: the fixture shows a model request more than events', () => {
    const events = replay('compaction-silent');
    expect(ofType(events, 'compaction')).toEqual([]);
    expect(fixtureMeta('compaction-silent')).toMatchObject({ exitCode: 0 });
    expect((fixtureMeta('compaction-silent') as { modelRequests?: number }).modelRequests).toBe(3);
    expect(ofType(events, 'message').map((event) => event.text)).toEqual(['Done.']);
  });

  it('a resume of a thread the store lacks prints nothing: the exit explains it as session_not_found', () => {
    expect(fixtureLines('resume-missing')).toEqual([]);
    const meta = fixtureMeta('resume-missing');
    expect(codexAdapter.explainExit?.({ exitCode: meta.exitCode ?? undefined, signal: undefined, stderrTail: meta.stderr.join('\n') })).toMatchObject({ code: 'session_not_found' });
  });

  it('replay is deterministic for every fixture', () => {
    const dir = resolve(import.meta.dirname, '../../fixtures/codex', CODEX_VERSION);
    const names = readdirSync(dir).filter((file) => file.endsWith('.jsonl')).map((file) => file.replace(/\.jsonl$/, ''));
    expect(names.length).toBeGreaterThan(20);
    for (const name of names) expect(replay(name)).toEqual(replay(name));
  });
});

describeCompatReplay('codex');
