// Codex's session store: one rollout file per thread, `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`
// (0.171.0). Its first record is `session_meta` (id, cwd); the conversation is in `event_msg`
// `item_completed` items (UserMessage, AgentMessage) and `response_item` tool calls and outputs;
// `event_msg` `token_count` carries the thread's running total (`info.total_token_usage`), the same
// sum `turn.completed` prints. Measured against the fake Responses server (test/codex/sessions.e2e.test.ts).
import type { SessionInfo, SessionStoreSpec, StoreContext } from '../../core/contract/adapter.js';
import { asJsonObject, isJsonObject, stringOf, type JsonObject } from '../../schema/json.js';
import { eventsOfRecords, firstRecord, modifiedAt, readJsonLines, summarize, titleOf } from '../../core/session/session-store.js';
import type { TranslatedEvent, Usage } from '../../events.js';
import { codexHomeFor, rolloutsIn } from './threads.js';
import { usageFrom } from './translate.js';
import { toolFactsAnnotator } from '../../core/translate/tool-facts.js';
import { codexFunctionToolCatalog } from './tool-facts.js';
import { parsedJson } from '../../core/translate/tool-output.js';

async function rolloutOf(ctx: StoreContext, threadId: string): Promise<string | undefined> {
  const rollouts = await rolloutsIn(codexHomeFor(ctx.opts));
  return rollouts.find((file) => file.endsWith(`-${threadId}.jsonl`));
}

/** The text of a stored item's content parts (`[{type: 'text' | 'Text' | 'output_text', text}]`). */
function contentText(content: unknown): string | undefined {
  if (!Array.isArray(content)) return undefined;
  const texts = content.map((part: unknown) => stringOf(asJsonObject(part)?.text)).filter((text) => text !== undefined);
  return texts.length ? texts.join('') : undefined;
}

function parsedArguments(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

function itemEvents(item: JsonObject, record: unknown): TranslatedEvent[] | undefined {
  const text = contentText(item.content);
  if (text === undefined) return undefined;
  if (item.type === 'UserMessage') return [{ type: 'message', role: 'user', text, delta: false, raw: record }];
  if (item.type === 'AgentMessage') return [{ type: 'message', role: 'assistant', text, delta: false, ...(stringOf(item.id) ? { id: stringOf(item.id) } : {}), raw: record }];
  return undefined;
}

function recordEvents(record: unknown): TranslatedEvent[] | undefined {
  const { type, payload } = asJsonObject(record) ?? {};
  if (!isJsonObject(payload)) return undefined;
  if (type === 'session_meta') {
    return [{ type: 'init', ...(stringOf(payload.id) ? { sessionId: stringOf(payload.id) } : {}), ...(stringOf(payload.cwd) ? { cwd: stringOf(payload.cwd) } : {}), raw: record }];
  }
  if (type === 'event_msg' && payload.type === 'item_completed' && isJsonObject(payload.item)) return itemEvents(payload.item, record);
  if (type === 'event_msg' && payload.type === 'token_count') {
    const usage = usageFrom(asJsonObject(payload.info)?.last_token_usage);
    return usage ? [{ type: 'usage', usage, raw: record }] : undefined;
  }
  const callId = stringOf(payload.call_id);
  if (type !== 'response_item' || callId === undefined) return undefined;
  if (payload.type === 'function_call' || payload.type === 'custom_tool_call') {
    return [{ type: 'tool_use', id: callId, name: stringOf(payload.name) ?? 'unknown', input: parsedArguments(payload.arguments ?? payload.input), raw: record }];
  }
  if (payload.type === 'function_call_output' || payload.type === 'custom_tool_call_output') {
    return [{ type: 'tool_result', id: callId, output: parsedJson(payload.output), isError: false, raw: record }];
  }
  return undefined;
}

/** The thread's last running total in its rollout. */
function lastTotal(records: readonly unknown[]): Usage | undefined {
  for (let index = records.length - 1; index >= 0; index -= 1) {
    const payload = asJsonObject(asJsonObject(records[index])?.payload);
    if (payload?.type === 'token_count') {
      const total = usageFrom(asJsonObject(payload.info)?.total_token_usage);
      if (total) return total;
    }
  }
  return undefined;
}

async function summary(file: string): Promise<SessionInfo | undefined> {
  const meta = asJsonObject(asJsonObject(await firstRecord(file))?.payload);
  const id = stringOf(meta?.id);
  if (!id) return undefined;
  // The first prompt: the first UserMessage item (the leading user-role response items are context).
  const first = (await readJsonLines(file)).find((record) => {
    const payload = asJsonObject(asJsonObject(record)?.payload);
    return payload?.type === 'item_completed' && asJsonObject(payload.item)?.type === 'UserMessage';
  });
  const item = asJsonObject(asJsonObject(asJsonObject(first)?.payload)?.item);
  return { id, title: titleOf(contentText(item?.content)), updatedAt: await modifiedAt(file), workingDirectory: stringOf(meta?.cwd) };
}

export const codexSessionStore: SessionStoreSpec = {
  async list(ctx, cwd) {
    return summarize(await rolloutsIn(codexHomeFor(ctx.opts)), summary, cwd);
  },
  async read(ctx, sessionId) {
    const file = await rolloutOf(ctx, sessionId);
    if (!file) return undefined;
    // The rollout keeps the model's function calls, not exec's items: their names are the model's.
    const withFacts = toolFactsAnnotator(codexFunctionToolCatalog);
    return eventsOfRecords(await readJsonLines(file), (record) => withFacts(recordEvents(record)));
  },
  async usageTotal(ctx, sessionId) {
    const file = await rolloutOf(ctx, sessionId);
    return file ? lastTotal(await readJsonLines(file)) : undefined;
  },
};
