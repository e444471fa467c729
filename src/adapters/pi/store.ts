// pi's session store: `<session dir>/--<cwd, "/" → "-">--/<ISO time>_<id>.jsonl`, the session dir being
// --session-dir (piSessionDir), PI_CODING_AGENT_SESSION_DIR, or `$PI_CODING_AGENT_DIR/sessions`
// (default ~/.pi/agent). Line 1 is the `session` header (id, cwd); then `message` entries whose
// `message` is an agent message (role user / assistant / toolResult / system) and settings changes.
// Measured on 1.6.0 in test/pi/sessions.e2e.test.ts.
import { join } from 'node:path';
import type { SessionInfo, SessionStoreSpec, StoreContext } from '../../core/contract/adapter.js';
import { asJsonObject, isJsonObject, stringOf, type JsonObject } from '../../schema/json.js';
import { cliEnvValue, cliStateDir, eventsOfRecords, filesUnder, firstRecord, modifiedAt, readJsonLines, summarize, titleOf } from '../../core/session/session-store.js';
import type { TranslatedEvent } from '../../events.js';
import { toolFactsAnnotator } from '../../core/translate/tool-facts.js';
import { piToolCatalog } from './tool-facts.js';
import { parsedJson } from '../../core/translate/tool-output.js';

async function sessionDir(ctx: StoreContext): Promise<string> {
  return ctx.opts.piSessionDir ?? cliEnvValue(ctx.opts, 'PI_CODING_AGENT_SESSION_DIR') ?? join(await cliStateDir(ctx, 'PI_CODING_AGENT_DIR', false, join('.pi', 'agent')), 'sessions');
}

const sessionFiles = async (ctx: StoreContext) => filesUnder(await sessionDir(ctx), (name) => name.endsWith('.jsonl'));

/** The file of the session with exactly this id (pi names it `<time>_<id>.jsonl`), if the store has one. */
export async function piSessionFile(ctx: StoreContext, sessionId: string): Promise<{ file: string | undefined; dir: string }> {
  const dir = await sessionDir(ctx);
  return { file: (await sessionFiles(ctx)).find((path) => path.endsWith(`_${sessionId}.jsonl`)), dir };
}

const textOf = (content: unknown): string | undefined => {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content.map((part: unknown) => (asJsonObject(part)?.type === 'text' ? stringOf(asJsonObject(part)?.text) : undefined)).filter((text) => text !== undefined);
  return texts.length ? texts.join('') : undefined;
};

function assistantEvents(message: JsonObject, record: unknown): TranslatedEvent[] {
  const parts = Array.isArray(message.content) ? message.content.filter(isJsonObject) : [];
  return parts.flatMap((part): TranslatedEvent[] => {
    if (part.type === 'text' && typeof part.text === 'string') return [{ type: 'message', role: 'assistant', text: part.text, delta: false, raw: record }];
    if (part.type === 'thinking' && typeof part.thinking === 'string') return [{ type: 'reasoning', text: part.thinking, delta: false, raw: record }];
    if (part.type === 'toolCall') return [{ type: 'tool_use', id: stringOf(part.id) ?? '', name: stringOf(part.name) ?? 'unknown', input: part.arguments, raw: record }];
    return [];
  });
}

function recordEvents(record: unknown): TranslatedEvent[] | undefined {
  const object = asJsonObject(record);
  if (object?.type === 'session') return [{ type: 'init', ...(stringOf(object.id) ? { sessionId: stringOf(object.id) } : {}), ...(stringOf(object.cwd) ? { cwd: stringOf(object.cwd) } : {}), raw: record }];
  const message = asJsonObject(object?.message);
  if (object?.type !== 'message' || !message) return undefined;
  const text = textOf(message.content);
  if (message.role === 'user' && text !== undefined) return [{ type: 'message', role: 'user', text, delta: false, raw: record }];
  if (message.role === 'assistant') {
    const events = assistantEvents(message, record);
    return events.length ? events : undefined;
  }
  if (message.role === 'toolResult') {
    return [{ type: 'tool_result', id: stringOf(message.toolCallId) ?? '', ...(stringOf(message.toolName) ? { name: stringOf(message.toolName) } : {}), output: text ?? parsedJson(message.content), isError: message.isError === true, raw: record }];
  }
  return undefined;
}

async function summary(file: string): Promise<SessionInfo | undefined> {
  const header = asJsonObject(await firstRecord(file));
  const id = stringOf(header?.id);
  if (header?.type !== 'session' || !id) return undefined;
  const prompt = (await readJsonLines(file)).map((record) => asJsonObject(asJsonObject(record)?.message)).find((message) => message?.role === 'user');
  return { id, title: titleOf(textOf(prompt?.content)), updatedAt: await modifiedAt(file), workingDirectory: stringOf(header.cwd) };
}

export const piSessionStore: SessionStoreSpec = {
  async list(ctx, cwd) {
    return summarize(await sessionFiles(ctx), summary, cwd);
  },
  async read(ctx, sessionId) {
    const { file } = await piSessionFile(ctx, sessionId);
    if (!file) return undefined;
    const withFacts = toolFactsAnnotator(piToolCatalog);
    return eventsOfRecords(await readJsonLines(file), (record) => withFacts(recordEvents(record)));
  },
};
