// Recorded `opencode run --format json` output (fixtures/opencode/<version>, from `npm run record --
// opencode`) through the translator: what a user of the event stream sees for each scenario.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { opencodeAdapter } from '../../src/adapters/opencode/index.js';
import { createOpencodeTranslator } from '../../src/adapters/opencode/translate.js';
import type { TranslatedEvent } from '../../src/events.js';
import { ofType } from '../support/events.js';
import { describeCompatReplay } from '../support/compat-replay.js';

const VERSION = opencodeAdapter.versions.testedMax;
const dir = resolve(import.meta.dirname, '..', '..', 'fixtures', 'opencode', VERSION);

const records = (name: string) => readFileSync(join(dir, `${name}.jsonl`), 'utf8').split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line) as unknown);
const meta = (name: string) => JSON.parse(readFileSync(join(dir, `${name}.meta.json`), 'utf8')) as { exitCode: number; stderr: string[]; modelRequests: number };
function replay(name: string): TranslatedEvent[] {
  const translator = createOpencodeTranslator({ opts: {} });
  return records(name).flatMap((record) => translator.translate(record));
}
const types = (events: TranslatedEvent[]) => events.map((event) => event.type);

describe(`opencode ${VERSION} replay`, () => {
  it('plain text: init with the ses_ id, one whole message, usage, done with the answer', () => {
    const events = replay('text');
    expect(types(events)).toEqual(['init', 'progress', 'message', 'usage', 'done']);
    const [init] = ofType(events, 'init');
    expect(init?.sessionId).toMatch(/^ses_\w+$/);
    expect(ofType(events, 'done')[0]).toMatchObject({ status: 'success', text: 'Hello from the fake model.', sessionId: init?.sessionId });
    expect(ofType(events, 'usage')[0]?.usage).toEqual({ inputTokens: 120, cachedInputTokens: 0, outputTokens: 8, reasoningTokens: 0 });
  });

  it('every event carries the parsed record it came from', () => {
    for (const name of ['text', 'tool-bash', 'todos', 'error-401']) {
      const lines = records(name);
      for (const event of replay(name)) expect(lines).toContainEqual(event.raw);
    }
  });

  it('reasoning: a whole reasoning part; the cached and reasoning tokens counted the way the model API did', () => {
    const events = replay('thinking');
    expect(ofType(events, 'reasoning')[0]).toMatchObject({ text: 'Let me think about it.', delta: false });
    expect(ofType(events, 'usage')[0]?.usage).toEqual({ inputTokens: 30, cachedInputTokens: 10, outputTokens: 12, reasoningTokens: 5 });
  });

  it('a shell call: tool_use and tool_result together, with the command as a fact; a non-zero exit is an error', () => {
    const events = replay('tool-bash');
    const [use] = ofType(events, 'tool_use');
    expect(use).toMatchObject({ name: 'bash', tool: { kind: 'shell', name: 'bash', command: 'echo coderline-tool-ran' } });
    expect(ofType(events, 'tool_result')[0]).toMatchObject({ id: use?.id, output: 'coderline-tool-ran\n', isError: false, extra: { exitCode: 0 } });
    expect(ofType(events, 'done')[0]?.text).toBe('The command printed coderline-tool-ran.');
    expect(ofType(replay('tool-bash-failing'), 'tool_result')[0]).toMatchObject({ isError: true, extra: { exitCode: 3 } });
  });

  it('file tools carry their paths and patterns; an unknown tool is the tool `invalid`', () => {
    const facts = ofType(replay('tools-write-edit-search'), 'tool_use').map((event) => event.tool);
    expect(facts).toEqual([
      { kind: 'write', name: 'write', paths: ['a.txt'] },
      { kind: 'edit', name: 'edit', paths: ['a.txt'] },
      expect.objectContaining({ kind: 'search', query: expect.any(String) }),
      expect.objectContaining({ kind: 'search', query: expect.any(String) }),
      { kind: 'fetch', name: 'webfetch', url: 'http://127.0.0.1:9/page' },
    ]);
    const parallel = ofType(replay('tool-parallel'), 'tool_use');
    expect(parallel.map((event) => event.name).sort()).toEqual(['invalid', 'read']);
    expect(parallel.find((event) => event.name === 'invalid')?.tool?.kind).toBe('other');
  });

  it('todowrite is a plan event with the whole list (cancelled items count as done)', () => {
    const [plan] = ofType(replay('todos'), 'plan');
    expect(plan?.items).toEqual([
      { content: 'Read the code', status: 'completed' },
      { content: 'Fix the bug', status: 'in_progress' },
      { content: 'Old idea', status: 'completed' },
    ]);
  });

  it('a task call is a subagent event naming the child session', () => {
    const events = replay('subagent');
    const [use] = ofType(events, 'tool_use');
    expect(use?.tool).toEqual({ kind: 'task', name: 'task' });
    expect(ofType(events, 'subagent')[0]).toMatchObject({ phase: 'completed', taskId: expect.stringMatching(/^ses_/), toolUseId: use?.id, status: 'success', description: 'Look around' });
    expect(ofType(events, 'done')[0]?.text).toBe('The subagent reported back.');
  });

  it('an auto-compaction: the summary step ends "stop", then the nudge is the compaction event, then the turn goes on', () => {
    const events = replay('compaction');
    expect(meta('compaction').modelRequests).toBe(3);
    expect(ofType(events, 'compaction').map(({ phase, trigger, tokensBefore, tokensAfter }) => ({ phase, trigger, tokensBefore, tokensAfter }))).toEqual([
      { phase: 'completed', trigger: 'auto', tokensBefore: undefined, tokensAfter: undefined },
    ]);
    // The nudge is not an answer; the done after it is the turn's (the core lets a compaction reopen a done).
    expect(ofType(events, 'message').map((event) => event.text)).toEqual(['Summary: the context was filled by one shell call.', 'Done after compaction.']);
    const afterCompaction = events.slice(events.findIndex((event) => event.type === 'compaction'));
    expect(ofType(afterCompaction, 'done').map((event) => event.text)).toEqual(['Done after compaction.']);
  });

  it('API errors are fatal with their code and status; a persistent 5xx or 429 comes after the silent retries', () => {
    expect(ofType(replay('error-401'), 'error')[0]).toMatchObject({ code: 'auth', httpStatus: 401, fatal: true });
    expect(ofType(replay('error-500'), 'error')[0]).toMatchObject({ code: 'server', httpStatus: 500, fatal: true });
    expect(ofType(replay('error-429'), 'error')[0]).toMatchObject({ code: 'rate_limit', httpStatus: 429, fatal: true });
    expect(meta('error-500').modelRequests).toBe(6);
    expect(types(replay('retry-then-success'))).toContain('done');
  });

  it('an auto-rejected permission: exit 0 and no final step, but a fatal error here', () => {
    expect(meta('permission-rejected').exitCode).toBe(0);
    const events = replay('permission-rejected');
    expect(ofType(events, 'done')).toEqual([]);
    expect(ofType(events, 'error')[0]).toMatchObject({ code: 'feature_not_supported', fatal: true });
  });

  it('plan mode: the shell is not offered, the call is `invalid`, and the run answers', () => {
    const events = replay('plan-denied');
    expect(ofType(events, 'tool_use')[0]?.name).toBe('invalid');
    expect(ofType(events, 'done')[0]?.text).toBe('I cannot write in plan mode.');
  });

  it('resume keeps the id, fork makes a new one; an unknown id writes nothing and says why on stderr', () => {
    const first = ofType(replay('resume-1-new'), 'init')[0]?.sessionId;
    expect(ofType(replay('resume-2-by-id'), 'init')[0]?.sessionId).toBe(first);
    expect(ofType(replay('resume-3-latest'), 'init')[0]?.sessionId).toBe(first);
    expect(ofType(replay('fork-2-fork'), 'init')[0]?.sessionId).not.toBe(ofType(replay('fork-1-new'), 'init')[0]?.sessionId);
    expect(existsSync(join(dir, 'resume-unknown.jsonl'))).toBe(false);
    const unknown = meta('resume-unknown');
    expect(opencodeAdapter.explainExit?.({ exitCode: unknown.exitCode, signal: undefined, stderrTail: unknown.stderr.join('\n') })).toMatchObject({ code: 'session_not_found' });
  });
});

describe('opencode translator on hand-made input (not recorded: shapes a CLI could print)', () => {
  it('anything that is not a known record becomes an event, never a throw', () => {
    const translator = createOpencodeTranslator({ opts: {} });
    for (const record of [null, 3, 'text', [], {}, { type: 'tool_use' }, { type: 'tool_use', part: { state: 'x' } }, { type: 'step_finish', part: { tokens: 'many' } }, { type: 'error', error: 7 }, { type: 'new_kind', sessionID: 5 }]) {
      expect(translator.translate(record).length).toBeGreaterThan(0);
    }
  });

  it('a step that ends for another reason than tool calls is the end of the turn; `unknown` is not', () => {
    const translator = createOpencodeTranslator({ opts: {} });
    expect(types(translator.translate({ type: 'step_finish', part: { reason: 'unknown' } }))).toEqual(['progress']);
    expect(types(translator.translate({ type: 'step_finish', part: { reason: 'length', tokens: {} } }))).toEqual(['usage', 'done']);
  });
});

describeCompatReplay('opencode');
