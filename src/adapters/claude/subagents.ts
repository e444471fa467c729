// Claude's `system/task_*` records → `subagent` events (2.1.197–2.1.332): task_started when the Agent
// (Task) tool starts one, task_progress as it works, task_updated with a patch of its state, and
// task_notification when it ended, with its summary and usage ({ total_tokens, tool_uses, duration_ms }).
import type { SubagentEvent, TranslatedEvent } from '../../events.js';
import { isJsonObject, stringOf, type JsonObject } from '../../schema/json.js';

const phases: Record<string, SubagentEvent['phase']> = {
  task_started: 'started',
  task_progress: 'progress',
  task_updated: 'progress',
  task_notification: 'completed',
};

/** task_notification's `status` (the three 2.1.332 sends). */
const endStatuses: Record<string, NonNullable<SubagentEvent['status']>> = {
  completed: 'success',
  failed: 'error',
  stopped: 'cancelled',
};

const numberOf = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** The subagent event of a `system/task_*` record; undefined for another subtype or one without a task id. */
export function subagentEvent(subtype: string, record: JsonObject): TranslatedEvent | undefined {
  const phase = phases[subtype];
  const taskId = stringOf(record.task_id);
  if (!phase || taskId === undefined) return undefined;
  const event: Extract<TranslatedEvent, { type: 'subagent' }> = { type: 'subagent', phase, taskId, raw: record };
  const toolUseId = stringOf(record.tool_use_id);
  if (toolUseId !== undefined) event.toolUseId = toolUseId;
  const description = stringOf(record.description);
  if (description !== undefined) event.description = description;
  const extra: JsonObject = {};
  if (record.subagent_type !== undefined) extra.subagentType = record.subagent_type;
  if (subtype === 'task_updated' && isJsonObject(record.patch)) {
    extra.patch = record.patch;
    const status = stringOf(record.patch.status);
    if (status !== undefined) event.message = status;
  }
  if (phase === 'completed') {
    const status = endStatuses[stringOf(record.status) ?? ''];
    if (status) event.status = status;
    const summary = stringOf(record.summary);
    if (summary !== undefined) event.message = summary;
  }
  if (isJsonObject(record.usage)) {
    const totalTokens = numberOf(record.usage.total_tokens);
    if (totalTokens !== undefined) event.usage = { totalTokens };
    if (record.usage.tool_uses !== undefined) extra.toolUses = record.usage.tool_uses;
    if (record.usage.duration_ms !== undefined) extra.durationMs = record.usage.duration_ms;
  }
  if (Object.keys(extra).length) event.extra = extra;
  return event;
}
