// compat/versions.json: which CLI versions the sweep installs, and compat/results.json: what each did.
// Both are the record: the sweep writes results, and the docs and the adapters' tested lists are
// generated from them.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ProviderName } from '../../src/events.js';
import type { CanaryReport, ProbeExit, RefusedRun } from '../../src/probe/analyse.js';
import type { SweepCanaryName } from '../../src/probe/canaries.js';
import type { RecordingMeta } from '../../src/replay/live-recording.js';

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
  /** The SDK's error when it refused the run before the CLI started (nothing was printed). */
  refused?: RefusedRun;
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

/** The live canaries of the compatibility sweep, as the columns of docs/compat.md. */
export const liveCanaryNames = ['two-turns', 'interrupt', 'tool-allowed', 'tool-denied', 'set-model', 'steer', 'compaction'] as const;
export type LiveCanaryName = (typeof liveCanaryNames)[number];

/** What the session showed, kept next to its recording so a replay can judge it again. */
export interface LiveObservation {
  turns: RecordingMeta['turns'];
  /** How often the CLI asked canUseTool. */
  asked: number;
  /** Whether the scenario's file exists after the session. */
  fileCreated?: boolean;
  /** Whether the last model request of two turns carried the first turn's prompt and answer. */
  carriedFirstTurn?: boolean;
  /** Whether the last model request after setModel() named the new model. */
  switchedModel?: boolean;
  /** The phases of the `compaction` events the turns showed (the compaction canary). */
  compaction?: Array<'started' | 'completed'>;
  /** Why the session could not open or a turn could not be driven. */
  error?: string;
}

/**
 * pass / fail: the canary ran and the analysis found nothing / something. n/a: the CLI has no such
 * feature at all (e.g. fork). gated: this version lacks a feature newer ones have (FeatureNotInVersionError).
 */
export type CanaryOutcome = 'pass' | 'fail' | 'n/a' | 'gated';

export interface CanaryVerdict {
  outcome: CanaryOutcome;
  findings: string[];
}
