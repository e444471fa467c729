// `coderline doctor --probe`: the canaries run against every CLI that can run, and the verdict per
// CLI. Drift is any canary finding; a version newer than tested is reported but is not drift itself.
import type { ProviderName } from '../events.js';
import type { VersionStatus } from '../core/versions/version.js';
import { EXIT } from './exit-codes.js';
import type { CanaryReport } from '../probe/analyse.js';
import { probeCli } from '../probe/run.js';

/** One CLI's doctor line, as far as the probe reads and reports it. */
export interface CliStatus {
  cli: ProviderName;
  version: string | null;
  supported: string;
  /**
   * tested: a version the compatibility sweep passed; untested: in the supported range but not swept
   * (runs quietly); newer: newer than tested (runs, with a warning); too-old: refused (detail says how
   * to upgrade); unknown: version unreadable; missing; broken.
   */
  state: VersionStatus | 'unknown' | 'missing' | 'broken';
  detail: string | null;
}

export interface ProbeEntry extends CliStatus {
  /** Whether the canaries ran: only for CLIs that are installed and not too old. */
  probed: boolean;
  /** One report per canary (empty when not probed). */
  canaries: CanaryReport[];
  drift: boolean;
}

const probeable = new Set<CliStatus['state']>(['tested', 'untested', 'newer', 'unknown']);

async function probeEntry(entry: CliStatus): Promise<ProbeEntry> {
  const { cli, version, supported, state, detail } = entry;
  const canaries = probeable.has(state) ? await probeCli(cli) : undefined;
  return { cli, version, supported, state, detail, probed: canaries !== undefined, canaries: canaries ?? [], drift: canaries?.some((canary) => canary.drift) ?? false };
}

/** Probes the CLIs side by side: each canary has its own fake model, directories and process. */
export function probeAll(entries: readonly CliStatus[]): Promise<ProbeEntry[]> {
  return Promise.all(entries.map(probeEntry));
}

/** Drift wins; then, when nothing could be probed, the CLI is unavailable. */
export function probeExitCode(entries: readonly ProbeEntry[]): number {
  if (entries.some((entry) => entry.drift)) return EXIT.drift;
  return entries.some((entry) => entry.probed) ? EXIT.success : EXIT.cliUnavailable;
}

/** The lines under a CLI's doctor line: the verdict, then each finding named by its canary. */
export function probeDetails(entry: ProbeEntry): string[] {
  if (!entry.probed) return ['probe: not run'];
  const names = entry.canaries.map((canary) => canary.canary).join(', ');
  if (!entry.drift) return [`probe: no drift (${names} as expected)`];
  const findings = entry.canaries.flatMap((canary) => [
    ...canary.unknownRecords.map((type) => `${canary.canary}: record type not recognised: ${type}`),
    ...canary.untranslatable.map((message) => `${canary.canary}: ${message}`),
    ...canary.missing.map((what) => `${canary.canary}: missing ${what}`),
    ...canary.misclassified.map((what) => `${canary.canary}: ${what}`),
  ]);
  return ['probe: DRIFT', ...findings];
}
