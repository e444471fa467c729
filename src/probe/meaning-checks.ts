// What the meaning canaries (src/probe/meaning-canaries.ts) must find in a run's events: the plans
// the model wrote, a subagent from its start to its end with the events inside it marked as its
// own, a compaction. Each check adds what it misses to `missing`, what it finds wrong to `misclassified`.
import { isDeepStrictEqual } from 'node:util';
import type { CompactionEvent, CoderStreamEvent, PlanEvent, PlanItem, SubagentEvent, ToolResultEvent, ToolUseEvent } from '../events.js';
import type { CanaryExpectation } from './canaries.js';
import { CANARY_SUBAGENT_MARKER } from './meaning-canaries.js';

type Events = readonly CoderStreamEvent<string>[];

const show = (items: readonly PlanItem[] | undefined) => (items ? items.map((item) => `${item.content}: ${item.status}`).join(', ') : 'none');

/** Every plan event lists the scripted steps; the last one, and RunResult.plan, are the last plan written. */
export function checkPlan(events: Events, resultPlan: PlanItem[] | undefined, written: readonly PlanItem[][], missing: string[], misclassified: string[]): void {
  const plans = events.filter((event): event is PlanEvent<string> => event.type === 'plan');
  const last = written.at(-1);
  if (plans.length < written.length) missing.push(`a plan event per plan written (${written.length}; got ${plans.length})`);
  const contents = last?.map((item) => item.content);
  for (const plan of plans) {
    if (!isDeepStrictEqual(plan.items.map((item) => item.content), contents)) misclassified.push(`a plan event lists ${show(plan.items)}; expected the steps ${contents?.join(', ')}`);
  }
  if (plans.length && !isDeepStrictEqual(plans.at(-1)?.items, last)) missing.push(`the last plan event as written: ${show(last)} (got ${show(plans.at(-1)?.items)})`);
  if (!isDeepStrictEqual(resultPlan, last)) missing.push(`RunResult.plan ${show(last)} (got ${show(resultPlan)})`);
}

/** The task tool use, its subagent's phases, and (where printed) the subagent's shell call marked with the task's id. */
export function checkSubagent(events: Events, expected: NonNullable<CanaryExpectation['subagent']>, missing: string[], misclassified: string[]): void {
  const task = events.find((event): event is ToolUseEvent<string> => event.type === 'tool_use' && event.tool?.kind === 'task');
  if (!task) {
    missing.push('a tool_use of kind task');
    return;
  }
  if (task.parentToolUseId !== undefined) misclassified.push(`the task tool_use carries parentToolUseId "${task.parentToolUseId}"`);
  const subagents = events.filter((event): event is SubagentEvent<string> => event.type === 'subagent');
  for (const phase of expected.phases) if (!subagents.some((event) => event.phase === phase)) missing.push(`a subagent event of phase ${phase}`);
  for (const event of subagents) {
    if (event.toolUseId !== undefined && event.toolUseId !== task.id) misclassified.push(`a subagent ${event.phase} event names tool use "${event.toolUseId}", not the task's "${task.id}"`);
    if (event.phase === 'completed' && event.status !== undefined && event.status !== 'success') misclassified.push(`the subagent completed with status ${event.status}`);
  }
  if (!expected.innerTool) return;
  const inner = events.find((event): event is ToolUseEvent<string> => event.type === 'tool_use' && event.name === expected.innerTool);
  if (!inner) {
    missing.push(`the subagent's tool_use "${expected.innerTool}"`);
    return;
  }
  if (inner.parentToolUseId !== task.id) missing.push(`parentToolUseId "${task.id}" on the subagent's tool_use (got ${inner.parentToolUseId ?? 'none'})`);
  const result = events.find((event): event is ToolResultEvent<string> => event.type === 'tool_result' && event.id === inner.id);
  if (!result) missing.push(`the tool_result of the subagent's "${expected.innerTool}"`);
  else {
    if (result.parentToolUseId !== task.id) missing.push(`parentToolUseId "${task.id}" on the subagent's tool_result (got ${result.parentToolUseId ?? 'none'})`);
    if (!JSON.stringify(result.output ?? '').includes(CANARY_SUBAGENT_MARKER)) misclassified.push(`the subagent's command did not run (its tool_result lacks "${CANARY_SUBAGENT_MARKER}")`);
  }
}

/** The compaction's phases, and the tokens before and after on its end where the CLI says them. */
export function checkCompaction(events: Events, expected: NonNullable<CanaryExpectation['compaction']>, missing: string[]): void {
  const compactions = events.filter((event): event is CompactionEvent<string> => event.type === 'compaction');
  for (const phase of expected.phases) if (!compactions.some((event) => event.phase === phase)) missing.push(`a compaction event of phase ${phase}`);
  const completed = compactions.find((event) => event.phase === 'completed');
  if (completed && expected.tokens && (typeof completed.tokensBefore !== 'number' || typeof completed.tokensAfter !== 'number')) {
    missing.push(`tokens before and after on the completed compaction (got ${completed.tokensBefore ?? 'none'} → ${completed.tokensAfter ?? 'none'})`);
  }
}
