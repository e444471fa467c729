// `<bin> --version`, once per binary (version-cache.ts says what identifies one, and keeps the answer
// across processes), checked against the adapter's range.
import { CliVersionError, CoderError } from '../../errors.js';
import type { AdapterSpec } from '../contract/adapter.js';
import { runToEnd, startError } from '../process/spawn.js';
import { binaryIdentity, cachedVersion, isCacheable, rememberVersion } from './version-cache.js';
import { withoutControls } from '../../schema/terminal-text.js';

/** What `--version` told: the version, or when none could be read, why, where the adapter can tell. */
interface ProbeAnswer {
  version: string | undefined;
  why?: string;
}

const probes = new Map<string, Promise<ProbeAnswer>>();
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
  const version = adapter.parseVersion(result.output);
  if (version !== undefined) return { version };
  // A CLI that dies before it can answer (pi 1.x on a Node it refuses) says why the way a run would.
  const explained = adapter.explainExit?.({ exitCode: result.exitCode, signal: result.signal, stderrTail: withoutControls(result.output) });
  // A package whose binary for this machine is missing (a stand-in that only says so): no run can start.
  if (explained?.code === 'platform_not_supported') throw new CoderError('platform_not_supported', `${adapter.name}: ${explained.message}`, { provider: adapter.name });
  return explained?.code === 'version_unsupported' ? { version, why: explained.message } : { version };
}

export interface VersionCheck {
  /** Undefined when `--version` printed nothing this adapter can read. */
  version: string | undefined;
  warning?: string;
}

export function newerThanTested(adapter: AdapterSpec, version: string): string {
  return `${adapter.name} ${version} is newer than the newest tested version ${adapter.versions.testedMax}; it may print records this SDK does not know yet.`;
}

/**
 * The version of the binary `executable` names, probed once per binary: in this process, and by the
 * binary's identity across processes (version-cache.ts), so a binary probed before answers at once.
 * A warning comes with a version newer than tested (the first time only, per executable). Rejects
 * with CliNotFoundError or CliVersionError.
 */
export function checkVersion(adapter: AdapterSpec, executable: string, env: Record<string, string>, cwd: string): Promise<VersionCheck> {
  const binary = binaryIdentity(adapter.name, executable, env.PATH ?? '', cwd);
  // A binary that cannot be identified is probed once per name and PATH, as before the cache.
  const key = binary?.key ?? `${adapter.name}\0${executable}\0${env.PATH ?? ''}\0${cwd}`;
  let pending = probes.get(key);
  if (!pending) {
    const stored = binary && cachedVersion(binary.key);
    pending = stored !== undefined ? Promise.resolve({ version: stored }) : probe(adapter, executable, env, cwd);
    probes.set(key, pending);
    pending.then(({ version }) => {
      if (binary && stored === undefined && version !== undefined && isCacheable(binary)) rememberVersion(binary.key, version);
    }, () => probes.delete(key));
  }
  return pending.then((answer) => judgeVersion(adapter, executable, answer));
}

function judgeVersion(adapter: AdapterSpec, executable: string, { version, why }: ProbeAnswer): VersionCheck {
  if (version === undefined) {
    const reason = why === undefined ? '' : ` (${why})`;
    return { version, warning: `${adapter.name}: could not read the version from "${executable} --version"${reason}; supported: ${versionRangeText(adapter)}` };
  }
  const status = versionStatus(adapter, version);
  if (status === 'too-old') throw new CliVersionError(adapter.name, version, versionRangeText(adapter));
  if (status === 'newer' && !warnedNewer.has(`${adapter.name}\0${executable}`)) {
    warnedNewer.add(`${adapter.name}\0${executable}`);
    return { version, warning: newerThanTested(adapter, version) };
  }
  return { version };
}
