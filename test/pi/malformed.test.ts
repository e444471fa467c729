// HAND-MADE input, not pi output: records pi could send in other versions or when something breaks,
// to show the translator never crashes and never drops a record. Real pi output is in fixtures/pi/.
import { describe, expect, it } from 'vitest';
import { replay } from './fixtures.js';
import { ofType } from '../support/events.js';

describe('pi translator robustness (hand-made records)', () => {
  it('unknown record types and odd values become progress/unknown with the raw record', () => {
    const odd = [{ type: 'brand_new_event', x: 1 }, { no: 'type' }, 'a string', 42, null, [1, 2], { type: 'message_update', assistantMessageEvent: { type: 'future_delta' } }];
    const events = replay(odd);
    expect(events.map((event) => event.type)).toEqual(Array(odd.length).fill('progress'));
    expect(events.map((event) => event.raw)).toEqual(odd);
    expect(ofType(events, 'progress').every((event) => event.kind === 'unknown')).toBe(true);
  });

  it('records missing their fields do not crash', () => {
    const events = replay([
      { type: 'session' },
      { type: 'message_end', message: { role: 'assistant' } },
      { type: 'message_end', message: { role: 'assistant', content: 'plain string', usage: {} } },
      { type: 'tool_execution_start' },
      { type: 'tool_execution_end', result: { content: [{ type: 'image', data: 'x' }] } },
      { type: 'auto_retry_start' },
      { type: 'agent_end' },
    ]);
    expect(ofType(events, 'done')).toEqual([expect.objectContaining({ status: 'success', text: 'plain string' })]);
    expect(ofType(events, 'tool_result')[0]!.output).toEqual({ content: [{ type: 'image', data: 'x' }] });
  });

  // pi before 0.75.4 had no `willRetry`: agent_end came before auto_retry_start (see cli-notes).
  it('old pi: a retryable failure waits for auto_retry_end instead of ending at agent_end', () => {
    const failed = { type: 'message_end', message: { role: 'assistant', content: [], stopReason: 'error', errorMessage: '500 Internal error' } };
    const events = replay([
      { type: 'session', id: 's1' },
      failed,
      { type: 'agent_end', messages: [] },
      { type: 'auto_retry_start', attempt: 1, maxAttempts: 1, delayMs: 10, errorMessage: '500 Internal error' },
      failed,
      { type: 'agent_end', messages: [] },
      { type: 'auto_retry_end', success: false, attempt: 1, finalError: '500 Internal error' },
    ]);
    expect(events.findIndex((event) => event.type === 'done')).toBe(events.length - 1);
    expect(ofType(events, 'error').filter((event) => event.fatal)).toEqual([expect.objectContaining({ code: 'server', httpStatus: 500 })]);
  });

  it('old pi: a 401 ends the run at agent_end', () => {
    const events = replay([
      { type: 'message_end', message: { role: 'assistant', content: [], stopReason: 'error', errorMessage: '401 Invalid API key' } },
      { type: 'agent_end', messages: [] },
    ]);
    expect(ofType(events, 'done')).toEqual([expect.objectContaining({ status: 'error' })]);
    expect(ofType(events, 'error').filter((event) => event.fatal)).toEqual([expect.objectContaining({ code: 'auth' })]);
  });

  it('an aborted answer is a fatal aborted error', () => {
    const events = replay([
      { type: 'message_end', message: { role: 'assistant', content: [], stopReason: 'aborted', errorMessage: 'Request was aborted.' } },
      { type: 'agent_end', messages: [], willRetry: false },
      { type: 'agent_settled', aborted: true },
    ]);
    expect(ofType(events, 'error').filter((event) => event.fatal)).toEqual([expect.objectContaining({ code: 'aborted' })]);
    expect(ofType(events, 'done')).toHaveLength(1);
  });
});
