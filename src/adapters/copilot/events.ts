// Which of the plan, subagent and compaction events Copilot emits, as data (adapters.md, Events).
import type { EventTable } from '../../core/contract/adapter.js';

export const copilotEvents: EventTable = {
  plan: { since: '1.0.102', how: 'live sessions only: ACP plan updates; 1.0.102 sends one, empty, at a session\'s first tool call. Its to-dos live in the session\'s SQL todos table (the sql tool), which no JSON record shows' },
  subagent: { since: '1.0.73', how: 'JSON: subagent.started / subagent.completed around the task tool (subagent.configured between them from 1.0.85: a progress phase); data.parentToolCallId → parentToolUseId. ACP (live) marks a subagent\'s tool calls with an agent id only: no subagent events there' },
  compaction: { none: 'not seen: no recording made 1.0.102 compact' },
};
