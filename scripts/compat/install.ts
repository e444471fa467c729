// Installs one CLI version into its own folder under ~/.cache/coderline-compat/<cli>/<version>/
// (a package.json of its own, installed apart): never into the repository's dependency tree.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ProviderName } from '../../src/events.js';
import { builtInAdapters } from '../../src/registry.js';
import { nestedNpmEnv } from '../npm-env.js';
import type { SweptVersion } from './data.js';

export const cacheRoot = process.env.CODERLINE_COMPAT_CACHE ?? join(homedir(), '.cache', 'coderline-compat');

export function installDir(cli: ProviderName, version: string): string {
  return join(cacheRoot, cli, version);
}

/** The CLI's executable in its install folder. */
export function installedBinary(cli: ProviderName, version: string): string {
  return join(installDir(cli, version), 'node_modules', '.bin', builtInAdapters[cli].binary);
}

function installedVersion(dir: string, name: string): string | undefined {
  const manifest = join(dir, 'node_modules', ...name.split('/'), 'package.json');
  return existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version?: string }).version : undefined;
}

/** Installs the exact version unless it is there already; returns the executable. */
export function ensureInstalled(cli: ProviderName, entry: SweptVersion): string {
  const dir = installDir(cli, entry.version);
  const binary = installedBinary(cli, entry.version);
  if (installedVersion(dir, entry.package) === entry.version && existsSync(binary)) return binary;
  mkdirSync(dir, { recursive: true });
  const manifest = { name: `coderline-compat-${cli}-${entry.version}`, private: true, dependencies: { [entry.package]: entry.version } };
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  console.error(`installing ${entry.package}@${entry.version} → ${dir}`);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, env: nestedNpmEnv(), stdio: ['ignore', 'inherit', 'inherit'] });
  if (!existsSync(binary)) throw new Error(`${entry.package}@${entry.version} installed no ${builtInAdapters[cli].binary} executable`);
  return binary;
}
