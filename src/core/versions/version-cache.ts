// The versions of CLI binaries already probed, kept across processes so that a process's first run
// need not wait for `<bin> --version` (100–280 ms for the real CLIs, docs/performance.md). A binary is
// known by what a replaced or upgraded one cannot share: the file the name resolves to (PATH looked
// up as the spawn does, symlinks such as npm's `.bin` launchers followed) with its device, inode,
// size, modification and change times, and the same of the nearest package.json above it (an npm
// package's version, which pins the native binary its launcher starts). Shell-script launchers are
// not cached: a version manager's shim picks the binary when it runs. docs/decisions.md says more.
import { closeSync, mkdirSync, openSync, readFileSync, readSync, realpathSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join, resolve, sep } from 'node:path';

const CACHE_FILE = 'cli-versions.json';
/** Entries kept; the oldest go first (each distinct binary, PATH and directory is one). */
const MAX_ENTRIES = 200;

/** Where the cache lives: CODERLINE_CACHE_DIR, else the user's cache directory of the platform. */
export function versionCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CODERLINE_CACHE_DIR) return env.CODERLINE_CACHE_DIR;
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Caches', 'coderline');
  if (process.platform === 'win32') return join(env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local'), 'coderline', 'Cache');
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'coderline');
}

/** The file a spawn of `executable` runs: a path is taken relative to `cwd`, a bare name looked up on PATH. */
function locate(executable: string, path: string, cwd: string): string | undefined {
  if (executable.includes(sep) || executable.includes('/')) return resolve(cwd, executable);
  for (const dir of path.split(delimiter)) {
    const candidate = resolve(cwd, dir, executable);
    const info = statSync(candidate, { throwIfNoEntry: false });
    if (info?.isFile() && (info.mode & 0o111) !== 0) return candidate;
  }
  return undefined;
}

function fileIdentity(path: string): string | undefined {
  const info = statSync(path, { bigint: true, throwIfNoEntry: false });
  return info && [info.dev, info.ino, info.size, info.mtimeNs, info.ctimeNs].join(':');
}

/** A script run by anything but node (`#!/bin/sh` …) may choose the real binary each time it runs. */
function isShellLauncher(path: string): boolean {
  const head = Buffer.alloc(128);
  const fd = openSync(path, 'r');
  try {
    const line = head.subarray(0, readSync(fd, head, 0, head.length, 0)).toString('latin1').split('\n')[0]!;
    return line.startsWith('#!') && !/\bnode\b/.test(line);
  } finally {
    closeSync(fd);
  }
}

function nearestPackageJson(file: string): string | undefined {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    const candidate = join(dir, 'package.json');
    if (statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/** A binary as the cache knows it: `key` identifies it, `file` is what runs. */
export interface BinaryIdentity {
  key: string;
  file: string;
}

/**
 * The identity of the binary `executable` names for a run in `cwd` with this PATH, or undefined when
 * it cannot be found (or on Windows). The directory is part of it: version managers pin a version per
 * project. Whether it may be cached is `isCacheable()`'s to say.
 */
export function binaryIdentity(adapterName: string, executable: string, path: string, cwd: string): BinaryIdentity | undefined {
  if (process.platform === 'win32') return undefined;
  try {
    const located = locate(executable, path, cwd);
    if (!located) return undefined;
    const real = realpathSync(located);
    const packageJson = nearestPackageJson(real);
    const key = JSON.stringify([adapterName, located, cwd, real, fileIdentity(real), packageJson ?? null, packageJson ? fileIdentity(packageJson) : null]);
    return { key, file: real };
  } catch {
    return undefined;
  }
}

/**
 * False for a shell launcher. Only a binary the cache does not know needs asking: an entry is written
 * for cacheable binaries alone, and its key changes with any write to the file.
 */
export function isCacheable(binary: BinaryIdentity): boolean {
  try {
    return !isShellLauncher(binary.file);
  } catch {
    return false;
  }
}

interface Entry {
  version: string;
  /** When it was probed (ms since the epoch), to drop the oldest. */
  at: number;
}

function readEntries(dir: string): Record<string, Entry> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(join(dir, CACHE_FILE), 'utf8'));
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, Entry>) : {};
  } catch {
    return {};
  }
}

let loaded: { dir: string; entries: Record<string, Entry> } | undefined;

/** The version probed before for this identity, read from the file once per process. */
export function cachedVersion(identity: string): string | undefined {
  const dir = versionCacheDir();
  if (loaded?.dir !== dir) loaded = { dir, entries: readEntries(dir) };
  const version = loaded.entries[identity]?.version;
  return typeof version === 'string' ? version : undefined;
}

/** Records a probed version. Best effort: a cache that cannot be written only means probing again. */
export function rememberVersion(identity: string, version: string): void {
  const dir = versionCacheDir();
  try {
    // Merged into what is on disk now: another process may have added entries since we read it.
    const entries = { ...readEntries(dir), [identity]: { version, at: Date.now() } };
    const kept = Object.entries(entries).sort(([, a], [, b]) => b.at - a.at).slice(0, MAX_ENTRIES);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Written aside and renamed into place: a reader never sees half a file.
    const partial = join(dir, `${CACHE_FILE}.${process.pid}.${Date.now()}.tmp`);
    writeFileSync(partial, JSON.stringify(Object.fromEntries(kept)), { mode: 0o600 });
    renameSync(partial, join(dir, CACHE_FILE));
    loaded = { dir, entries: Object.fromEntries(kept) };
  } catch {
    // read-only home, no home at all: the next process probes
  }
}
