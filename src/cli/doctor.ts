// `coderline doctor`: which CLIs are installed, whether their versions are supported, and which
// credentials each would pick up. Variable names only: a value never reaches the output.
// `--probe` also runs a canary conversation with each one against a fake model (src/probe).
import type { ProviderName } from '../index.js';
import { buildEnv } from '../core/process/env.js';
import type { AdapterSpec } from '../core/contract/adapter.js';
import { checkVersion, newerThanTested, versionRangeText, versionStatus } from '../core/versions/version.js';
import { probeAll, probeDetails, probeExitCode, type CliStatus } from './doctor-probe.js';
import { builtInAdapters } from '../registry.js';
import { EXIT } from './exit-codes.js';
import { PROVIDERS } from './run-args.js';
import { parseCommandArgs, UsageError } from './usage-error.js';

export interface DoctorEntry extends CliStatus {
  binary: string;
  installed: boolean;
  /** Set auth variables by name, most preferred first. */
  authVariables: string[];
  storedLogin: string;
}

/** How to install the newest tested version, when the adapter names its package. */
export function upgradeCommand(adapter: AdapterSpec): string {
  return adapter.npmPackage ? `npm install -g ${adapter.npmPackage}@${adapter.versions.testedMax}` : adapter.installHint;
}

async function inspect(cli: ProviderName, env: Record<string, string>): Promise<DoctorEntry> {
  const adapter = builtInAdapters[cli] as AdapterSpec;
  const base = {
    cli,
    binary: adapter.binary,
    supported: versionRangeText(adapter),
    authVariables: (adapter.auth?.variables ?? []).filter((name) => (env[name] ?? '') !== ''),
    storedLogin: adapter.auth?.storedLogin ?? 'login of the CLI (unknown where)',
  };
  try {
    const { version, warning } = await checkVersion(adapter, adapter.binary, env, process.cwd());
    if (version === undefined) return { ...base, installed: true, version: null, state: 'unknown', detail: warning ?? null };
    // The run-time warning comes once per process: the status is worked out here, every time.
    const state = versionStatus(adapter, version);
    return { ...base, installed: true, version, state, detail: state === 'newer' ? newerThanTested(adapter, version) : null };
  } catch (error) {
    const code = (error as { code?: string }).code;
    const state = code === 'binary_not_found' ? 'missing' : code === 'version_unsupported' ? 'too-old' : 'broken';
    const version = (error as { version?: string }).version ?? null;
    const detail = state === 'too-old' ? `${(error as Error).message} Run: ${upgradeCommand(adapter)}` : (error as Error).message;
    return { ...base, installed: state !== 'missing', version, state, detail };
  }
}

async function doctorReport(env: NodeJS.ProcessEnv = process.env): Promise<DoctorEntry[]> {
  return Promise.all((Object.keys(builtInAdapters) as ProviderName[]).map((cli) => inspect(cli, buildEnv({ inherited: env, cli: builtInAdapters[cli] }))));
}

/** States in which a run goes ahead. */
const ready = new Set<DoctorEntry['state']>(['tested', 'untested', 'newer']);

const stateText: Record<DoctorEntry['state'], string> = {
  tested: 'tested',
  untested: 'in range, untested',
  newer: 'newer than tested',
  unknown: 'version unknown',
  'too-old': 'too old',
  missing: 'not installed',
  broken: 'does not run',
};

type EntryHead = Pick<DoctorEntry, 'cli' | 'version' | 'state' | 'supported' | 'detail'>;

/** A CLI's line, then its indented details, then the first line of what went wrong, if anything. */
function formatEntry(entry: EntryHead, details: readonly string[]): string {
  const lines = [`${entry.cli.padEnd(8)}${(entry.version ?? '-').padEnd(10)}${stateText[entry.state]} (supported ${entry.supported})`, ...details.map((line) => `        ${line}`)];
  if (entry.detail) lines.push(`        ${entry.detail.split('\n')[0]}`);
  return lines.join('\n');
}

function formatDoctor(entries: readonly DoctorEntry[]): string {
  return entries.map((entry) => {
    const auth = entry.authVariables.length
      ? `auth: ${entry.authVariables[0]}${entry.authVariables.length > 1 ? ` (also set: ${entry.authVariables.slice(1).join(', ')})` : ''}`
      : `auth: no variable set; would use the ${entry.storedLogin}`;
    return formatEntry(entry, [auth]);
  }).join('\n');
}

export const doctorFlags = {
  json: { type: 'boolean', description: 'Print the report as JSON' },
  probe: { type: 'boolean', description: 'Also run a short canary conversation with each CLI against a fake model and report wire drift' },
  cli: { type: 'string', description: `With --probe: probe only this CLI (${PROVIDERS.join('|')})` },
  help: { type: 'boolean', short: 'h', description: 'Show this help' },
} as const;

/** `--probe`: exit 0 without drift, 6 with drift, 5 when no CLI (or not the one asked for) could be probed. */
async function probeCommand(json: boolean, only: string | undefined): Promise<number> {
  if (only !== undefined && !(PROVIDERS as readonly string[]).includes(only)) throw new UsageError(`unknown CLI "${only}"`, `--cli takes one of ${PROVIDERS.join(', ')}.`);
  const wanted = (await doctorReport()).filter((entry) => only === undefined || entry.cli === only);
  const entries = await probeAll(wanted);
  process.stdout.write(json ? `${JSON.stringify(entries, null, 2)}\n` : `${entries.map((entry) => formatEntry(entry, probeDetails(entry))).join('\n')}\n`);
  return probeExitCode(entries);
}

/** Exit 0 when at least one CLI is ready to run, 5 when none is. */
export async function doctorCommand(argv: readonly string[]): Promise<number | 'help'> {
  const { values } = parseCommandArgs('doctor', { args: [...argv], options: doctorFlags, strict: true });
  if (values.help) return 'help';
  if (values.probe) return probeCommand(values.json === true, values.cli);
  if (values.cli !== undefined) throw new UsageError('--cli needs --probe', 'Run `coderline doctor --probe --cli NAME`, or `coderline doctor` for every CLI.');
  const entries = await doctorReport();
  process.stdout.write(values.json ? `${JSON.stringify(entries, null, 2)}\n` : `${formatDoctor(entries)}\n`);
  return entries.some((entry) => ready.has(entry.state)) ? EXIT.success : EXIT.cliUnavailable;
}
