// The ACP translator on messages copilot 1.0.102 sent in `--acp` mode (lines as the binary printed
// them, shortened where marked; the end-to-end proof is live.test.ts).
import { describe, expect, it } from 'vitest';
import { createCopilotAcpTranslator } from '../../src/adapters/copilot/acp-translate.js';
import { acpAnswerRecord } from '../../src/core/acp/answer.js';
import type { TranslatedEvent } from '../../src/events.js';

const session = '543e498e-72a3-42a6-b98f-83def226a0d4';
const update = (body: Record<string, unknown>) => ({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: session, update: body } });
const answer = (result: Record<string, unknown>) => acpAnswerRecord(result);

/** A turn with a rejected shell call (the last turn's records are the answer's usage totals). */
const rejectedTurn = [
  update({ sessionUpdate: 'session_info_update', title: 'make x', updatedAt: '2026-12-01T18:42:21.804Z' }),
  update({ sessionUpdate: 'usage_update', used: 8669, size: 128000 }),
  update({ sessionUpdate: 'tool_call', toolCallId: 'call_p1', title: 'probe command', kind: 'execute', status: 'pending', rawInput: { command: 'touch x.txt', description: 'probe command' } }),
  update({ sessionUpdate: 'tool_call_update', toolCallId: 'call_p1', status: 'failed', rawOutput: { message: 'The user rejected this tool call.', code: 'rejected' } }),
  update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Info: Operation cancelled by user' } }),
  answer({ stopReason: 'end_turn', usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15, thoughtTokens: 0, cachedReadTokens: 0, cachedWriteTokens: 0 } }),
];
const textTurn = [
  update({ sessionUpdate: 'usage_update', used: 8720, size: 128000 }),
  update({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'Let me ' } }),
  update({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'think.' } }),
  update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'af' } }),
  update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'ter' } }),
  answer({ stopReason: 'end_turn', usage: { inputTokens: 20, outputTokens: 10, totalTokens: 30, thoughtTokens: 2, cachedReadTokens: 3, cachedWriteTokens: 0 } }),
];

function translateAll(records: unknown[], streamPartialMessages = false): TranslatedEvent[] {
  const translator = createCopilotAcpTranslator({ opts: { streamPartialMessages } });
  return records.flatMap((record) => translator.translate(record));
}

const types = (events: TranslatedEvent[]) => events.map((event) => event.type);

describe('copilot ACP translator', () => {
  it('a turn: init with the session id, the tool call by its kind, its rejection, Copilot\'s notice, usage, done', () => {
    const events = translateAll(rejectedTurn);
    expect(types(events)).toEqual(['init', 'progress', 'progress', 'tool_use', 'tool_result', 'progress', 'usage', 'done']);
    expect(events[0]).toMatchObject({ sessionId: session });
    expect(events[3]).toMatchObject({ id: 'call_p1', name: 'execute', input: { command: 'touch x.txt', description: 'probe command' } });
    expect(events[4]).toMatchObject({ id: 'call_p1', name: 'execute', isError: true, output: 'The user rejected this tool call.' });
    // What one-shot output carries as a session.info record, not answer text.
    expect(events[5]).toMatchObject({ kind: 'status', subtype: 'session.info', message: 'Operation cancelled by user' });
    expect(events.at(-1)).toMatchObject({ type: 'done', status: 'success' });
    // Every event keeps the record it came from.
    expect(events.every((event) => rejectedTurn.includes(event.raw as never))).toBe(true);
  });

  it('Copilot\'s notices are progress, not text: plan mode\'s plan.md path between a tool call and the model\'s answer', () => {
    const chunk = (text: string) => update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
    const planPath = '/tmp/copilot-home/session-state/dc3fb268-8a48-4b0c-974b-89480aaf4776/plan.md';
    const events = translateAll([
      update({ sessionUpdate: 'tool_call', toolCallId: 'call_plan_md', title: 'Creating plan.md', kind: 'edit', status: 'pending', rawInput: { path: planPath } }),
      chunk(`Info: ${planPath}`),
      update({ sessionUpdate: 'tool_call_update', toolCallId: 'call_plan_md', status: 'completed', rawOutput: { content: 'Created file' } }),
      chunk('Planned.'),
      answer({ stopReason: 'end_turn' }),
    ], true);
    expect(events.filter((event) => event.type === 'message').map((event) => [event.type === 'message' && event.text, event.type === 'message' && event.delta])).toEqual([['Planned.', true], ['Planned.', false]]);
    expect(events.find((event) => event.type === 'progress' && event.subtype === 'session.info')).toMatchObject({ kind: 'status', message: planPath });
    // Only a whole chunk of one line is a notice: model text that spans lines stays text.
    const text = translateAll([chunk('Info: the build\n'), chunk('passed.'), chunk('\nInfo: two lines\nhere'), answer({ stopReason: 'end_turn' })]);
    expect(text.filter((event) => event.type === 'message').map((event) => event.type === 'message' && event.text)).toEqual(['Info: the build\npassed.\nInfo: two lines\nhere']);
  });

  it('usage in the answers is a session total: each turn gets its own share', () => {
    const usages = translateAll([...rejectedTurn, ...textTurn]).filter((event) => event.type === 'usage');
    expect(usages.map((event) => (event.type === 'usage' ? event.usage : undefined))).toEqual([
      { inputTokens: 10, cachedInputTokens: 0, outputTokens: 5, reasoningTokens: 0 },
      { inputTokens: 10, cachedInputTokens: 3, outputTokens: 5, reasoningTokens: 2 },
    ]);
  });

  it('a session total that went down started again: that turn\'s share is the new total, not nothing', () => {
    const turnWith = (inputTokens: number) => [
      update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'ok' } }),
      answer({ stopReason: 'end_turn', usage: { inputTokens, outputTokens: 1, thoughtTokens: 0, cachedReadTokens: 0 } }),
    ];
    const usages = translateAll([...turnWith(22), ...turnWith(44), ...turnWith(7)]).filter((event) => event.type === 'usage');
    expect(usages.map((event) => (event.type === 'usage' ? event.usage.inputTokens : undefined))).toEqual([22, 22, 7]);
  });

  it('chunks: whole reasoning and message at the end; deltas too only with streamPartialMessages', () => {
    const quiet = translateAll(textTurn);
    expect(quiet.filter((event) => event.type === 'message' || event.type === 'reasoning')).toEqual([
      expect.objectContaining({ type: 'reasoning', text: 'Let me think.', delta: false }),
      expect.objectContaining({ type: 'message', text: 'after', delta: false }),
    ]);
    const partial = translateAll(textTurn, true).filter((event) => event.type === 'message' && event.delta);
    expect(partial.map((event) => (event.type === 'message' ? event.text : ''))).toEqual(['af', 'ter']);
  });

  it('a shell command that exits non-zero is an error result though Copilot says completed', () => {
    const events = translateAll([
      update({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'fail', kind: 'execute', status: 'pending', rawInput: { command: 'exit 3' } }),
      update({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', content: [{ type: 'content', content: { type: 'text', text: 'partial\n' } }] }),
      update({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed', rawOutput: { content: '<exited with exit code 3>', contents: [{ type: 'shell_exit', shellId: '0', exitCode: 3 }] } }),
    ]);
    expect(events.find((event) => event.type === 'progress' && event.kind === 'tool_output')).toMatchObject({ message: 'partial\n' });
    expect(events.find((event) => event.type === 'tool_result')).toMatchObject({ isError: true, output: '<exited with exit code 3>' });
  });

  it('a cancelled turn is a fatal aborted error; an unknown update or method is a progress event, never a crash', () => {
    const events = translateAll([update({ sessionUpdate: 'something_new' }), { jsonrpc: '2.0', method: 'x/unknown' }, 'not an object', answer({ stopReason: 'cancelled' })]);
    expect(types(events)).toEqual(['init', 'progress', 'progress', 'progress', 'error', 'done']);
    expect(events[1]).toMatchObject({ kind: 'unknown', subtype: 'something_new' });
    expect(events[4]).toMatchObject({ code: 'aborted', fatal: true });
    expect(events[5]).toMatchObject({ status: 'error' });
  });

  describe('a failed model call (Copilot writes "Error: …" as one whole chunk and answers end_turn)', () => {
    const chunk = (text: string) => update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });
    const retry = chunk('Info: Request failed due to a transient API error. Retrying...');
    const endTurn = answer({ stopReason: 'end_turn' });
    const failedWith = (records: unknown[], streamPartialMessages = false) => {
      const events = translateAll(records, streamPartialMessages);
      return { events, error: events.find((event) => event.type === 'error'), done: events.at(-1) };
    };

    it.each([
      ['HTTP 400', 'Error: 400 fake bad request', 'server', 400],
      ['HTTP 401', 'Error: Authentication failed with provider at http://127.0.0.1:41000/v1 (HTTP 401).\n  Check your COPILOT_PROVIDER_API_KEY.', 'auth', 401],
      ['HTTP 429', 'Error: Failed to get response from the AI model; retried 5 times (total retry wait time: 5.00 seconds) Last error: 429 slow down', 'rate_limit', 429],
      ['HTTP 500', 'Error: Failed to get response from the AI model; retried 5 times (total retry wait time: 14.59 seconds) Last error: 500 boom', 'server', 500],
      ['a dropped stream', 'Error: Failed to get response from the AI model; retried 5 times (total retry wait time: 5.00 seconds) Last error: Failed native model HTTP request: error decoding response body', 'server', undefined],
    ])('%s → a fatal error with the one-shot code, no answer text, retries as retry progress', (_case, text, code, httpStatus) => {
      const { events, error, done } = failedWith([retry, chunk(text), endTurn], true);
      expect(error).toMatchObject({ code, fatal: true, message: text.slice('Error: '.length) });
      expect(error && 'httpStatus' in error ? error.httpStatus : undefined).toBe(httpStatus);
      expect(done).toMatchObject({ type: 'done', status: 'error' });
      expect(events.filter((event) => event.type === 'message')).toEqual([]);
      expect(events.filter((event) => event.type === 'progress' && event.kind === 'retry')).toHaveLength(1);
    });

    it('also after a tool call in the same turn (the next model call failed)', () => {
      const { error, done } = failedWith([
        update({ sessionUpdate: 'tool_call', toolCallId: 'c1', title: 'd', kind: 'execute', status: 'pending', rawInput: { command: 'echo hi' } }),
        update({ sessionUpdate: 'tool_call_update', toolCallId: 'c1', status: 'completed', rawOutput: { content: 'hi' } }),
        retry,
        chunk('Error: Failed to get response from the AI model; retried 5 times (total retry wait time: 15.66 seconds) Last error: 500 boom'),
        answer({ stopReason: 'end_turn', usage: { inputTokens: 10, outputTokens: 5 } }),
      ]);
      expect(error).toMatchObject({ code: 'server', httpStatus: 500 });
      expect(done).toMatchObject({ status: 'error' });
    });

    it('"Error: " text is the answer where the model wrote text in the turn, or where more text follows it (the retry notice is not)', () => {
      for (const [first, second] of [
        ['The log says: ', 'Error: 500 boom'],
        ['Error: 500 boom', ' is what the log says.'],
      ] as const) {
        const { events, error, done } = failedWith([retry, chunk(first), chunk(second), endTurn], true);
        const text = first + second;
        expect(error).toBeUndefined();
        expect(done).toMatchObject({ status: 'success' });
        expect(events.filter((event) => event.type === 'message' && !event.delta)).toEqual([expect.objectContaining({ text })]);
        expect(events.filter((event) => event.type === 'message' && event.delta).map((event) => (event.type === 'message' ? event.text : '')).join('')).toBe(text);
      }
    });

    it('a turn after a failed one starts clean', () => {
      const events = translateAll([chunk('Error: 400 fake bad request'), endTurn, ...textTurn]);
      expect(events.filter((event) => event.type === 'done').map((event) => (event.type === 'done' ? event.status : ''))).toEqual(['error', 'success']);
      expect(events.find((event) => event.type === 'message')).toMatchObject({ text: 'after' });
    });
  });

  it('is deterministic', () => {
    expect(translateAll([...rejectedTurn, ...textTurn], true)).toEqual(translateAll([...rejectedTurn, ...textTurn], true));
  });
});
