// `codex exec resume --last` looks threads up per working directory and, when it finds none,
// silently starts a new thread. Before such a run the adapter checks the CLI's session store.
import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { asJsonObject } from '../../schema/json.js';
import { cliEnvValue, filesUnder, firstRecord } from '../../core/session/session-store.js';
import type { ResolvedOpts } from '../../options.js';

/** Where the CLI keeps its state: CODEX_HOME, else ~/.codex (extraEnv wins, as it does for the CLI). */
export function codexHomeFor(opts: ResolvedOpts): string {
  return cliEnvValue(opts, 'CODEX_HOME') ?? join(cliEnvValue(opts, 'HOME') ?? homedir(), '.codex');
}

/** The thread files of the store: `sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl` in 0.171.0. */
export function rolloutsIn(codexHome: string): Promise<string[]> {
  return filesUnder(join(codexHome, 'sessions'), (name) => name.startsWith('rollout-') && name.endsWith('.jsonl'));
}

/**
 * Whether `resume --last` in `cwd` would find a thread. `undefined` when the store is not where
 * 0.171.0 keeps it (then the CLI decides, unchecked).
 */
export async function hasThreadFor(codexHome: string, cwd: string): Promise<boolean | undefined> {
  if (!(await stat(join(codexHome, 'sessions')).catch(() => undefined))?.isDirectory()) return undefined;
  for (const file of await rolloutsIn(codexHome)) {
    const meta = asJsonObject(asJsonObject(await firstRecord(file).catch(() => undefined))?.payload);
    if (meta?.cwd === cwd) return true;
  }
  return false;
}
