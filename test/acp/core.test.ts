// The shared ACP core on records shaped as the protocol allows (hand-made, to reach what the
// recorded agents did not print; the real agents' proof is test/copilot/live.test.ts,
// test/gemini/live.e2e.test.ts and test/acp/create-adapter.e2e.test.ts).
import { describe, expect, it } from 'vitest';
import { acpAnswerRecord, acpRefusalRecord } from '../../src/core/acp/answer.js';
import { acpPermissionCodec } from '../../src/core/acp/permission.js';
import { acpToolFacts } from '../../src/core/acp/tool-facts.js';
import { createAcpTranslator } from '../../src/core/acp/translate.js';
import type { TranslatedEvent } from '../../src/events.js';

const update = (body: Record<string, unknown>) => ({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update: body } });
const translateAll = (records: unknown[], toolKinds?: Record<string, 'shell' | 'write' | 'other'>): TranslatedEvent[] => {
  const translator = createAcpTranslator({ agent: 'test-agent', ...(toolKinds ? { toolKinds } : {}) }, { opts: {} });
  return records.flatMap((record) => translator.translate(record));
};
const question = (toolCall: Record<string, unknown>, options: Array<{ optionId: string; kind: string }>) => ({ method: 'session/request_permission', params: { sessionId: 's1', toolCall, options } });

describe('ACP tool facts', () => {
  it('maps every ACP kind, and reads command, paths, query and url from the input', () => {
    expect(acpToolFacts({ kind: 'execute', rawInput: { command: ['git', 'status'] } }, undefined)).toEqual({ kind: 'shell', name: 'execute', command: 'git status' });
    expect(acpToolFacts({ kind: 'delete', locations: [{ path: '/w/a.txt' }] }, undefined)).toEqual({ kind: 'write', name: 'delete', paths: ['/w/a.txt'] });
    expect(acpToolFacts({ kind: 'move', rawInput: { path: '/w/a', file_path: '/w/b' } }, undefined)).toMatchObject({ kind: 'write', paths: ['/w/a', '/w/b'] });
    expect(acpToolFacts({ kind: 'search', rawInput: { pattern: 'TODO', path: '/w' } }, undefined)).toEqual({ kind: 'search', name: 'search', query: 'TODO', paths: ['/w'] });
    expect(acpToolFacts({ kind: 'fetch', rawInput: { url: 'https://example.org' } }, undefined)).toEqual({ kind: 'fetch', name: 'fetch', url: 'https://example.org' });
    expect(acpToolFacts({ kind: 'think' }, undefined).kind).toBe('other');
    expect(acpToolFacts({ kind: 'switch_mode' }, undefined).kind).toBe('plan');
    expect(acpToolFacts({ kind: 'brand_new_kind' }, undefined)).toEqual({ kind: 'other', name: 'brand_new_kind' });
    expect(acpToolFacts({}, undefined)).toEqual({ kind: 'other', name: 'other' });
    // A shell call without a command in its input: the title is what the agent says it runs (Gemini).
    expect(acpToolFacts({ kind: 'execute', title: 'touch x' }, undefined).command).toBe('touch x');
  });

  it("a preset's mapping wins over the protocol's", () => {
    expect(acpToolFacts({ kind: 'other', rawInput: { command: 'ls' } }, { other: 'shell' })).toEqual({ kind: 'shell', name: 'other', command: 'ls' });
    const [toolUse] = translateAll([update({ sessionUpdate: 'tool_call', toolCallId: 't', kind: 'edit' })], { edit: 'write' }).filter((event) => event.type === 'tool_use');
    expect(toolUse).toMatchObject({ tool: { kind: 'write', name: 'edit' } });
  });
});

describe('ACP translator', () => {
  it('a plan update is a plan event holding the whole list', () => {
    const events = translateAll([update({ sessionUpdate: 'plan', entries: [{ content: 'Read', status: 'completed', priority: 'high' }, { content: 'Write', status: 'in_progress' }, { content: 'Odd', status: 'bogus' }] })]);
    expect(events[1]).toMatchObject({ type: 'plan', items: [{ content: 'Read', status: 'completed' }, { content: 'Write', status: 'in_progress' }, { content: 'Odd', status: 'pending' }] });
  });

  it('a call reported only when it finished gets its tool_use before its tool_result', () => {
    const events = translateAll([update({ sessionUpdate: 'tool_call_update', toolCallId: 'g1', status: 'completed', title: 'touch a', kind: 'execute' }), acpAnswerRecord({ stopReason: 'end_turn' })]);
    expect(events.map((event) => event.type)).toEqual(['init', 'tool_use', 'tool_result', 'done']);
    expect(events[1]).toMatchObject({ id: 'g1', name: 'execute', tool: { kind: 'shell', command: 'touch a' } });
    expect(events[2]).toMatchObject({ id: 'g1', isError: false, tool: { kind: 'shell' } });
  });

  it('a question about a call no update announced announces it (once); one about an announced call adds nothing', () => {
    const ask = (toolCall: Record<string, unknown>) => question(toolCall, [{ optionId: 'a', kind: 'allow_once' }]);
    const events = translateAll([ask({ toolCallId: 'q1', kind: 'execute', title: 'touch b' }), update({ sessionUpdate: 'tool_call_update', toolCallId: 'q1', status: 'completed', kind: 'execute' }), update({ sessionUpdate: 'tool_call', toolCallId: 'q2', kind: 'edit' }), ask({ toolCallId: 'q2', kind: 'edit' })]);
    expect(events.map((event) => event.type)).toEqual(['init', 'tool_use', 'tool_result', 'tool_use']);
    expect(events[1]).toMatchObject({ id: 'q1', tool: { kind: 'shell', command: 'touch b' } });
  });

  it("a refused prompt ends the turn failed: with the code the agent's dialect reads, else protocol", () => {
    const gemini = createAcpTranslator({ agent: 'test-agent', promptRefusal: (message) => (message.includes('"code":429') ? { message, httpStatus: 429 } : undefined) }, { opts: {} });
    expect(gemini.translate(acpRefusalRecord('{"error":{"code":429,"message":"slow down"}}'))).toMatchObject([{ type: 'error', code: 'rate_limit', httpStatus: 429, fatal: true }, { type: 'done', status: 'error' }]);
    expect(gemini.translate(acpRefusalRecord('Internal error'))).toMatchObject([{ type: 'error', code: 'protocol', message: 'Internal error' }, { type: 'done', status: 'error' }]);
  });

  it('per-prompt usage is taken as it is; another stop reason is an error naming the agent', () => {
    const events = translateAll([acpAnswerRecord({ stopReason: 'refusal', usage: { inputTokens: 5, outputTokens: -3 } })]);
    expect(events.find((event) => event.type === 'usage')).toMatchObject({ usage: { inputTokens: 5, outputTokens: 0 } });
    expect(events.find((event) => event.type === 'error')).toMatchObject({ code: 'protocol', message: 'test-agent ended the turn: refusal' });
  });

  it('records of any shape are events, never a throw', () => {
    const odd = [null, 7, 'text', [], { method: 'session/update' }, update({}), update({ sessionUpdate: 'tool_call_update', status: 'failed' }), update({ sessionUpdate: 'plan', entries: 'x' }), { jsonrpc: '2.0', result: null }];
    const events = translateAll(odd);
    expect(events.length).toBeGreaterThanOrEqual(odd.length);
  });
});

describe('ACP permission codec', () => {
  it('answers by option kind, whatever the ids: allow_once, reject_once, else reject_always', () => {
    const codec = acpPermissionCodec('test-agent', undefined);
    const gemini = codec.request(question({ toolCallId: 'c1', kind: 'execute', title: 'touch a' }, [{ optionId: 'proceed_always', kind: 'allow_always' }, { optionId: 'proceed_once', kind: 'allow_once' }, { optionId: 'cancel', kind: 'reject_once' }]))!;
    expect(gemini).toMatchObject({ toolName: 'execute', toolUseId: 'c1', description: 'touch a', tool: { kind: 'shell', command: 'touch a' } });
    expect(codec.answer({ behavior: 'allow' }, gemini)).toEqual({ outcome: { outcome: 'selected', optionId: 'proceed_once' } });
    expect(codec.answer({ behavior: 'deny' }, gemini)).toEqual({ outcome: { outcome: 'selected', optionId: 'cancel' } });
    const onlyAlways = codec.request(question({ toolCallId: 'c2', kind: 'edit' }, [{ optionId: 'yes-forever', kind: 'allow_always' }, { optionId: 'never', kind: 'reject_always' }]))!;
    expect(codec.answer({ behavior: 'deny' }, onlyAlways)).toEqual({ outcome: { outcome: 'selected', optionId: 'never' } });
  });

  it('never answers "always": an allow without an allow_once option is refused, and cancelled is sent', () => {
    const codec = acpPermissionCodec('test-agent', undefined);
    const request = codec.request(question({ toolCallId: 'c3', kind: 'execute' }, [{ optionId: 'yes-forever', kind: 'allow_always' }]))!;
    expect(codec.refuses?.({ behavior: 'allow' }, request)).toMatch(/no allow_once option/);
    expect(codec.answer({ behavior: 'allow' }, request)).toEqual({ outcome: { outcome: 'cancelled' } });
    expect(codec.refuses?.({ behavior: 'allow', updatedInput: { command: 'rm -rf /' } }, request)).toMatch(/changed input/);
  });

  it('a question names the tool call announced before it: its input and facts come from there', () => {
    const codec = acpPermissionCodec('test-agent', undefined);
    codec.observe(update({ sessionUpdate: 'tool_call', toolCallId: 'c4', kind: 'execute', title: 'run it', rawInput: { command: 'touch x' } }));
    const request = codec.request(question({ toolCallId: 'c4', title: 'run it now' }, [{ optionId: 'a', kind: 'allow_once' }]))!;
    expect(request).toMatchObject({ toolName: 'execute', input: { command: 'touch x' }, description: 'run it now', tool: { kind: 'shell', command: 'touch x' } });
  });

  it('anything else is no question', () => {
    const codec = acpPermissionCodec('test-agent', undefined);
    for (const body of [null, {}, { method: 'fs/read_text_file', params: { path: '/etc/passwd' } }, { method: 'session/request_permission', params: {} }]) expect(codec.request(body)).toBeUndefined();
  });
});
