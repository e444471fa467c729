// Which of the plan, subagent and compaction events Copilot emits, as data (adapters.md, Events).
import type { EventTable } from '../../core/contract/adapter.js';

export const copilotEvents: EventTable = {
  plan: { since: '1.0.102', how: 'live sessions only: ACP plan updates; 1.0.102 sends one, empty, at a session\'s first tool call. Its to-dos live in the session\'s SQL todos table (the sql tool), which no JSON record shows' },
  subagent: { since: '1.0.73', how: 'JSON: subagent.started / subagent.completed around the task tool (subagent.configured between them from 1.0.85: a progress phase); data.parentToolCallId → parentToolUseId. ACP (live) marks a subagent\'s tool calls with an agent id only: no subagent events there' },
  compaction: { none: '1.0.102 compacts (usage near COPILOT_PROVIDER_MAX_PROMPT_TOKENS: a background summary call) but prints no record of it, in JSON or over ACP; /compact over ACP answers only with its text ("Compacted conversation history and removed N messages and M tokens.")' },
};
