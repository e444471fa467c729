// Which of the plan, subagent and compaction events Claude Code emits, as data (adapters.md, Events).
import type { EventTable } from '../../core/contract/adapter.js';

export const claudeEvents: EventTable = {
  plan: { since: '2.1.197', how: 'TaskCreate / TaskUpdate results (the list kept whole), or TodoWrite\'s input (with CLAUDE_CODE_ENABLE_TASKS=0); the tool_use stays' },
  subagent: { since: '2.1.197', how: 'system/task_started, task_progress, task_updated, task_notification around the Agent (Task) tool; parent_tool_use_id → parentToolUseId' },
  compaction: { since: '2.1.197', how: 'system/status compacting (started), system/compact_boundary with compact_metadata trigger, pre_tokens, post_tokens (completed); a refusal (2.1.197: "Not enough messages to compact.") is a progress warning' },
};
