// Usage arithmetic: sums for CLIs that report per call, differences for CLIs that report session totals.
import type { Usage } from '../../events.js';

export function emptyUsage(): Usage {
  return { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 };
}

export function addUsage(a: Usage, b: Usage): Usage {
  const sum: Usage = {
    inputTokens: a.inputTokens + b.inputTokens,
    cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    reasoningTokens: a.reasoningTokens + b.reasoningTokens,
  };
  if (a.costUsd !== undefined || b.costUsd !== undefined) sum.costUsd = (a.costUsd ?? 0) + (b.costUsd ?? 0);
  return sum;
}

/** This run's share of a cumulative total (never negative: a reset total counts from zero). */
export function subtractUsage(total: Usage, before: Usage | undefined): Usage {
  if (!before || total.inputTokens < before.inputTokens) return total;
  const diff: Usage = {
    inputTokens: total.inputTokens - before.inputTokens,
    cachedInputTokens: Math.max(0, total.cachedInputTokens - before.cachedInputTokens),
    outputTokens: Math.max(0, total.outputTokens - before.outputTokens),
    reasoningTokens: Math.max(0, total.reasoningTokens - before.reasoningTokens),
  };
  if (total.costUsd !== undefined) diff.costUsd = Math.max(0, total.costUsd - (before.costUsd ?? 0));
  return diff;
}
