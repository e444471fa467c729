// Robustness: hand-made odd records (see malformed.ts) never crash the translator and are never dropped.
import { expect, it } from 'vitest';
import { createClaudeTranslator } from '../../src/adapters/claude/translate.js';
import { malformedRecords } from './malformed.js';

it.each(malformedRecords.map((record) => [JSON.stringify(record), record]))('%s → events that carry the record', (_, record) => {
  const events = createClaudeTranslator({ opts: {} }).translate(record);
  expect(events.length).toBeGreaterThan(0);
  for (const event of events) expect(event.raw).toBe(record);
});

it('unknown record types become progress "unknown" with the raw record', () => {
  const record = { type: 'brand_new_record_type' };
  expect(createClaudeTranslator({ opts: {} }).translate(record)).toEqual([
    { type: 'progress', kind: 'unknown', subtype: 'brand_new_record_type', raw: record },
  ]);
});

it('an error result of an unknown subtype is still a fatal error and a failed done', () => {
  const events = createClaudeTranslator({ opts: {} }).translate({ type: 'result', subtype: 'error_something_new', is_error: true, errors: ['boom'] });
  expect(events.map((e) => e.type)).toEqual(['usage', 'error', 'done']);
  expect(events.find((e) => e.type === 'done')).toMatchObject({ status: 'error' });
});
