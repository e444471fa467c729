// compat/results.json: each swept version's outcome per canary. The sweep writes it; docs/compat.md,
// the adapters' tested versions (src/adapters/<cli>/versions.ts) and adapters.md derive from it.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { MeaningEventType, VersionRange } from '../../src/core/contract/adapter.js';
import { compareVersions } from '../../src/core/versions/version.js';
import type { ProviderName } from '../../src/events.js';
import type { SweepCanaryName } from '../../src/probe/canaries.js';
import { liveCanaryNames, resultsFile, type CanaryVerdict, type LiveCanaryName, type SweptVersion } from './data.js';

export interface VersionResult extends SweptVersion {
  canaries: Partial<Record<SweepCanaryName, CanaryVerdict>>;
  /** The live-session canaries (scripts/compat/live.ts): they decide the live range, not the one above. */
  live?: Partial<Record<LiveCanaryName, CanaryVerdict>>;
}

export type Results = Partial<Record<ProviderName, VersionResult[]>>;

export function readResults(): Results {
  return existsSync(resultsFile) ? (JSON.parse(readFileSync(resultsFile, 'utf8')) as Results) : {};
}

/** Keeps one entry per version, oldest first. */
export function writeResult(results: Results, cli: ProviderName, result: VersionResult): void {
  const list = (results[cli] ?? []).filter((each) => each.version !== result.version);
  list.push(result);
  list.sort((a, b) => compareVersions(a.version, b.version));
  results[cli] = list;
  writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
}

const allPassed = (verdicts: Partial<Record<string, CanaryVerdict>>) => Object.values(verdicts).every((canary) => canary?.outcome !== 'fail');

/** The canaries of events a CLI gained in some version: they decide that version (the events table's since), not the range. */
export const eventCanaries: readonly MeaningEventType[] = ['plan', 'subagent', 'compaction'];

export function versionPassed(result: VersionResult): boolean {
  return allPassed(withoutEvents(result.canaries));
}

/** The verdict of the event's canary: the one-shot one, else the live one (Codex compacts in live sessions only). */
export function eventVerdict(result: VersionResult, event: MeaningEventType): CanaryVerdict | undefined {
  const live = (liveCanaryNames as readonly string[]).includes(event) ? result.live?.[event as LiveCanaryName] : undefined;
  return result.canaries[event] ?? (live?.outcome === 'n/a' ? undefined : live);
}

/** How a finding names a record type the translator did not recognise. */
export const unrecognisedRecord = (type: string) => `record type not recognised: ${type}`;

/**
 * Whether the version emits the event: its canary passed, or found only records the translator does
 * not recognise beside it (a translation gap the column shows, not an event the CLI lacks).
 */
function emits(verdict: CanaryVerdict | undefined): boolean {
  if (!verdict || verdict.outcome === 'n/a' || verdict.outcome === 'gated') return false;
  return verdict.outcome === 'pass' || verdict.findings.every((finding) => finding.startsWith(unrecognisedRecord('')));
}

/**
 * The oldest version from which every newer one emits the event as its canary expects, one-shot or
 * else live (undefined when the newest does not or none ran it): the `since` of the adapter's events table.
 */
export function eventSince(list: readonly VersionResult[], event: MeaningEventType): string | undefined {
  let since: string | undefined;
  for (const result of [...list].sort((a, b) => compareVersions(b.version, a.version))) {
    if (!emits(eventVerdict(result, event))) break;
    since = result.version;
  }
  return since;
}

const withoutEvents = (verdicts: Partial<Record<string, CanaryVerdict>>) => Object.fromEntries(Object.entries(verdicts).filter(([name]) => !(eventCanaries as readonly string[]).includes(name)));

export function livePassed(result: VersionResult): boolean {
  return result.live !== undefined && allPassed(withoutEvents(result.live));
}

/**
 * The oldest version whose live canaries all pass with none failing above it (undefined when the
 * newest swept version fails them or was not swept live).
 */
export function liveMinVersion(list: readonly VersionResult[]): string | undefined {
  let min: string | undefined;
  for (const result of [...list].sort((a, b) => compareVersions(b.version, a.version))) {
    if (!livePassed(result)) break;
    min = result.version;
  }
  return min;
}

/**
 * The supported range: from the newest passing version down to the oldest one with no failing
 * version between (a version that fails is never inside the range).
 */
export function provenRange(list: readonly VersionResult[]): VersionRange | undefined {
  const newestFirst = [...list].sort((a, b) => compareVersions(b.version, a.version));
  const tested: string[] = [];
  for (const result of newestFirst) {
    if (!versionPassed(result)) {
      if (tested.length) break;
      continue;
    }
    tested.unshift(result.version);
  }
  if (!tested.length) return undefined;
  return { min: tested[0]!, testedMax: tested.at(-1)!, tested };
}
