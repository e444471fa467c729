// Copilot's folder trust. In a trusted folder (the user's trustedFolders, or the working directory when
// COPILOT_ALLOW_ALL is exactly "true") Copilot 1.0.102 loads the repository's own configuration —
// .github/hooks/*.json and .github/copilot/settings.json hooks, which run shell commands nobody gates.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative, isAbsolute } from 'node:path';
import type { ResolvedOpts } from '../../options.js';

/** The config dir the CLI will read: the caller's COPILOT_HOME, the inherited one, else ~/.copilot. */
function copilotHomeOf(opts: ResolvedOpts): string {
  const unset = (name: string) => opts.unsetEnv?.includes(name);
  const home = opts.extraEnv?.HOME ?? (unset('HOME') ? undefined : process.env.HOME) ?? homedir();
  const configured = opts.extraEnv?.COPILOT_HOME ?? (unset('COPILOT_HOME') ? undefined : process.env.COPILOT_HOME);
  return configured || join(home, '.copilot');
}

/** `trustedFolders` of one of the CLI's config files; nothing when it is missing or not of that shape. */
function trustedFoldersIn(file: string): string[] {
  try {
    const folders = (JSON.parse(readFileSync(file, 'utf8')) as { trustedFolders?: unknown }).trustedFolders;
    return Array.isArray(folders) ? folders.filter((folder): folder is string => typeof folder === 'string') : [];
  } catch {
    return [];
  }
}

const within = (dir: string, folder: string) => {
  const path = relative(folder, dir);
  return path === '' || (!path.startsWith('..') && !isAbsolute(path));
};

/** The trusted folder that holds `cwd` in the user's Copilot config, if any (none under strict isolation: a private home). */
export function trustedFolderOf(opts: ResolvedOpts, cwd: string): string | undefined {
  if (opts.isolation === 'strict') return undefined;
  const home = copilotHomeOf(opts);
  const folders = ['config.json', 'settings.json'].flatMap((file) => trustedFoldersIn(join(home, file)));
  return folders.find((folder) => isAbsolute(folder) && within(cwd, folder));
}
