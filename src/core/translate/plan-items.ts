// A CLI's to-do entries → plan items: the same three statuses on every CLI. An entry without text is
// left out; a status word this SDK does not know reads as pending (never as work done).
import type { PlanItem, PlanItemStatus } from '../../events.js';

const statuses: Record<string, PlanItemStatus> = {
  pending: 'pending',
  in_progress: 'in_progress',
  inProgress: 'in_progress',
  completed: 'completed',
};

/** The plan status a CLI's status word stands for. */
export function planStatusOf(value: unknown): PlanItemStatus {
  if (typeof value !== 'string') return 'pending';
  return statuses[value] ?? 'pending';
}

/** Plan items from entries of the CLI's shape: `content` and `status` are read by the field names given. */
export function planItemsOf(entries: unknown, fields: { content: string; status: string }): PlanItem[] {
  if (!Array.isArray(entries)) return [];
  const items: PlanItem[] = [];
  for (const entry of entries) {
    if (typeof entry !== 'object' || entry === null) continue;
    const record = entry as Record<string, unknown>;
    const content = record[fields.content];
    if (typeof content !== 'string' || content === '') continue;
    items.push({ content, status: planStatusOf(record[fields.status]) });
  }
  return items;
}
