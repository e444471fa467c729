// Reading CLIs' session stores: JSONL files on disk, read as tolerantly as stdout is. The adapters
// know where their CLI keeps what (adapters/<cli>/store.ts); this holds what they share.
import { readdir, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CoderError, FeatureNotSupportedError } from '../../errors.js';
import type { CoderStreamEvent, TranslatedEvent } from '../../events.js';
import type { ResolvedOpts } from '../../options.js';
import type { AdapterSpec, SessionInfo, SessionStoreSpec, StoreContext } from '../contract/adapter.js';
import { asJsonObject, stringOf } from '../../schema/json.js';
import { checkSessionId, isSessionId } from '../../schema/ids.js';
import { openStoreFile, readStoreText } from './store-file.js';

/** A variable as the CLI will see it: extraEnv wins, unsetEnv removes, else the host's. */
export function cliEnvValue(opts: ResolvedOpts, name: string): string | undefined {
  const value = opts.extraEnv?.[name] ?? (opts.unsetEnv?.includes(name) ? undefined : process.env[name]);
  return value === '' ? undefined : value;
}

/**
 * A CLI's state dir: its variable from the caller, else the coder's own dir under strict isolation
 * (set by the adapter, below the caller's extraEnv), else the host's variable, else `~/<fallback>`.
 */
export async function cliStateDir(ctx: StoreContext, variable: string, strictUsesCoderDir: boolean, fallback: string): Promise<string> {
  const given = ctx.opts.extraEnv?.[variable];
  if (given) return given;
  if (strictUsesCoderDir && ctx.opts.isolation === 'strict') return ctx.coderStateDir();
  return cliEnvValue(ctx.opts, variable) ?? join(cliEnvValue(ctx.opts, 'HOME') ?? homedir(), fallback);
}

/** The parsed records of a JSONL file; a line that is not JSON stays as its text. */
export async function readJsonLines(file: string): Promise<unknown[]> {
  return linesToRecords(await readStoreText(file));
}

function linesToRecords(text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      try {
        return JSON.parse(line) as unknown;
      } catch {
        return line;
      }
    });
}

/** The first record of a JSONL file, read without loading the whole file (rollouts grow large). */
export async function firstRecord(file: string): Promise<unknown> {
  const handle = await openStoreFile(file);
  try {
    const buffer = Buffer.alloc(256 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return linesToRecords(buffer.subarray(0, bytesRead).toString('utf8').split('\n', 1)[0] ?? '')[0];
  } finally {
    await handle.close();
  }
}

/** Files under `dir` (recursively) whose name passes `accept`; none when the dir does not exist. */
export async function filesUnder(dir: string, accept: (name: string) => boolean): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const found: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await filesUnder(path, accept)));
    else if (accept(entry.name)) found.push(path);
  }
  return found;
}

/** Each file's summary (a file it cannot read is left out), those that ran in `cwd` when given. */
export async function summarize(files: readonly string[], summary: (file: string) => Promise<SessionInfo | undefined>, cwd: string | undefined): Promise<SessionInfo[]> {
  const found = await Promise.all(files.map((file) => summary(file).catch(() => undefined)));
  return found.filter((info): info is SessionInfo => info !== undefined && (cwd === undefined || info.workingDirectory === cwd));
}

/** When a file was last written (ISO 8601). */
export async function modifiedAt(file: string): Promise<string> {
  return (await stat(file)).mtime.toISOString();
}

/** A record the reader has no mapping for: still an event, with the record as `raw`. */
export function storeRecordEvent(record: unknown): TranslatedEvent {
  const type = stringOf(asJsonObject(record)?.type);
  return { type: 'progress', kind: 'other', ...(type ? { subtype: type } : {}), raw: record };
}

/** The first line of a prompt, cut to a title's length. */
export function titleOf(prompt: string | undefined): string | undefined {
  const line = prompt?.trim().split('\n', 1)[0]?.trim();
  if (!line) return undefined;
  return line.length > 120 ? `${line.slice(0, 117)}...` : line;
}

/** Records to events, each through `toEvents`; a record it cannot read (or throws on) is kept as progress. */
export function eventsOfRecords(records: readonly unknown[], toEvents: (record: unknown) => TranslatedEvent[] | undefined): TranslatedEvent[] {
  return records.flatMap((record) => {
    try {
      return toEvents(record) ?? [storeRecordEvent(record)];
    } catch {
      return [storeRecordEvent(record)];
    }
  });
}

function storeOf(adapter: AdapterSpec, method: 'listSessions' | 'readSession'): SessionStoreSpec {
  if (!adapter.sessionStore) {
    throw new FeatureNotSupportedError(adapter.name, method, `coderline cannot read ${adapter.name}'s session store (the adapter names none).`);
  }
  return adapter.sessionStore;
}

/** Sessions newest first, from the coder's working directory unless `allDirectories`. */
export async function listStoredSessions(adapter: AdapterSpec, ctx: StoreContext, allDirectories: boolean): Promise<SessionInfo[]> {
  const sessions = await storeOf(adapter, 'listSessions').list(ctx, allDirectories ? undefined : ctx.cwd);
  // A store's files are anyone's: a session whose id is no session id (a planted `--last`) is not offered for resume().
  return sessions.filter((session) => isSessionId(session.id)).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt));
}

const timeOf = (record: unknown): number => {
  const stamp = asJsonObject(record)?.timestamp;
  const ms = typeof stamp === 'number' ? stamp : typeof stamp === 'string' ? Date.parse(stamp) : NaN;
  return Number.isFinite(ms) ? ms : 0;
};

/** A stored conversation as events, stamped with the CLI's name and the record's own time (0 when it has none). */
export async function readStoredSession<P extends string>(adapter: AdapterSpec<P>, ctx: StoreContext, sessionId: string): Promise<CoderStreamEvent<P>[]> {
  checkSessionId(sessionId, 'readSession()', adapter.name);
  const events = await storeOf(adapter, 'readSession').read(ctx, sessionId);
  if (!events) throw new CoderError('session_not_found', `${adapter.name} has no stored session "${sessionId}" in this coder's store`, { provider: adapter.name });
  return events.map((event) => ({ ...event, provider: adapter.name, ts: timeOf(event.raw) }) as CoderStreamEvent<P>);
}
