// The probe's history check and the store readers' tolerance, on records shaped like the stores'.
import { describe, expect, it } from 'vitest';
import type { CoderStreamEvent } from '../../src/events.js';
import { eventsOfRecords, storeRecordEvent } from '../../src/core/session/session-store.js';
import { checkStoredHistory } from '../../src/probe/analyse.js';

const prompt = 'Run the probe command, then answer.';
const tool = 'bash';
const event = (fields: Record<string, unknown>) => ({ provider: 'pi', ts: 0, raw: null, ...fields }) as CoderStreamEvent<string>;
const listed = [{ id: 's1', title: prompt, updatedAt: '2026-01-01T00:00:00.000Z', workingDirectory: '/w' }];
const stored = [event({ type: 'message', role: 'user', text: prompt, delta: false }), event({ type: 'tool_use', id: 'c', name: 'bash', input: {} })];

describe('probe: the stored history check', () => {
  it('finds nothing wrong when the session is listed and read back with its prompt and shell call', () => {
    expect(checkStoredHistory({ prompt }, tool, 's1', listed, stored)).toEqual([]);
  });

  it('names what the store lacks', () => {
    expect(checkStoredHistory({ prompt }, tool, 's2', listed, [])).toEqual([
      'session s2 in listSessions() of the working directory',
      'the prompt in readSession()',
      'the "bash" call in readSession()',
    ]);
    expect(checkStoredHistory({ prompt }, tool, 's1', [{ ...listed[0]!, title: undefined }], stored)).toEqual(['the prompt as the stored session\'s title (got none)']);
  });
});

describe('store readers: unknown records', () => {
  it('become progress events with the record as raw, also when the mapping throws or the line is not JSON', () => {
    const records = [{ type: 'brand_new', x: 1 }, 'not json', { type: 'boom' }];
    const events = eventsOfRecords(records, (record) => {
      if ((record as { type?: string }).type === 'boom') throw new Error('cannot read');
      return undefined;
    });
    expect(events).toEqual([
      { type: 'progress', kind: 'other', subtype: 'brand_new', raw: records[0] },
      { type: 'progress', kind: 'other', raw: 'not json' },
      { type: 'progress', kind: 'other', subtype: 'boom', raw: records[2] },
    ]);
    expect(storeRecordEvent(null)).toEqual({ type: 'progress', kind: 'other', raw: null });
  });
});
