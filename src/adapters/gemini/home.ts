// The CLI's home for one run: GEMINI_CLI_HOME is a fresh dir in the run's private temp dir, holding
// the run's settings.json (0600: the tool bridge's secret is in it), while what must outlive the run
// (chats and plans under tmp/, history) links to the coder's state dir (the project registry
// projects.json is replaced by a rename, so it stays the run's: a project's short name is its basename), so resume and listSessions
// find it there. A settings file per run keeps concurrent runs of one coder from reading each other's
// bridge; gemini 0.61.0 refuses a system settings file below a world-writable dir such as /tmp.
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { InvocationContext } from '../../core/contract/adapter.js';

/** What of `$GEMINI_CLI_HOME/.gemini/` lives in the coder's state dir (store.ts reads it there). */
const kept = ['tmp', 'history'] as const;

/** The `.gemini` dir of the coder's state dir: where sessions are kept. */
export const storeDirOf = (stateDir: string): string => join(stateDir, '.gemini');

export async function prepareRunHome(ctx: InvocationContext, settings: Record<string, unknown>): Promise<string> {
  // A dir of its own inside the run's private temp dir (found through a marker file there).
  const home = await mkdtemp(join(dirname(await ctx.writeTempFile('gemini-home', '')), 'home-'));
  const store = storeDirOf(await ctx.coderStateDir());
  await mkdir(join(home, '.gemini'), { recursive: true, mode: 0o700 });
  await mkdir(store, { recursive: true, mode: 0o700 });
  for (const name of kept) {
    const target = join(store, name);
    await mkdir(target, { recursive: true, mode: 0o700 });
    await symlink(target, join(home, '.gemini', name));
  }
  await writeFile(join(home, '.gemini', 'settings.json'), JSON.stringify(settings, null, 2), { mode: 0o600 });
  return home;
}
