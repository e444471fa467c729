// Copilot's token counts are not on stdout (its `result` record has premium requests and timings
// only). `--usage-output-file <path>` makes it write, at exit, the session's metrics as JSON:
// `modelMetrics: { <model>: { usage: { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens,
// reasoningTokens } } }`, cumulative over the session (a resumed run's file counts the earlier runs
// too). `inputTokens` already includes the cache reads (the model's `prompt_tokens`). Measured on
// 1.0.102 against the fake chat-completions server (test/copilot/e2e.test.ts).
import type { SessionUsageReport } from '../../core/contract/adapter.js';
import { readStoreText } from '../../core/session/store-file.js';
import { asJsonObject, countOf } from '../../schema/json.js';
import type { Usage } from '../../events.js';


/** The session's total over every model it used; undefined when the file holds no metrics. */
export function sessionUsageFrom(file: unknown): Usage | undefined {
  const models = asJsonObject(asJsonObject(file)?.modelMetrics);
  if (!models) return undefined;
  const total: Usage = { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0 };
  for (const metrics of Object.values(models)) {
    const usage = asJsonObject(asJsonObject(metrics)?.usage);
    total.inputTokens += countOf(usage?.inputTokens);
    total.cachedInputTokens += countOf(usage?.cacheReadTokens);
    total.outputTokens += countOf(usage?.outputTokens);
    total.reasoningTokens += countOf(usage?.reasoningTokens);
  }
  return total;
}

/** Reads the file the CLI wrote at exit; nothing when it wrote none (killed before its exit). */
export async function readUsageFile(path: string): Promise<SessionUsageReport | undefined> {
  const text = await readStoreText(path, 16 * 1024 * 1024);
  if (text.trim() === '') return undefined;
  const raw: unknown = JSON.parse(text);
  const sessionTotal = sessionUsageFrom(raw);
  return sessionTotal ? { sessionTotal, raw } : undefined;
}
