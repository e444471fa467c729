// OpenCode's session store is SQLite ($XDG_DATA_HOME/opencode/opencode.db), which Node 20 cannot read
// without a native module; the CLI reads it for us: `opencode session list --format json` →
// [{ id, title, updated, created, projectId, directory }] and `opencode export <id>` →
// { info, messages: [{ info: { role }, parts }] } (1.18.33), run with the coder's environment so a
// strictly isolated coder reads its own store. Both are read as untrusted input.
import { execFile } from 'node:child_process';
import type { SessionInfo, SessionStoreSpec, StoreContext } from '../../core/contract/adapter.js';
import { buildEnv } from '../../core/process/env.js';
import { storeRecordEvent } from '../../core/session/session-store.js';
import { CoderError } from '../../errors.js';
import type { TranslatedEvent } from '../../events.js';
import { asJsonObject, isJsonObject, stringOf } from '../../schema/json.js';
import { QUIET_ENV, storeEnv } from './argv.js';
import { opencodeAuth, opencodeEnvironment } from './environment.js';
import { createOpencodeTranslator } from './translate.js';

/** What OpenCode's ids look like (`ses_` and base62): nothing else is passed to `export`. */
const SESSION_ID = /^ses_[A-Za-z0-9]+$/;
/** Listing and exporting take seconds (one start of the binary); a store that takes this long is broken. */
const TIMEOUT_MS = 120_000;
const MAX_OUTPUT = 256 * 2 ** 20;

async function opencode(ctx: StoreContext, args: string[]): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  const { opts } = ctx;
  const env = buildEnv({
    inherited: process.env,
    inherit: opts.inheritEnv,
    cli: { auth: opencodeAuth, environment: opencodeEnvironment },
    adapter: { ...QUIET_ENV, PWD: ctx.cwd, ...(await storeEnv(opts, ctx.coderStateDir)) },
    extra: opts.extraEnv,
    unset: opts.unsetEnv,
  });
  const executable = opts.executablePath ?? 'opencode';
  return new Promise((resolve, reject) => {
    execFile(executable, args, { cwd: ctx.cwd, env, timeout: TIMEOUT_MS, killSignal: 'SIGKILL', maxBuffer: MAX_OUTPUT, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (error && (error as NodeJS.ErrnoException).code === 'ENOENT') {
        reject(new CoderError('binary_not_found', `opencode: executable "${executable}" was not found to read its sessions`, { provider: 'opencode' }));
        return;
      }
      resolve({ ok: !error, stdout, stderr });
    });
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function sessionInfo(value: unknown): SessionInfo | undefined {
  const row = asJsonObject(value);
  const id = stringOf(row?.id);
  if (!row || !id) return undefined;
  const updated = typeof row.updated === 'number' && Number.isFinite(row.updated) ? row.updated : 0;
  return { id, title: stringOf(row.title), updatedAt: new Date(updated).toISOString(), workingDirectory: stringOf(row.directory) };
}

/** One stored message's parts as events: the user's text, and the assistant's parts as `run` prints them. */
function messageEvents(message: unknown, translate: (record: unknown) => TranslatedEvent[]): TranslatedEvent[] {
  const info = asJsonObject(asJsonObject(message)?.info);
  const parts = asJsonObject(message)?.parts;
  if (!info || !Array.isArray(parts)) return [storeRecordEvent(message)];
  const role = stringOf(info.role);
  return parts.flatMap((part): TranslatedEvent[] => {
    if (!isJsonObject(part)) return [storeRecordEvent(part)];
    if (role === 'user') {
      return part.type === 'text' && typeof part.text === 'string' && part.synthetic !== true ? [{ type: 'message', role: 'user', text: part.text, delta: false, raw: part }] : [storeRecordEvent(part)];
    }
    // The parts are those `run --format json` wraps in records: the same translation applies.
    const type = part.type === 'tool' ? 'tool_use' : stringOf(part.type)?.replace('-', '_');
    return type ? translate({ type, sessionID: part.sessionID, part }) : [storeRecordEvent(part)];
  });
}

export const opencodeSessionStore: SessionStoreSpec = {
  async list(ctx, cwd) {
    const { ok, stdout } = await opencode(ctx, ['session', 'list', '--format', 'json']);
    const rows = ok ? parseJson(stdout) : undefined;
    if (!Array.isArray(rows)) return [];
    const sessions = rows.map(sessionInfo).filter((info): info is SessionInfo => info !== undefined);
    return cwd === undefined ? sessions : sessions.filter((session) => session.workingDirectory === cwd);
  },
  async read(ctx, sessionId) {
    if (!SESSION_ID.test(sessionId)) return undefined;
    const { ok, stdout } = await opencode(ctx, ['export', sessionId]);
    const exported = ok ? asJsonObject(parseJson(stdout)) : undefined;
    if (!exported || !Array.isArray(exported.messages)) return undefined;
    const translator = createOpencodeTranslator({ opts: ctx.opts });
    return exported.messages.flatMap((message) => messageEvents(message, (record) => translator.translate(record)));
  },
};
