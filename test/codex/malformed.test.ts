// Robustness on hand-made records (test/codex/malformed.ts): never a crash, never a dropped record.
import { describe, expect, it } from 'vitest';
import { codexAdapter } from '../../src/adapters/codex/index.js';
import { malformedRecords } from './malformed.js';

describe('codex translator on malformed input', () => {
  it('turns every record into at least one event that carries it', () => {
    const translator = codexAdapter.createTranslator({ opts: {} });
    for (const record of malformedRecords) {
      const events = translator.translate(record);
      expect(events.length).toBeGreaterThan(0);
      for (const event of events) expect(event.raw).toBe(record);
    }
  });

  it('unknown types are progress/unknown', () => {
    const translator = codexAdapter.createTranslator({ opts: {} });
    expect(translator.translate({ type: 'something.new' })).toEqual([{ type: 'progress', kind: 'unknown', subtype: 'something.new', raw: { type: 'something.new' } }]);
  });

  it('a failed MCP call with no start record still yields tool_use then an isError tool_result', () => {
    const translator = codexAdapter.createTranslator({ opts: {} });
    const record = malformedRecords.at(-1);
    const events = translator.translate(record);
    expect(events.map((event) => event.type)).toEqual(['tool_use', 'tool_result']);
    expect(events[1]).toMatchObject({ name: 'mcp__s__t', isError: true, output: 'denied' });
  });

  it('"Reconnecting... waiting for network" is a retry, not an error', () => {
    const translator = codexAdapter.createTranslator({ opts: {} });
    const [event] = translator.translate({ type: 'error', message: 'Reconnecting... waiting for network (Connection failed)' });
    expect(event).toMatchObject({ type: 'progress', kind: 'retry' });
  });
});
