// The CLI's home for one run: GEMINI_CLI_HOME is a fresh dir in the run's private temp dir, holding
// the run's settings.json (0600: the tool bridge's secret is in it), while what must outlive the run
// (chats and plans under tmp/, history) links to the store: the user's Gemini home (the host's
// GEMINI_CLI_HOME, else HOME), or the coder's state dir under strict isolation. So sessions resume
// from any coder as the CLI's own would, and a settings file per run keeps concurrent runs from
// reading each other's bridge. gemini 0.61.0 skips a system settings file below a world-writable dir
// such as /tmp, so the run's settings cannot be a system settings temp file. The project registry
// (projects.json) is copied, not linked: the CLI replaces it by a rename.
import { copyFile, mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { InvocationContext, StoreContext } from '../../core/contract/adapter.js';
import { cliStateDir } from '../../core/session/session-store.js';

/** What of `$GEMINI_CLI_HOME/.gemini/` lives in the store (store.ts reads chats there). */
const kept = ['tmp', 'history'] as const;

/** The `.gemini` dir sessions are kept in, for a coder's options. */
export async function storeDirOf(ctx: StoreContext): Promise<string> {
  return join(await cliStateDir(ctx, 'GEMINI_CLI_HOME', true, ''), '.gemini');
}

export async function prepareRunHome(ctx: InvocationContext, settings: Record<string, unknown>): Promise<string> {
  // A dir of its own inside the run's private temp dir (found through a marker file there).
  const home = await mkdtemp(join(dirname(await ctx.writeTempFile('gemini-home', '')), 'home-'));
  const store = await storeDirOf(ctx);
  await mkdir(join(home, '.gemini'), { recursive: true, mode: 0o700 });
  for (const name of kept) {
    const target = join(store, name);
    await mkdir(target, { recursive: true, mode: 0o700 });
    await symlink(target, join(home, '.gemini', name));
  }
  // The same short project names as the user's own runs (they name the chats' dirs).
  await copyFile(join(store, 'projects.json'), join(home, '.gemini', 'projects.json')).catch(() => undefined);
  await writeFile(join(home, '.gemini', 'settings.json'), JSON.stringify(settings, null, 2), { mode: 0o600 });
  return home;
}
