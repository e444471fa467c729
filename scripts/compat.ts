// `npm run compat [cli | cli@version ...]`: the compatibility sweep. Each version listed in
// compat/versions.json is installed apart (scripts/compat/install.ts), runs the sweep canaries
// (src/probe/canaries.ts) through the SDK and the real binary against the fake model servers, one
// version and one canary at a time; its stdout lands in fixtures/<cli>/<version>/compat/ and its
// verdicts in compat/results.json, from which docs/compat.md and src/adapters/<cli>/versions.ts are
// rewritten (then adapters.md, by the npm script, in a fresh process that loads the new versions.ts).
// `npm run compat -- --docs` only rewrites those from the results.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AdapterSpec } from '../src/core/adapter.js';
import type { ProviderName } from '../src/events.js';
import type { CanaryReport } from '../src/probe/analyse.js';
import { sweepCanariesFor } from '../src/probe/canaries.js';
import { runCanary, type CanaryRun } from '../src/probe/run.js';
import { builtInAdapters } from '../src/registry.js';
import { copilotTestHome } from '../src/testing/copilot-env.js';
import { pathWithNode22 } from '../src/testing/pi-env.js';
import { compatFixtureDir, readVersions, type CompatMeta, type SweptVersion } from './compat/data.js';
import { compatMdFile, renderCompatMd, renderVersionsTs, versionsTsFile } from './compat/docs.js';
import { ensureInstalled } from './compat/install.js';
import { readResults, writeResult, type CanaryOutcome, type Results, type VersionResult } from './compat/results.js';

function outcomeOf(report: CanaryReport): CanaryOutcome {
  if (!report.drift) return 'pass';
  if (report.errorCode === 'feature_not_supported') return /lacks it/.test(report.misclassified.join('\n')) ? 'gated' : 'n/a';
  return 'fail';
}

function findingsOf(report: CanaryReport): string[] {
  return [
    ...report.unknownRecords.map((type) => `record type not recognised: ${type}`),
    ...report.untranslatable,
    ...report.missing.map((what) => `missing ${what}`),
    ...report.misclassified,
  ];
}

function saveRun(dir: string, run: CanaryRun): void {
  const name = run.report.canary;
  writeFileSync(join(dir, `${name}.jsonl`), run.lines.map((line) => `${line}\n`).join(''));
  const meta: CompatMeta = { canary: name, cliVersion: run.cliVersion ?? null, exit: run.exit, earlierSessionId: run.earlierSessionId ?? null, analysed: run.analysed, report: run.report };
  writeFileSync(join(dir, `${name}.meta.json`), `${JSON.stringify(meta, null, 2)}\n`);
}

async function sweepVersion(cli: ProviderName, entry: SweptVersion): Promise<VersionResult> {
  const executablePath = ensureInstalled(cli, entry);
  // The sweep reaches versions outside the adapter's range: it is what decides that range.
  const base = builtInAdapters[cli] as AdapterSpec;
  const adapter: AdapterSpec = { ...base, versions: { min: '0.0.0', testedMax: entry.version } };
  const path = entry.node === '22' ? pathWithNode22() : process.env.PATH;
  // A first copilot run unpacks its assets into the shared test HOME: done here, not inside the
  // first canary's time-limited --version.
  if (cli === 'copilot') execFileSync(executablePath, ['--version'], { env: { ...process.env, HOME: copilotTestHome(), COPILOT_AUTO_UPDATE: 'false' }, stdio: 'ignore' });
  const dir = compatFixtureDir(cli, entry.version);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const canaries: VersionResult['canaries'] = {};
  for (const canary of sweepCanariesFor(base) ?? []) {
    const run = await runCanary({ cli, adapter, executablePath, ...(path ? { path } : {}) }, canary);
    if (run.cliVersion !== undefined && run.cliVersion !== entry.version) throw new Error(`${executablePath} says it is ${cli} ${run.cliVersion}, not ${entry.version}`);
    saveRun(dir, run);
    const outcome = outcomeOf(run.report);
    canaries[canary.expect.canary] = { outcome, findings: outcome === 'pass' ? [] : findingsOf(run.report) };
    console.error(`  ${cli} ${entry.version} ${canary.expect.canary}: ${outcome}${outcome === 'pass' ? '' : ` — ${findingsOf(run.report).join('; ')}`}`);
  }
  return { ...entry, canaries };
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
    const wanted = args.map((arg) => arg.split('@') as [string, string | undefined]);
    for (const [cli, list] of Object.entries(data.clis) as [ProviderName, (typeof data.clis)[ProviderName]][]) {
      for (const entry of list.versions) {
        if (wanted.length && !wanted.some(([name, version]) => name === cli && (version === undefined || version === entry.version))) continue;
        console.error(`${cli} ${entry.version} (${entry.package})`);
        writeResult(results, cli, await sweepVersion(cli, entry));
        writeDocs(results);
      }
    }
  }
  writeDocs(results);
}

await main();
