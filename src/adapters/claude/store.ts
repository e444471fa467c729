// Claude Code's session store: `$CLAUDE_CONFIG_DIR/projects/<cwd, "/" → "->/<session id>.jsonl` (2.1.x),
// one transcript per session. Its `user` and `assistant` records carry `message` as stream-json does
// (so the translator reads them), each with `cwd` and `sessionId`; the rest (attachments, queue
// operations, api-request shapes, cost state) are bookkeeping. Measured in test/claude/sessions.e2e.test.ts.
import { basename, join } from 'node:path';
import type { SessionInfo, SessionStoreSpec, StoreContext } from '../../core/contract/adapter.js';
import { asJsonObject, stringOf } from '../../schema/json.js';
import { cliStateDir, eventsOfRecords, filesUnder, modifiedAt, readJsonLines, summarize, titleOf } from '../../core/session/session-store.js';
import type { TranslatedEvent } from '../../events.js';
import { claudeTranslation } from './translation.js';

const transcripts = async (ctx: StoreContext) => filesUnder(join(await cliStateDir(ctx, 'CLAUDE_CONFIG_DIR', true, '.claude'), 'projects'), (name) => name.endsWith('.jsonl'));

/** A prompt the user typed: a `user` record whose content is text, not tool results. */
function promptOf(record: unknown): string | undefined {
  const object = asJsonObject(record);
  if (object?.type !== 'user') return undefined;
  const content = asJsonObject(object.message)?.content;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content) || content.length === 0) return undefined;
  const texts = content.map((block: unknown) => (asJsonObject(block)?.type === 'text' ? stringOf(asJsonObject(block)?.text) : undefined));
  return texts.every((text) => text !== undefined) ? texts.join('') : undefined;
}

async function summary(file: string): Promise<SessionInfo> {
  const records = await readJsonLines(file);
  const withCwd = records.find((record) => typeof asJsonObject(record)?.cwd === 'string');
  const prompt = records.map(promptOf).find((text) => text !== undefined);
  return { id: basename(file, '.jsonl'), title: titleOf(prompt), updatedAt: await modifiedAt(file), workingDirectory: stringOf(asJsonObject(withCwd)?.cwd) };
}

/** Whether any project of the store holds a transcript of this session (the CLI looks in the cwd's). */
export async function claudeStoreHas(ctx: StoreContext, sessionId: string): Promise<boolean> {
  return (await transcripts(ctx)).some((path) => basename(path) === `${sessionId}.jsonl`);
}

export const claudeSessionStore: SessionStoreSpec = {
  async list(ctx, cwd) {
    return summarize(await transcripts(ctx), summary, cwd);
  },
  async read(ctx, sessionId) {
    const file = (await transcripts(ctx)).find((path) => basename(path) === `${sessionId}.jsonl`);
    if (!file) return undefined;
    const translator = claudeTranslation.createTranslator({ opts: {} });
    return eventsOfRecords(await readJsonLines(file), (record): TranslatedEvent[] => {
      const prompt = promptOf(record);
      if (prompt !== undefined) return [{ type: 'message', role: 'user', text: prompt, delta: false, raw: record }];
      return translator.translate(record);
    });
  },
};
