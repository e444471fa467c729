// Robustness on hand-made records (see malformed.ts): no crash, nothing dropped, unknowns kept raw.
import { describe, expect, it } from 'vitest';
import { malformedRecords } from './malformed.js';
import { replayRecords } from './replay.js';
import { ofType } from '../support/events.js';

describe('copilot translator on malformed input (hand-made)', () => {
  it('never throws and yields at least one event per record, each with its raw record', () => {
    for (const record of malformedRecords) {
      const events = replayRecords([record], { streamPartialMessages: true });
      expect(events.length, JSON.stringify(record)).toBeGreaterThan(0);
      expect(events.every((event) => event.raw === record)).toBe(true);
    }
  });

  it('turns unknown record types into progress/unknown with the record', () => {
    const record = { type: 'some.future_event', data: { anything: true } };
    expect(replayRecords([record])).toEqual([{ type: 'progress', kind: 'unknown', subtype: 'some.future_event', raw: record }]);
    expect(replayRecords([null])).toEqual([{ type: 'progress', kind: 'unknown', raw: null }]);
  });

  it('a session error without details is still a fatal error', () => {
    expect(ofType(replayRecords([{ type: 'session.error', data: {} }]), 'error')[0]).toMatchObject({ fatal: true, code: 'server' });
  });

  it('a result without exitCode is not a success', () => {
    expect(ofType(replayRecords([{ type: 'result' }]), 'done')[0]).toMatchObject({ status: 'error' });
  });
});
