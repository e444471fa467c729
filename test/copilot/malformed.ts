// HAND-MADE input, not CLI output: records shaped to test that the translator survives what a future
// or broken CLI might print. Nothing here claims to be recorded from copilot.
export const malformedRecords: unknown[] = [
  null,
  42,
  'a bare string',
  [],
  {},
  { type: 7 },
  { type: 'assistant.message' },
  { type: 'assistant.message', data: 'not an object' },
  { type: 'tool.execution_complete', data: {} },
  { type: 'tool.execution_complete', data: { toolCallId: 'never-started', success: false } },
  { type: 'session.error', data: {} },
  { type: 'model.call_failure', data: null },
  { type: 'some.future_event', data: { anything: true } },
  { type: 'result' },
];
