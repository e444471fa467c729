// The usage of one claude run, from its `result` record.
//
// Measured on 2.1.332: `result.usage` counts this process only, but after --resume (and on forks)
// `total_cost_usd` and `modelUsage` are totals of the whole session. Error results
// (error_max_budget_usd) report an all-zero `usage` while `modelUsage` holds what was spent.
import { countOf, isJsonObject, type JsonObject } from '../../schema/json.js';
import type { Usage } from '../../events.js';


interface TokenCounts {
  input: number;
  cacheWrite: number;
  cacheRead: number;
  output: number;
  thinking: number;
}

function fromApiUsage(usage: JsonObject): TokenCounts {
  const details = isJsonObject(usage.output_tokens_details) ? usage.output_tokens_details : {};
  return {
    input: countOf(usage.input_tokens),
    cacheWrite: countOf(usage.cache_creation_input_tokens),
    cacheRead: countOf(usage.cache_read_input_tokens),
    output: countOf(usage.output_tokens),
    thinking: countOf(details.thinking_tokens),
  };
}

function fromModelUsage(modelUsage: JsonObject): TokenCounts {
  const sum: TokenCounts = { input: 0, cacheWrite: 0, cacheRead: 0, output: 0, thinking: 0 };
  for (const entry of Object.values(modelUsage)) {
    if (!isJsonObject(entry)) continue;
    sum.input += countOf(entry.inputTokens);
    sum.cacheWrite += countOf(entry.cacheCreationInputTokens);
    sum.cacheRead += countOf(entry.cacheReadInputTokens);
    sum.output += countOf(entry.outputTokens);
    sum.thinking += countOf(entry.thinkingTokens);
  }
  return sum;
}

/**
 * Token counts weighted by Anthropic's price ratios, which every Claude model shares
 * (output 5×, cache write 1.25×, cache read 0.1× the input price): proportional to cost.
 */
function priceWeight(t: TokenCounts): number {
  return t.input + 1.25 * t.cacheWrite + 0.1 * t.cacheRead + 5 * t.output;
}

const isZero = (t: TokenCounts) => t.input + t.cacheWrite + t.cacheRead + t.output === 0;

/** This run's usage. Cost is this run's share of the session cost when the CLI reports a session total. */
export function runUsageFromResult(result: JsonObject): Usage {
  const apiUsage = isJsonObject(result.usage) ? fromApiUsage(result.usage) : undefined;
  const session = isJsonObject(result.modelUsage) ? fromModelUsage(result.modelUsage) : undefined;
  const run = apiUsage && !isZero(apiUsage) ? apiUsage : session ?? apiUsage ?? fromApiUsage({});

  const usage: Usage = {
    // Input counts everything the model read, cached reads and cache writes included.
    inputTokens: run.input + run.cacheWrite + run.cacheRead,
    cachedInputTokens: run.cacheRead,
    outputTokens: run.output,
    reasoningTokens: run.thinking,
  };
  if (typeof result.total_cost_usd === 'number') {
    const sessionWeight = session ? priceWeight(session) : 0;
    const runWeight = priceWeight(run);
    usage.costUsd = sessionWeight > runWeight ? result.total_cost_usd * (runWeight / sessionWeight) : result.total_cost_usd;
  }
  return usage;
}
