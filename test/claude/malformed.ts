// HAND-MADE input, not CLI output: records the real claude never printed (or not yet), to prove the
// translator degrades to progress events instead of crashing or dropping them.
export const malformedRecords: unknown[] = [
  null,
  42,
  'a plain string',
  [],
  {},
  { type: 'brand_new_record_type', payload: { x: 1 } },
  { type: 'system' },
  { type: 'system', subtype: 'future_subtype', detail: 'something' },
  { type: 'assistant' },
  { type: 'assistant', message: { content: 'not an array' } },
  { type: 'assistant', message: { id: 'm1', content: [{ type: 'future_block', data: 1 }] } },
  { type: 'user', message: { content: [{ type: 'tool_result' }] } },
  { type: 'stream_event' },
  { type: 'stream_event', event: { type: 'content_block_delta', delta: { type: 'citations_delta' } } },
  { type: 'result' },
  { type: 'result', subtype: 'error_something_new', is_error: true, usage: 'bogus' },
];
