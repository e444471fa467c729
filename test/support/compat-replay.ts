// The compatibility sweep's recordings (fixtures/<cli>/<version>/compat/, written by `npm run compat`)
// replayed through today's translators: each canary must judge exactly as the sweep recorded it in
// compat/results.json and docs/compat.md, and every version in the adapter's range must pass all.
// The live canaries' recordings (compat/live/) replay through the live translator to the turns the
// session returned, and judge as recorded; the live minVersion is what they prove.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compatFixtureDir, liveCanaryNames, liveCompatDir, readVersions, type CompatMeta, type LiveCompatMeta } from '../../scripts/compat/data.js';
import { judgeLive, liveCanaryApplies, liveOutcome, liveScenario } from '../../scripts/compat/live.js';
import { eventCanaries, eventSince, eventVerdict, liveMinVersion, readResults, versionPassed, type VersionResult } from '../../scripts/compat/results.js';
import type { AdapterSpec } from '../../src/core/contract/adapter.js';
import { parseRecording } from '../../src/replay/live-recording.js';
import { compareVersions } from '../../src/core/versions/version.js';
import type { ProviderName } from '../../src/events.js';
import { analyseCanary } from '../../src/probe/analyse.js';
import { sweepCanariesFor } from '../../src/probe/sweep-canaries.js';
import { builtInAdapters } from '../../src/registry.js';
import { permissionQuestions, replayTurns, trackerOf } from './live-replay.js';

const DAY_MS = 24 * 60 * 60 * 1000;

function readCanary(cli: ProviderName, version: string, name: string): { meta: CompatMeta; lines: string[] } {
  const dir = compatFixtureDir(cli, version);
  const meta = JSON.parse(readFileSync(join(dir, `${name}.meta.json`), 'utf8')) as CompatMeta;
  const lines = readFileSync(join(dir, `${name}.jsonl`), 'utf8').split('\n').filter((line) => line.trim() !== '');
  return { meta, lines };
}

/** One version's live canaries: the recording replays to the turns the session returned, the verdict is the recorded one. */
function expectLiveReplays(adapter: AdapterSpec, result: VersionResult): void {
  const dir = liveCompatDir(adapter.name as ProviderName, result.version);
  for (const name of liveCanaryNames) {
    const recorded = result.live?.[name];
    expect(recorded, `${result.version} live ${name} in compat/results.json`).toBeDefined();
    const scenario = liveScenario(name);
    if (!liveCanaryApplies(adapter, scenario)) {
      expect(recorded?.outcome).toBe('n/a');
      continue;
    }
    const meta = JSON.parse(readFileSync(join(dir, `${name}.meta.json`), 'utf8')) as LiveCompatMeta;
    const recording = parseRecording(readFileSync(join(dir, `${name}.jsonl`), 'utf8'));
    expect(meta.cliVersion ?? result.version).toBe(result.version);
    expect({ version: result.version, name, verdict: meta.verdict }).toEqual({ version: result.version, name, verdict: recorded });
    const findings = judgeLive(scenario, meta.observed);
    expect({ version: result.version, name, findings, outcome: liveOutcome(adapter.live!, scenario, result.version, findings) }).toEqual({ version: result.version, name, ...meta.verdict });
    const turns = replayTurns(adapter, recording);
    meta.observed.turns.forEach((turn, index) => {
      const replayed = trackerOf(adapter, turns[index] ?? []);
      const seen = { version: result.version, name, turn: index + 1 };
      if (turn.status === 'success') expect({ ...seen, status: replayed.done?.status, text: replayed.text }).toEqual({ ...seen, status: 'success', text: turn.text });
      // A failed turn replays as failed: no recorded failure may turn into a success.
      if (turn.status === 'error') expect({ ...seen, status: replayed.done?.status }).toEqual({ ...seen, status: 'error' });
    });
    if (meta.observed.compaction) {
      const phases = turns.flat().flatMap((event) => (event.type === 'compaction' ? [event.phase] : []));
      expect({ version: result.version, name, compaction: phases }).toEqual({ version: result.version, name, compaction: meta.observed.compaction });
    }
    const questions = permissionQuestions(adapter, recording);
    expect({ version: result.version, name, asked: questions.length }).toEqual({ version: result.version, name, asked: meta.observed.asked });
    for (const question of questions) expect(question.toolName, `${result.version} live ${name}: the question names its tool`).toBeTruthy();
  }
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
        const passed = versionPassed(result);
        expect({ version: result.version, inRange, tested: tested.includes(result.version) }).toEqual({ version: result.version, inRange, tested: inRange && passed });
        if (inRange) expect({ version: result.version, passed }).toEqual({ version: result.version, passed: true });
      }
    });

    it('the events table\'s since is what the event canaries prove: the oldest version from which every newer one emits the event', () => {
      for (const event of eventCanaries) {
        const support = adapter.events?.[event];
        if (!support || 'none' in support || !results.some((result) => eventVerdict(result, event))) continue;
        expect({ event, since: support.since }).toEqual({ event, since: eventSince(results, event) });
      }
    });

    if (adapter.live) {
      const live = adapter.live;
      it('the live minVersion is the oldest version whose live canaries pass with none failing above it', () => {
        expect(live.minVersion).toBe(liveMinVersion(results));
      });
      for (const result of results) {
        it(`${result.version}: each live canary replays to the turns and verdict it recorded`, () => expectLiveReplays(adapter, result));
      }
    }

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
          const report = analyseCanary(cli, canary.expect, lines, meta.exit, canary.opts, meta.earlierSessionId ?? undefined, meta.refused);
          expect({ version: result.version, report }).toEqual({ version: result.version, report: meta.report });
          expect(report.drift).toBe(recorded?.outcome !== 'pass');
        }
      });
    }
  });
}
