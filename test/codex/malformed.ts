// HAND-MADE input, not CLI output: records the real binary never printed, for robustness tests only.
export const malformedRecords: unknown[] = [
  'not json at all',
  null,
  42,
  [],
  {},
  { type: 'thread.started' },
  { type: 'item.started' },
  { type: 'item.completed', item: 'not an object' },
  { type: 'item.completed', item: { id: 'item_9', type: 'todo_list', items: [] } },
  { type: 'item.started', item: { id: 'item_8', type: 'brand_new_item' } },
  { type: 'item.updated', item: { id: 'item_0', type: 'command_execution' } },
  { type: 'turn.completed' },
  { type: 'turn.failed' },
  { type: 'error' },
  { type: 'something.new', payload: { x: 1 } },
  // A tool that completes without a start record (e.g. a line lost before it).
  { type: 'item.completed', item: { id: 'item_7', type: 'mcp_tool_call', server: 's', tool: 't', arguments: {}, result: null, error: { message: 'denied' }, status: 'failed' } },
];
