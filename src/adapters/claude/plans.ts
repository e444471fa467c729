// Claude's plan, as `plan` events: TodoWrite sends the whole list as its input (2.1.x with
// CLAUDE_CODE_ENABLE_TASKS=0, and older versions); TaskCreate / TaskUpdate (2.1.x's tasks) change one
// task per call, so the list is kept here and shown whole after each call that succeeded.
import type { PlanItem, TranslatedEvent } from '../../events.js';
import { planItemsOf, planStatusOf } from '../../core/translate/plan-items.js';
import { isJsonObject, stringOf, type JsonObject } from '../../schema/json.js';

export interface ClaudePlans {
  /** A tool use: TodoWrite's plan at once; a task call waits for its result. */
  toolUse(id: string, name: string, input: unknown, raw: unknown): TranslatedEvent[];
  /** A tool result (`tool_use_result` is the record's structured answer): the plan after a task call. */
  toolResult(id: string, isError: boolean, toolUseResult: unknown, raw: unknown): TranslatedEvent[];
}

export function createClaudePlans(): ClaudePlans {
  /** Tasks by id, in the order they were created. */
  const tasks = new Map<string, PlanItem>();
  /** Task calls waiting for their result, by tool use id. */
  const pending = new Map<string, { name: string; input: JsonObject }>();

  const planEvent = (items: PlanItem[], toolUseId: string, raw: unknown): TranslatedEvent => ({ type: 'plan', items, toolUseId, raw });

  return {
    toolUse(id, name, input, raw) {
      if (name === 'TodoWrite' && isJsonObject(input)) return [planEvent(planItemsOf(input.todos, { content: 'content', status: 'status' }), id, raw)];
      if ((name === 'TaskCreate' || name === 'TaskUpdate') && isJsonObject(input)) pending.set(id, { name, input });
      return [];
    },
    toolResult(id, isError, toolUseResult, raw) {
      const call = pending.get(id);
      if (!call) return [];
      pending.delete(id);
      if (isError) return [];
      if (call.name === 'TaskCreate') {
        const created = isJsonObject(toolUseResult) && isJsonObject(toolUseResult.task) ? toolUseResult.task : {};
        const taskId = stringOf(created.id);
        const subject = stringOf(created.subject) ?? stringOf(call.input.subject);
        if (taskId === undefined || !subject) return [];
        tasks.set(taskId, { content: subject, status: 'pending' });
      } else {
        const taskId = stringOf(call.input.taskId);
        const task = taskId === undefined ? undefined : tasks.get(taskId);
        // A task of an earlier run (a resumed session) is not known here: no partial list is shown.
        if (taskId === undefined || !task) return [];
        if (call.input.status === 'deleted') tasks.delete(taskId);
        else {
          const subject = stringOf(call.input.subject);
          tasks.set(taskId, { content: subject || task.content, status: call.input.status === undefined ? task.status : planStatusOf(call.input.status) });
        }
      }
      return [planEvent([...tasks.values()].map((item) => ({ ...item })), id, raw)];
    },
  };
}
