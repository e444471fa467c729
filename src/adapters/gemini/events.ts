// Which of the plan, subagent and compaction events Gemini's stream-json gives (0.61.0, measured).
import type { EventTable } from '../../core/contract/adapter.js';

export const geminiEvents: EventTable = {
  plan: { none: 'write_todos is an ordinary tool_use (kind plan); the list is only in its input, and no record says how it stands later' },
  subagent: { none: 'invoke_agent is one tool_use/tool_result pair (kind task); the subagent\'s own turns and tools are not printed (only counted in result.stats.tool_calls)' },
  compaction: { none: '0.61.0 compresses at the start of a prompt (model.compressionThreshold; two side calls) and prints no record of it, in stream-json or over ACP; its ACP server offers no /compress' },
};
