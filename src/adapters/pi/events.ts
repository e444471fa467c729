// Which of the plan, subagent and compaction events pi emits, as data (adapters.md, Events).
import type { EventTable } from '../../core/contract/adapter.js';

export const piEvents: EventTable = {
  plan: { none: 'pi 1.6.0 has no plan or to-do tool' },
  subagent: { none: 'pi 1.6.0 has no subagent tool' },
  compaction: { since: '1.6.0', how: 'compaction_start / compaction_end (reason threshold, overflow or manual; tokensBefore, estimatedTokensAfter, the summary call\'s usage). Auto-compaction comes before a model call once the context passes the window less compaction.reserveTokens, when there is more than compaction.keepRecentTokens to summarize' },
};
