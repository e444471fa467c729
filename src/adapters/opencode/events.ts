// Which of the plan, subagent and compaction events OpenCode emits, as data (adapters.md, Events).
import type { EventTable } from '../../core/contract/adapter.js';

export const opencodeEvents: EventTable = {
  plan: { since: '1.18.4', how: 'the todowrite tool: its todos (metadata or input) after each call, one-shot and live' },
  subagent: { since: '1.18.4', how: 'the task tool: one completed event per finished call (run prints a tool call only when it ends), with its description and the subagent\'s session id as taskId; the subagent\'s own events are not on stdout' },
  compaction: { since: '1.18.33', how: 'one-shot: an auto-compaction (usage near the model\'s context limit) is one completed event, from the nudge OpenCode adds after its summary call (a synthetic text, metadata.compaction_continue); no token counts. The summary step ends like a last one: the turn\'s answer is the one after it. Over ACP nothing marks it (the summary streams as an agent message of its own)' },
};
