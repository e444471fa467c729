// `coderline doctor`: which CLIs are installed, whether their versions are supported, and which
// credentials each would pick up. Variable names only: a value never reaches the output.
import { parseArgs } from 'node:util';
import type { ProviderName } from '../index.js';
import { buildEnv } from '../core/env.js';
import { checkVersion, versionRangeText } from '../core/version.js';
import { builtInAdapters } from '../registry.js';
import { UsageError } from './usage-error.js';

export interface DoctorEntry {
  cli: ProviderName;
  binary: string;
  installed: boolean;
  version: string | null;
  supported: string;
  /** ok: ready; newer: runs, with a warning; unknown: version unreadable; too-old; missing. */
  state: 'ok' | 'newer' | 'unknown' | 'too-old' | 'missing' | 'broken';
  detail: string | null;
  /** Set auth variables by name, most preferred first. */
  authVariables: string[];
  storedLogin: string;
}

async function inspect(cli: ProviderName, env: Record<string, string>): Promise<DoctorEntry> {
  const adapter = builtInAdapters[cli];
  const base = {
    cli,
    binary: adapter.binary,
    supported: versionRangeText(adapter),
    authVariables: (adapter.auth?.variables ?? []).filter((name) => (env[name] ?? '') !== ''),
    storedLogin: adapter.auth?.storedLogin ?? 'login of the CLI (unknown where)',
  };
  try {
    const { version, warning } = await checkVersion(adapter, adapter.binary, env, process.cwd());
    const state = version === undefined ? 'unknown' : warning ? 'newer' : 'ok';
    return { ...base, installed: true, version: version ?? null, state, detail: warning ?? null };
  } catch (error) {
    const code = (error as { code?: string }).code;
    const state = code === 'binary_not_found' ? 'missing' : code === 'version_unsupported' ? 'too-old' : 'broken';
    const version = (error as { version?: string }).version ?? null;
    return { ...base, installed: state !== 'missing', version, state, detail: (error as Error).message };
  }
}

async function doctorReport(env: NodeJS.ProcessEnv = process.env): Promise<DoctorEntry[]> {
  const cliEnv = buildEnv({ inherited: env });
  return Promise.all((Object.keys(builtInAdapters) as ProviderName[]).map((cli) => inspect(cli, cliEnv)));
}

const stateText: Record<DoctorEntry['state'], string> = {
  ok: 'ok',
  newer: 'newer than tested',
  unknown: 'version unknown',
  'too-old': 'too old',
  missing: 'not installed',
  broken: 'does not run',
};

function formatDoctor(entries: readonly DoctorEntry[]): string {
  return entries.map((entry) => {
    const auth = entry.authVariables.length
      ? `auth: ${entry.authVariables[0]}${entry.authVariables.length > 1 ? ` (also set: ${entry.authVariables.slice(1).join(', ')})` : ''}`
      : `auth: no variable set; would use the ${entry.storedLogin}`;
    const lines = [
      `${entry.cli.padEnd(8)}${(entry.version ?? '-').padEnd(10)}${stateText[entry.state]} (supported ${entry.supported})`,
      `        ${auth}`,
    ];
    if (entry.detail) lines.push(`        ${entry.detail.split('\n')[0]}`);
    return lines.join('\n');
  }).join('\n');
}

export const doctorFlags = {
  json: { type: 'boolean', description: 'Print the report as JSON' },
  help: { type: 'boolean', short: 'h', description: 'Show this help' },
} as const;

/** Exit 0 when at least one CLI is ready to run, 5 when none is. */
export async function doctorCommand(argv: readonly string[]): Promise<number | 'help'> {
  let values;
  try {
    ({ values } = parseArgs({ args: [...argv], options: doctorFlags, strict: true }));
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0] ?? String(error), 'Run `coderline doctor --help`.');
  }
  if (values.help) return 'help';
  const entries = await doctorReport();
  process.stdout.write(values.json ? `${JSON.stringify(entries, null, 2)}\n` : `${formatDoctor(entries)}\n`);
  return entries.some((entry) => entry.state === 'ok' || entry.state === 'newer') ? 0 : 5;
}
