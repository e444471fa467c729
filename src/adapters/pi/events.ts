// Which of the plan, subagent and compaction events pi emits, as data (adapters.md, Events).
import type { EventTable } from '../../core/contract/adapter.js';

export const piEvents: EventTable = {
  plan: { none: 'pi 1.6.0 has no plan or to-do tool' },
  subagent: { none: 'pi 1.6.0 has no subagent tool' },
  compaction: { none: 'compaction_start / compaction_end are translated, but the fake model did not bring 1.6.0 to compact (a reply over the context window, an overflow error): not claimed' },
};
