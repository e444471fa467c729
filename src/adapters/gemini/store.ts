// Gemini's session store (0.52.0 to 0.61.0), where home.ts links each run's home to (the user's Gemini
// home, or the coder's state dir under strict isolation):
// `.gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl`, `<project>` being a short name of the
// working directory, whose path `.gemini/tmp/<project>/.project_root` holds. Line 1 is the header
// `{sessionId, projectHash, startTime, lastUpdated, kind}`; then message records `{id, type:
// "user"|"gemini"|…, content, thoughts?, toolCalls?}` (a record whose id came before replaces it) and
// `{$set: {…}}` updates, the first of which lists the messages so far (the session context among them).
import { basename, dirname, join } from 'node:path';
import type { SessionInfo, SessionStoreSpec, StoreContext } from '../../core/contract/adapter.js';
import { eventsOfRecords, filesUnder, firstRecord, modifiedAt, readJsonLines, summarize, titleOf } from '../../core/session/session-store.js';
import { readStoreText } from '../../core/session/store-file.js';
import type { TranslatedEvent } from '../../events.js';
import { asJsonObject, isJsonObject, stringOf, type JsonObject } from '../../schema/json.js';
import { storeDirOf } from './home.js';
import { toolFactsAnnotator } from '../../core/translate/tool-facts.js';
import { parsedJson } from '../../core/translate/tool-output.js';
import { geminiToolCatalog } from './tools.js';

const chatFiles = async (ctx: StoreContext) =>
  (await filesUnder(join(await storeDirOf(ctx), 'tmp'), (name) => name.startsWith('session-') && name.endsWith('.jsonl'))).filter((file) => basename(dirname(file)) === 'chats');

/** The CLI's own first user message: the date, the OS and a listing of the workspace. */
const isSessionContext = (text: string) => text.startsWith('<session_context>');

const textOf = (content: unknown): string | undefined => {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content.map((part) => stringOf(asJsonObject(part)?.text)).filter((text): text is string => text !== undefined);
  return texts.length ? texts.join('') : undefined;
};

/** The messages in their order, each in its last version. */
function messagesOf(records: readonly unknown[]): unknown[] {
  const byId = new Map<string, unknown>();
  const loose: unknown[] = [];
  const put = (record: unknown) => {
    const id = stringOf(asJsonObject(record)?.id);
    if (id === undefined) loose.push(record);
    else byId.set(id, record);
  };
  for (const record of records.slice(1)) {
    const set = asJsonObject(asJsonObject(record)?.$set);
    if (set) {
      if (Array.isArray(set.messages)) set.messages.forEach(put);
      continue;
    }
    put(record);
  }
  return [...byId.values(), ...loose];
}

function toolEvents(call: JsonObject, record: unknown): TranslatedEvent[] {
  const id = stringOf(call.id) ?? '';
  const name = stringOf(call.name) ?? 'unknown';
  const status = stringOf(call.status);
  const events: TranslatedEvent[] = [{ type: 'tool_use', id, name, input: call.args, raw: record }];
  if (status) events.push({ type: 'tool_result', id, name, output: parsedJson(call.resultDisplay ?? call.result), isError: status !== 'success', raw: record });
  return events;
}

function recordEvents(record: unknown): TranslatedEvent[] | undefined {
  const message = asJsonObject(record);
  const text = textOf(message?.content);
  if (message?.type === 'user') {
    if (text === undefined) return Array.isArray(message.content) ? [] : undefined;
    return isSessionContext(text) ? [] : [{ type: 'message', role: 'user', text, delta: false, raw: record }];
  }
  if (message?.type !== 'gemini') return undefined;
  const events: TranslatedEvent[] = [];
  for (const thought of Array.isArray(message.thoughts) ? message.thoughts.filter(isJsonObject) : []) {
    const thoughtText = [stringOf(thought.subject), stringOf(thought.description)].filter(Boolean).join(': ');
    if (thoughtText) events.push({ type: 'reasoning', text: thoughtText, delta: false, raw: record });
  }
  if (text) events.push({ type: 'message', role: 'assistant', text, delta: false, raw: record });
  for (const call of Array.isArray(message.toolCalls) ? message.toolCalls.filter(isJsonObject) : []) events.push(...toolEvents(call, record));
  return events;
}

async function workingDirectoryOf(file: string): Promise<string | undefined> {
  const root = await readStoreText(join(dirname(dirname(file)), '.project_root'), 64 * 1024).catch(() => undefined);
  return root?.trim() || undefined;
}

async function summary(file: string): Promise<SessionInfo | undefined> {
  const header = asJsonObject(await firstRecord(file));
  const id = stringOf(header?.sessionId);
  if (!id) return undefined;
  const prompt = messagesOf(await readJsonLines(file))
    .map((record) => asJsonObject(record))
    .map((record) => (record?.type === 'user' ? textOf(record.content) : undefined))
    .find((text) => text !== undefined && !isSessionContext(text));
  return { id, title: titleOf(prompt), updatedAt: await modifiedAt(file), workingDirectory: await workingDirectoryOf(file) };
}

/** The newest file of the session (a resumed session may start a file of its own). */
export async function geminiSessionFile(ctx: StoreContext, sessionId: string): Promise<string | undefined> {
  let newest: { file: string; at: string } | undefined;
  for (const file of await chatFiles(ctx)) {
    // The name holds the id's first 8 characters: only those files are opened.
    if (!file.endsWith(`-${sessionId.slice(0, 8)}.jsonl`)) continue;
    if (stringOf(asJsonObject(await firstRecord(file))?.sessionId) !== sessionId) continue;
    const at = await modifiedAt(file);
    if (!newest || at > newest.at) newest = { file, at };
  }
  return newest?.file;
}

/** One entry per session id: the newest file's. */
function newestPerId(sessions: SessionInfo[]): SessionInfo[] {
  const byId = new Map<string, SessionInfo>();
  for (const session of sessions) {
    const known = byId.get(session.id);
    if (!known || session.updatedAt > known.updatedAt) byId.set(session.id, session);
  }
  return [...byId.values()];
}

export const geminiSessionStore: SessionStoreSpec = {
  async list(ctx, cwd) {
    return newestPerId(await summarize(await chatFiles(ctx), summary, cwd));
  },
  async read(ctx, sessionId) {
    const file = await geminiSessionFile(ctx, sessionId);
    if (!file) return undefined;
    const records = await readJsonLines(file);
    const header = asJsonObject(records[0]);
    const init: TranslatedEvent = { type: 'init', sessionId, raw: header };
    const withFacts = toolFactsAnnotator(geminiToolCatalog());
    return [init, ...eventsOfRecords(messagesOf(records), (record) => withFacts(recordEvents(record)))];
  },
};
