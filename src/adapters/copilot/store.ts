// Copilot's session store: `$COPILOT_HOME/session-state/<id>/events.jsonl` (1.0.102), the same event
// records `--output-format json` prints, plus `session.start` / `session.resume` (cwd in
// `data.context.cwd`) and a `session.shutdown` per process whose `data.modelMetrics` is the session's
// running token total (what the usage file holds). Measured in test/copilot/sessions.e2e.test.ts.
import { join } from 'node:path';
import type { SessionInfo, SessionStoreSpec, StoreContext } from '../../core/contract/adapter.js';
import { asJsonObject, stringOf } from '../../schema/json.js';
import { cliStateDir, eventsOfRecords, filesUnder, modifiedAt, readJsonLines, summarize, titleOf } from '../../core/session/session-store.js';
import type { TranslatedEvent } from '../../events.js';
import { copilotTranslation } from './translation.js';
import { sessionUsageFrom } from './usage-file.js';

const stateDir = async (ctx: StoreContext) => join(await cliStateDir(ctx, 'COPILOT_HOME', true, '.copilot'), 'session-state');

async function eventsFile(ctx: StoreContext, sessionId: string): Promise<string | undefined> {
  // An id is a directory name: nothing that could leave the store.
  if (!/^[\w-]+$/.test(sessionId)) return undefined;
  const files = await filesUnder(join(await stateDir(ctx), sessionId), (name) => name === 'events.jsonl');
  return files[0];
}

const dataOf = (record: unknown) => asJsonObject(asJsonObject(record)?.data);

async function summary(file: string): Promise<SessionInfo | undefined> {
  const records = await readJsonLines(file);
  const start = records.find((record) => asJsonObject(record)?.type === 'session.start');
  const id = stringOf(dataOf(start)?.sessionId);
  if (!id) return undefined;
  const prompt = records.find((record) => asJsonObject(record)?.type === 'user.message');
  return { id, title: titleOf(stringOf(dataOf(prompt)?.content)), updatedAt: await modifiedAt(file), workingDirectory: stringOf(asJsonObject(dataOf(start)?.context)?.cwd) };
}

export const copilotSessionStore: SessionStoreSpec = {
  async list(ctx, cwd) {
    return summarize(await filesUnder(await stateDir(ctx), (name) => name === 'events.jsonl'), summary, cwd);
  },
  async read(ctx, sessionId) {
    const file = await eventsFile(ctx, sessionId);
    if (!file) return undefined;
    const translator = copilotTranslation.createTranslator({ opts: {} });
    return eventsOfRecords(await readJsonLines(file), (record): TranslatedEvent[] => {
      const data = dataOf(record);
      if (asJsonObject(record)?.type === 'user.message' && typeof data?.content === 'string') return [{ type: 'message', role: 'user', text: data.content, delta: false, raw: record }];
      return translator.translate(record);
    });
  },
  async usageTotal(ctx, sessionId) {
    const file = await eventsFile(ctx, sessionId);
    const shutdowns = file ? (await readJsonLines(file)).filter((record) => asJsonObject(record)?.type === 'session.shutdown') : [];
    return sessionUsageFrom(dataOf(shutdowns.at(-1)));
  },
};
