// `npm run compat [cli | cli@version ...]`: the compatibility sweep. Each version listed in
// compat/versions.json is installed apart (scripts/compat/install.ts), runs the sweep canaries
// (src/probe/sweep-canaries.ts) through the SDK and the real binary against the fake model servers, one
// version and one canary at a time; its stdout lands in fixtures/<cli>/<version>/compat/ and its
// verdicts in compat/results.json, from which docs/compat.md and src/adapters/<cli>/versions.ts are
// rewritten (then adapters.md, in a fresh process that loads the new versions.ts).
// Then the live-session canaries (scripts/compat/live.ts) run on the same binary, into compat/live/.
// `npm run compat -- --docs` only rewrites those from the results; `--live` runs the live canaries only,
// `--live=steer,set-model` only those (the others keep their results); `--canaries=plan,subagent` only
// those one-shot canaries (the others, and the live ones, keep their results and recordings).
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AdapterSpec, LiveSpec } from '../src/core/contract/adapter.js';
import type { ProviderName } from '../src/events.js';
import type { CanaryReport } from '../src/probe/analyse.js';
import { sweepCanariesFor } from '../src/probe/sweep-canaries.js';
import { runCanary, type CanaryRun } from '../src/probe/run.js';
import { builtInAdapters } from '../src/registry.js';
import { copilotTestHome } from '../src/testing/copilot-env.js';
import { pathWithNode22 } from '../src/testing/pi-env.js';
import { compatFixtureDir, liveCanaryNames, liveCompatDir, readVersions, type CanaryOutcome, type CanaryVerdict, type CompatMeta, type LiveCompatMeta, type SweptVersion } from './compat/data.js';
import { compatMdFile, renderCompatMd, renderVersionsTs, versionsTsFile } from './compat/docs.js';
import { ensureInstalled } from './compat/install.js';
import { judgeLive, liveCanaryApplies, liveOutcome, liveScenario, runLiveScenario } from './compat/live.js';
import { readResults, unrecognisedRecord, writeResult, type Results, type VersionResult } from './compat/results.js';

function outcomeOf(report: CanaryReport): CanaryOutcome {
  if (!report.drift) return 'pass';
  if (report.errorCode === 'feature_not_supported') return /lacks it/.test(report.misclassified.join('\n')) ? 'gated' : 'n/a';
  return 'fail';
}

function findingsOf(report: CanaryReport): string[] {
  return [
    ...report.unknownRecords.map(unrecognisedRecord),
    ...report.untranslatable,
    ...report.missing.map((what) => `missing ${what}`),
    ...report.misclassified,
  ];
}

function saveRun(dir: string, run: CanaryRun): void {
  const name = run.report.canary;
  writeFileSync(join(dir, `${name}.jsonl`), run.lines.map((line) => `${line}\n`).join(''));
  const meta: CompatMeta = { canary: name, cliVersion: run.cliVersion ?? null, exit: run.exit, earlierSessionId: run.earlierSessionId ?? null, ...(run.refused ? { refused: run.refused } : {}), analysed: run.analysed, report: run.report };
  writeFileSync(join(dir, `${name}.meta.json`), `${JSON.stringify(meta, null, 2)}\n`);
}

/** What one version is swept with: its binary, the PATH it runs on, the adapter widened to reach it. */
interface SweepTarget {
  cli: ProviderName;
  entry: SweptVersion;
  executablePath: string;
  path: string | undefined;
  adapter: AdapterSpec<ProviderName>;
}

function prepareTarget(cli: ProviderName, entry: SweptVersion): SweepTarget {
  const executablePath = ensureInstalled(cli, entry);
  // The sweep reaches versions outside the adapter's range: it is what decides that range.
  const base: AdapterSpec<ProviderName> = builtInAdapters[cli];
  // Controls gated to newer versions run too: the sweep is what shows they fail below.
  const ungated = (spec: LiveSpec): LiveSpec['capabilities'] => Object.fromEntries(Object.entries(spec.capabilities).map(([feature, { since: _since, ...support }]) => [feature, support]));
  const live = base.live ? { live: { ...base.live, capabilities: ungated(base.live), minVersion: '0.0.0' } } : {};
  const adapter: AdapterSpec<ProviderName> = { ...base, versions: { min: '0.0.0', testedMax: entry.version }, ...live };
  const path = entry.node === '22' ? pathWithNode22() : process.env.PATH;
  // A first copilot run unpacks its assets into the shared test HOME: done here, not inside the
  // first canary's time-limited --version.
  if (cli === 'copilot') execFileSync(executablePath, ['--version'], { env: { ...process.env, HOME: copilotTestHome(), COPILOT_AUTO_UPDATE: 'false' }, stdio: 'ignore' });
  return { cli, entry, executablePath, path, adapter };
}

function checkVersion(target: SweepTarget, said: string | undefined): void {
  if (said !== undefined && said !== target.entry.version) throw new Error(`${target.executablePath} says it is ${target.cli} ${said}, not ${target.entry.version}`);
}

/** Runs the one-shot canaries (`only` some of them: the others keep their `earlier` verdicts and recordings). */
async function sweepVersion(target: SweepTarget, only: readonly string[] | undefined, earlier: VersionResult['canaries'] | undefined): Promise<VersionResult['canaries']> {
  const { cli, entry, executablePath, path, adapter } = target;
  const base = builtInAdapters[cli] as AdapterSpec;
  const dir = compatFixtureDir(cli, entry.version);
  if (!only) rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const all = sweepCanariesFor(base) ?? [];
  const canaries: VersionResult['canaries'] = {};
  for (const canary of all) {
    const name = canary.expect.canary;
    if (only && !only.includes(name)) {
      if (earlier?.[name]) canaries[name] = earlier[name];
      continue;
    }
    const run = await runCanary({ cli, adapter, executablePath, ...(path ? { path } : {}) }, canary);
    checkVersion(target, run.cliVersion);
    saveRun(dir, run);
    const outcome = outcomeOf(run.report);
    canaries[canary.expect.canary] = { outcome, findings: outcome === 'pass' ? [] : findingsOf(run.report) };
    console.error(`  ${cli} ${entry.version} ${canary.expect.canary}: ${outcome}${outcome === 'pass' ? '' : ` — ${findingsOf(run.report).join('; ')}`}`);
  }
  return canaries;
}

/** Runs the live canaries (`only` some of them: the others keep their `earlier` verdicts and recordings). */
async function sweepLive(target: SweepTarget, only: readonly string[] | undefined, earlier: VersionResult['live']): Promise<VersionResult['live']> {
  const { cli, entry, adapter } = target;
  if (!adapter.live) return undefined;
  const dir = liveCompatDir(cli, entry.version);
  if (!only) rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const verdicts: NonNullable<VersionResult['live']> = only ? { ...earlier } : {};
  for (const name of liveCanaryNames) {
    if (only && !only.includes(name)) continue;
    const scenario = liveScenario(name);
    if (!liveCanaryApplies(adapter, scenario)) {
      verdicts[name] = { outcome: 'n/a', findings: [] };
      continue;
    }
    const run = await runLiveScenario(adapter, scenario, { executablePath: target.executablePath, ...(target.path ? { path: target.path } : {}) });
    checkVersion(target, run.version);
    const findings = judgeLive(scenario, run.observed);
    const verdict: CanaryVerdict = { outcome: liveOutcome(builtInAdapters[cli].live!, scenario, entry.version, findings), findings };
    writeFileSync(join(dir, `${name}.jsonl`), run.text);
    const meta: LiveCompatMeta = { canary: name, cliVersion: run.version ?? null, observed: run.observed, verdict };
    writeFileSync(join(dir, `${name}.meta.json`), `${JSON.stringify(meta, null, 2)}\n`);
    verdicts[name] = verdict;
    console.error(`  ${cli} ${entry.version} live ${name}: ${verdict.outcome}${findings.length ? ` — ${findings.join('; ')}` : ''}`);
  }
  // In the order of the columns, whichever ran.
  return Object.fromEntries(liveCanaryNames.filter((name) => verdicts[name]).map((name) => [name, verdicts[name]]));
}

function writeDocs(results: Results): void {
  writeFileSync(compatMdFile, renderCompatMd(results));
  for (const cli of Object.keys(results) as ProviderName[]) {
    const source = renderVersionsTs(cli, results);
    if (source) writeFileSync(versionsTsFile(cli), source);
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const results = readResults();
  if (!args.includes('--docs')) {
    const data = readVersions();
    const liveOnly = args.includes('--live') || args.some((arg) => arg.startsWith('--live='));
    const only = args.find((arg) => arg.startsWith('--live='))?.slice('--live='.length).split(',');
    const someCanaries = args.find((arg) => arg.startsWith('--canaries='))?.slice('--canaries='.length).split(',');
    const wanted = args.filter((arg) => !arg.startsWith('--')).map((arg) => arg.split('@') as [string, string | undefined]);
    for (const [cli, list] of Object.entries(data.clis) as [ProviderName, (typeof data.clis)[ProviderName]][]) {
      for (const entry of list.versions) {
        if (wanted.length && !wanted.some(([name, version]) => name === cli && (version === undefined || version === entry.version))) continue;
        console.error(`${cli} ${entry.version} (${entry.package})`);
        const target = prepareTarget(cli, entry);
        const earlier = results[cli]?.find((result) => result.version === entry.version);
        const canaries = liveOnly && earlier ? earlier.canaries : await sweepVersion(target, someCanaries, earlier?.canaries);
        // Some one-shot canaries only: the live ones keep their results.
        const live = someCanaries ? earlier?.live : await sweepLive(target, only, earlier?.live);
        writeResult(results, cli, { ...entry, canaries, ...(live ? { live } : {}) });
        writeDocs(results);
      }
    }
  }
  writeDocs(results);
  // adapters.md from the versions.ts just written: a fresh process, since this one loaded the old.
  execFileSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'adapters-md.ts')], { stdio: 'inherit' });
}

await main();
