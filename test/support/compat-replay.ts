// The compatibility sweep's recordings (fixtures/<cli>/<version>/compat/, written by `npm run compat`)
// replayed through today's translators: each canary must judge exactly as the sweep recorded it in
// compat/results.json and docs/compat.md, and every version in the adapter's range must pass all.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compatFixtureDir, readVersions, type CompatMeta } from '../../scripts/compat/data.js';
import { readResults } from '../../scripts/compat/results.js';
import { compareVersions } from '../../src/core/version.js';
import type { ProviderName } from '../../src/events.js';
import { analyseCanary } from '../../src/probe/analyse.js';
import { sweepCanariesFor } from '../../src/probe/canaries.js';
import { builtInAdapters } from '../../src/registry.js';

const DAY_MS = 24 * 60 * 60 * 1000;

function readCanary(cli: ProviderName, version: string, name: string): { meta: CompatMeta; lines: string[] } {
  const dir = compatFixtureDir(cli, version);
  const meta = JSON.parse(readFileSync(join(dir, `${name}.meta.json`), 'utf8')) as CompatMeta;
  const lines = readFileSync(join(dir, `${name}.jsonl`), 'utf8').split('\n').filter((line) => line.trim() !== '');
  return { meta, lines };
}

export function describeCompatReplay(cli: ProviderName): void {
  const adapter = builtInAdapters[cli];
  const results = readResults()[cli] ?? [];
  const canaries = sweepCanariesFor(adapter) ?? [];

  describe(`${cli}: the compatibility sweep's recordings, every version`, () => {
    it('covers at least five versions and every release of the four months before the file was written, and the range is what they prove', () => {
      const data = readVersions();
      const swept = data.clis[cli].versions.map((entry) => entry.version);
      expect(results.map((result) => result.version).sort(compareVersions)).toEqual([...swept].sort(compareVersions));
      const { min, testedMax, tested = [] } = adapter.versions;
      expect(tested.length).toBeGreaterThanOrEqual(5);
      expect(testedMax).toBe(data.clis[cli].newest);
      const released = (version: string) => Date.parse(results.find((result) => result.version === version)!.released);
      expect(released(min)).toBeLessThanOrEqual(Date.parse(data.written) - 120 * DAY_MS);
      for (const result of results) {
        const inRange = compareVersions(result.version, min) >= 0 && compareVersions(result.version, testedMax) <= 0;
        const passed = Object.values(result.canaries).every((canary) => canary.outcome !== 'fail');
        expect({ version: result.version, inRange, tested: tested.includes(result.version) }).toEqual({ version: result.version, inRange, tested: inRange && passed });
        if (inRange) expect({ version: result.version, passed }).toEqual({ version: result.version, passed: true });
      }
    });

    for (const result of results) {
      it(`${result.version}: each canary replays to its recorded verdict`, () => {
        for (const canary of canaries) {
          const name = canary.expect.canary;
          const recorded = result.canaries[name];
          expect(recorded, `${result.version} ${name} in compat/results.json`).toBeDefined();
          if (!existsSync(join(compatFixtureDir(cli, result.version), `${name}.meta.json`))) throw new Error(`${cli} ${result.version}: no recording of ${name}`);
          const { meta, lines } = readCanary(cli, result.version, name);
          expect(meta.cliVersion ?? result.version).toBe(result.version);
          if (!meta.analysed) {
            expect(recorded?.outcome).not.toBe('pass');
            continue;
          }
          const report = analyseCanary(cli, canary.expect, lines, meta.exit, canary.opts, meta.earlierSessionId ?? undefined);
          expect({ version: result.version, report }).toEqual({ version: result.version, report: meta.report });
          expect(report.drift).toBe(recorded?.outcome !== 'pass');
        }
      });
    }
  });
}
