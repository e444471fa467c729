// The environment a CLI runs with: what it inherits of the parent's (all of it, a minimal set, or
// the names the caller lists), minus variables that break nested processes, then the adapter's
// settings, then the caller's extraEnv (empty strings kept), then unsetEnv. The agent's shell tool
// inherits the CLI's environment, so what is inherited is what a model-chosen command can read.
import type { AdapterSpec } from '../contract/adapter.js';

type CliEnvironment = Pick<AdapterSpec, 'auth' | 'environment'>;

/** `'all'` (the default), `'minimal'`, or exactly the names listed. */
export type InheritEnv = 'all' | 'minimal' | readonly string[];

/** Variables that make a nested Node process misbehave (e.g. think it runs inside npm or a debugger). */
const DENIED = new Set(['NODE_OPTIONS', 'NODE_CHANNEL_FD', 'NODE_UNIQUE_ID', 'NODE_INSPECT_RESUME_ON_START', 'VSCODE_INSPECTOR_OPTIONS', 'INIT_CWD']);
const DENIED_PREFIXES = ['npm_', 'NPM_CONFIG_'];

/**
 * What `inheritEnv: 'minimal'` keeps, besides the CLI's own names (its adapter's `auth.variables`
 * and `environment.minimal`): where programs are, who and where the user is, the locale, temp dirs,
 * proxies and CA certificates, and what Windows cannot start a process without. Matched in any case.
 */
export const MINIMAL_ENV: readonly string[] = [
  'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'TERM', 'TZ', 'LANG', 'LANGUAGE', 'LC_*',
  'TMPDIR', 'TMP', 'TEMP',
  'XDG_CONFIG_HOME', 'XDG_CACHE_HOME', 'XDG_DATA_HOME', 'XDG_STATE_HOME', 'XDG_RUNTIME_DIR',
  'HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'NO_PROXY',
  'NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR', 'REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE',
  'SYSTEMROOT', 'WINDIR', 'COMSPEC', 'PATHEXT', 'USERPROFILE', 'APPDATA', 'LOCALAPPDATA', 'PROGRAMDATA',
];

function isDenied(name: string, cliDenied: ReadonlySet<string>): boolean {
  return DENIED.has(name) || cliDenied.has(name) || DENIED_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/** Which inherited names pass: everything, the minimal set, or the caller's list (exact names). */
function inheritFilter(inherit: InheritEnv, cli: CliEnvironment): (name: string) => boolean {
  if (inherit === 'all') return () => true;
  if (inherit !== 'minimal') {
    const listed = new Set(inherit);
    return (name) => listed.has(name);
  }
  const names = new Set<string>();
  const prefixes: string[] = [];
  for (const name of [...MINIMAL_ENV, ...(cli.auth?.variables ?? []), ...(cli.environment?.minimal ?? [])]) {
    if (name.endsWith('*')) prefixes.push(name.slice(0, -1).toUpperCase());
    else names.add(name.toUpperCase());
  }
  return (name) => {
    const upper = name.toUpperCase();
    return names.has(upper) || prefixes.some((prefix) => upper.startsWith(prefix));
  };
}

export interface InheritedLayer {
  inherited: NodeJS.ProcessEnv;
  /** Default `'all'`. */
  inherit?: InheritEnv | undefined;
  /** The CLI's own names: those it must not inherit, and those `'minimal'` keeps. */
  cli?: CliEnvironment | undefined;
}

export interface UpperLayers {
  adapter?: Record<string, string> | undefined;
  extra?: Record<string, string> | undefined;
  unset?: readonly string[] | undefined;
}

export type EnvLayers = InheritedLayer & UpperLayers;

/** What the CLI inherits of `inherited`: the bottom layer, which a launch builds once for its two environments. */
export function inheritedEnv({ inherited, inherit = 'all', cli = {} }: InheritedLayer): Record<string, string> {
  const passes = inheritFilter(inherit, cli);
  const cliDenied = new Set(cli.environment?.denied);
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(inherited)) {
    if (value !== undefined && passes(name) && !isDenied(name, cliDenied)) env[name] = value;
  }
  return env;
}

/** The inherited layer with the adapter's settings, then extraEnv, over it, and unsetEnv taken out. */
export function withUpperLayers(inherited: Record<string, string>, { adapter, extra, unset }: UpperLayers): Record<string, string> {
  const env = { ...inherited, ...adapter, ...extra };
  for (const name of unset ?? []) delete env[name];
  return env;
}

export function buildEnv(layers: EnvLayers): Record<string, string> {
  return withUpperLayers(inheritedEnv(layers), layers);
}
