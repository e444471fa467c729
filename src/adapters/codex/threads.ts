// `codex exec resume --last` looks threads up per working directory and, when it finds none,
// silently starts a new thread. Before such a run the adapter checks the CLI's session store.
import { open, readdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ResolvedOpts } from '../../options.js';

/** Where the CLI keeps its state: CODEX_HOME, else ~/.codex (extraEnv wins, as it does for the CLI). */
export function codexHomeFor(opts: ResolvedOpts): string {
  const unset = new Set(opts.unsetEnv ?? []);
  const fromEnv = (name: string) => opts.extraEnv?.[name] ?? (unset.has(name) ? undefined : process.env[name]);
  return fromEnv('CODEX_HOME') || join(fromEnv('HOME') || homedir(), '.codex');
}

async function listRollouts(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const found: string[] = [];
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await listRollouts(path)));
    else if (entry.name.startsWith('rollout-') && entry.name.endsWith('.jsonl')) found.push(path);
  }
  return found;
}

/** The `cwd` of a rollout's first record (session_meta), read without loading the whole file. */
async function rolloutCwd(file: string): Promise<string | undefined> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(256 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const head = buffer.subarray(0, bytesRead).toString('utf8');
    const match = /"cwd":("(?:[^"\\]|\\.)*")/.exec(head.split('\n', 1)[0] ?? '');
    return match ? (JSON.parse(match[1]!) as string) : undefined;
  } finally {
    await handle.close();
  }
}

/**
 * Whether `resume --last` in `cwd` would find a thread. `undefined` when the store is not where
 * 0.171.0 keeps it (then the CLI decides, unchecked).
 */
export async function hasThreadFor(codexHome: string, cwd: string): Promise<boolean | undefined> {
  let rollouts: string[];
  try {
    rollouts = await listRollouts(join(codexHome, 'sessions'));
  } catch {
    return undefined;
  }
  for (const file of rollouts) {
    if ((await rolloutCwd(file).catch(() => undefined)) === cwd) return true;
  }
  return false;
}
