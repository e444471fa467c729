// compat/versions.json: which CLI versions the sweep installs, and compat/results.json: what each did.
// Both are the record: the sweep writes results, and the docs and the adapters' tested lists are
// generated from them.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ProviderName } from '../../src/events.js';
import type { CanaryReport, ProbeExit } from '../../src/probe/analyse.js';
import type { SweepCanaryName } from '../../src/probe/canaries.js';
import type { LiveCanaryName, LiveObservation } from './live.js';
import type { CanaryVerdict } from './results.js';

export const repoRoot = resolve(import.meta.dirname, '..', '..');
export const versionsFile = join(repoRoot, 'compat', 'versions.json');
export const resultsFile = join(repoRoot, 'compat', 'results.json');

export interface SweptVersion {
  package: string;
  version: string;
  /** The registry's release date (YYYY-MM-DD). */
  released: string;
  /** The Node major to run it on when the project's Node is too old for it. */
  node?: '22';
  why?: string;
}

export interface CliVersions {
  /** The registry's newest version on the day the file was written. */
  newest: string;
  versions: SweptVersion[];
}

export interface VersionsFile {
  written: string;
  clis: Record<ProviderName, CliVersions>;
}

export function readVersions(): VersionsFile {
  return JSON.parse(readFileSync(versionsFile, 'utf8')) as VersionsFile;
}

/** fixtures/<cli>/<version>/compat/: per canary, the CLI's stdout (<canary>.jsonl) and <canary>.meta.json. */
export const compatFixtureDir = (cli: ProviderName, version: string) => join(repoRoot, 'fixtures', cli, version, 'compat');

/** What the sweep saw around one canary run, so the replay can judge the same lines again. */
export interface CompatMeta {
  canary: SweepCanaryName;
  cliVersion: string | null;
  exit: ProbeExit;
  earlierSessionId: string | null;
  /** False when the canary could not run (the report says why): there is nothing to replay. */
  analysed: boolean;
  report: CanaryReport;
}

/** fixtures/<cli>/<version>/compat/live/: per live canary, its recording (<canary>.jsonl) and <canary>.meta.json. */
export const liveCompatDir = (cli: ProviderName, version: string) => join(compatFixtureDir(cli, version), 'live');

/** What the sweep saw of one live canary, so the replay can judge it again. */
export interface LiveCompatMeta {
  canary: LiveCanaryName;
  cliVersion: string | null;
  observed: LiveObservation;
  verdict: CanaryVerdict;
}
