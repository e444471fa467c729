// Which of the plan, subagent and compaction events OpenCode emits, as data (adapters.md, Events).
import type { EventTable } from '../../core/contract/adapter.js';

export const opencodeEvents: EventTable = {
  plan: { since: '1.18.4', how: 'the todowrite tool: its todos (metadata or input) after each call, one-shot and live' },
  subagent: { since: '1.18.4', how: 'the task tool: one completed event per finished call (run prints a tool call only when it ends), with its description and the subagent\'s session id as taskId; the subagent\'s own events are not on stdout' },
  compaction: { none: 'no recording here shows one: an auto-compaction is translated from the nudge OpenCode adds after it (metadata.compaction_continue), unverified on the binary' },
};
