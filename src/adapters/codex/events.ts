// Which of the plan, subagent and compaction events Codex emits, as data (adapters.md, Events).
import type { EventTable } from '../../core/contract/adapter.js';

export const codexEvents: EventTable = {
  plan: { since: '0.145.0', how: 'update_plan, offered only with codexConfig tools.update_plan.enabled: exec todo_list items (done or not: a step in progress reads pending), app-server turn/plan/updated' },
  subagent: { none: '0.171.0 offers the model no subagent tool (spawn_agent) in exec or app-server, also with features.multi_agent' },
  compaction: { since: '0.145.0', how: 'live sessions only: the app-server\'s contextCompaction item (started, completed); exec prints nothing of an auto-compaction (model_auto_compact_token_limit)' },
};
