// `<bin> --version`, once per binary (version-cache.ts says what identifies one, and keeps the answer
// across processes), checked against the adapter's range.
import { CliVersionError, CoderError } from '../errors.js';
import type { AdapterSpec } from './adapter.js';
import { runToEnd, startError } from './spawn.js';
import { binaryIdentity, cachedVersion, rememberVersion } from './version-cache.js';

const probes = new Map<string, Promise<string | undefined>>();
/** Keys of `probes` that have settled: their answer needs no waiting. */
const answered = new Set<string>();
/** `--version` answers in well under a second; a CLI that takes this long is broken. */
const PROBE_TIMEOUT_MS = 30_000;

/** Compares dotted numeric versions (pre-release tags ignored). */
export function compareVersions(a: string, b: string): number {
  const parts = (version: string) => version.split(/[.-]/).slice(0, 3).map((part) => Number.parseInt(part, 10) || 0);
  const [left, right] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i += 1) {
    const diff = (left[i] ?? 0) - (right[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  return 0;
}

export function versionRangeText(adapter: AdapterSpec): string {
  return `${adapter.versions.min} – ${adapter.versions.testedMax} (tested)`;
}

async function probe(adapter: AdapterSpec, executable: string, env: Record<string, string>, cwd: string) {
  const result = await runToEnd(executable, ['--version'], { env, cwd, timeoutMs: PROBE_TIMEOUT_MS });
  if (result.spawnError) throw startError(adapter, executable, result.spawnError);
  if (result.timedOut || result.exitCode === undefined) {
    const why = result.timedOut ? `no answer within ${PROBE_TIMEOUT_MS / 1000} s` : `stopped by ${result.signal ?? 'a signal'}`;
    throw new CoderError('exit', `${adapter.name}: "${executable} --version" failed: ${why}`, { provider: adapter.name });
  }
  return adapter.parseVersion(result.output);
}

export interface VersionCheck {
  /** Undefined when `--version` printed nothing this adapter can read. */
  version: string | undefined;
  warning?: string;
}

/**
 * The version check of the binary `executable` names: `cached` when it was probed before (in this
 * process or, by its identity, in an earlier one) and `check` settles at once, else a probe is under
 * way. `check` rejects with CliNotFoundError or CliVersionError.
 */
export function startVersionCheck(
  adapter: AdapterSpec,
  executable: string,
  env: Record<string, string>,
  cwd: string,
): { cached: boolean; check: Promise<VersionCheck> } {
  const identity = binaryIdentity(adapter.name, executable, env.PATH ?? '', cwd);
  // A binary that cannot be identified is probed once per name and PATH, as before the cache.
  const key = identity ?? `${adapter.name}\0${executable}\0${env.PATH ?? ''}\0${cwd}`;
  let pending = probes.get(key);
  let cached = answered.has(key);
  if (!pending) {
    const stored = identity === undefined ? undefined : cachedVersion(identity);
    cached = stored !== undefined;
    pending = stored !== undefined ? Promise.resolve(stored) : probe(adapter, executable, env, cwd);
    probes.set(key, pending);
    pending.then((version) => {
      answered.add(key);
      if (identity !== undefined && stored === undefined && version !== undefined) rememberVersion(identity, version);
    }, () => probes.delete(key));
  }
  return { cached, check: pending.then((version) => judgeVersion(adapter, executable, version)) };
}

/**
 * Returns the version (undefined when it could not be read) and a warning when it is newer than tested.
 * Throws CliNotFoundError or CliVersionError.
 */
export function checkVersion(adapter: AdapterSpec, executable: string, env: Record<string, string>, cwd: string): Promise<VersionCheck> {
  return startVersionCheck(adapter, executable, env, cwd).check;
}

function judgeVersion(adapter: AdapterSpec, executable: string, version: string | undefined): VersionCheck {
  if (version === undefined) {
    return { version, warning: `${adapter.name}: could not read the version from "${executable} --version"; supported: ${versionRangeText(adapter)}` };
  }
  if (compareVersions(version, adapter.versions.min) < 0) {
    throw new CliVersionError(adapter.name, version, versionRangeText(adapter));
  }
  if (compareVersions(version, adapter.versions.testedMax) > 0) {
    return { version, warning: `${adapter.name} ${version} is newer than the newest tested version ${adapter.versions.testedMax}; it may print records this SDK does not know yet.` };
  }
  return { version };
}
