// `<bin> --version`, once per executable, checked against the adapter's range.
import { CliVersionError, CoderError } from '../errors.js';
import type { AdapterSpec } from './adapter.js';
import { runToEnd, startError } from './spawn.js';

const probes = new Map<string, Promise<string | undefined>>();
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

/** Where a version stands: swept and passed, between swept versions, newer than any, or unsupported. */
export type VersionStatus = 'tested' | 'untested' | 'newer' | 'too-old';

export function versionStatus(adapter: Pick<AdapterSpec, 'versions'>, version: string): VersionStatus {
  const { min, testedMax, tested } = adapter.versions;
  if (compareVersions(version, min) < 0) return 'too-old';
  if (compareVersions(version, testedMax) > 0) return 'newer';
  const known = tested ?? [min, testedMax];
  return known.some((each) => compareVersions(each, version) === 0) ? 'tested' : 'untested';
}

/** Executables already warned about being newer than tested: once per executable per process. */
const warnedNewer = new Set<string>();

async function probe(adapter: AdapterSpec, executable: string, env: Record<string, string>, cwd: string) {
  const result = await runToEnd(executable, ['--version'], { env, cwd, timeoutMs: PROBE_TIMEOUT_MS });
  if (result.spawnError) throw startError(adapter, executable, result.spawnError);
  if (result.timedOut || result.exitCode === undefined) {
    const why = result.timedOut ? `no answer within ${PROBE_TIMEOUT_MS / 1000} s` : `stopped by ${result.signal ?? 'a signal'}`;
    throw new CoderError('exit', `${adapter.name}: "${executable} --version" failed: ${why}`, { provider: adapter.name });
  }
  return adapter.parseVersion(result.output);
}

export function newerThanTested(adapter: AdapterSpec, version: string): string {
  return `${adapter.name} ${version} is newer than the newest tested version ${adapter.versions.testedMax}; it may print records this SDK does not know yet.`;
}

/**
 * Returns the version (undefined when it could not be read) and a warning when it is newer than
 * tested (the first time only, per executable).
 * Throws CliNotFoundError or CliVersionError.
 */
export async function checkVersion(
  adapter: AdapterSpec,
  executable: string,
  env: Record<string, string>,
  cwd: string,
): Promise<{ version: string | undefined; warning?: string }> {
  const key = `${adapter.name}\0${executable}\0${env.PATH ?? ''}`;
  let pending = probes.get(key);
  if (!pending) {
    pending = probe(adapter, executable, env, cwd);
    probes.set(key, pending);
    pending.catch(() => probes.delete(key));
  }
  const version = await pending;
  if (version === undefined) {
    return { version, warning: `${adapter.name}: could not read the version from "${executable} --version"; supported: ${versionRangeText(adapter)}` };
  }
  const status = versionStatus(adapter, version);
  if (status === 'too-old') throw new CliVersionError(adapter.name, version, versionRangeText(adapter));
  if (status === 'newer' && !warnedNewer.has(`${adapter.name}\0${executable}`)) {
    warnedNewer.add(`${adapter.name}\0${executable}`);
    return { version, warning: newerThanTested(adapter, version) };
  }
  return { version };
}
