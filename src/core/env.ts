// The environment a CLI runs with: the parent's, minus variables known to break nested CLIs, then
// the adapter's settings, then the caller's extraEnv (empty strings kept), then unsetEnv.

/** Variables that make a nested CLI misbehave (e.g. think it runs inside another agent or npm). */
const DENIED = new Set([
  'CLAUDECODE',
  'CLAUDE_CODE_ENTRYPOINT',
  'CLAUDE_CODE_SSE_PORT',
  'CODEX_SANDBOX',
  'CODEX_SANDBOX_NETWORK_DISABLED',
  'CODEX_THREAD_ID',
  'NODE_OPTIONS',
  'NODE_CHANNEL_FD',
  'NODE_UNIQUE_ID',
  'NODE_INSPECT_RESUME_ON_START',
  'VSCODE_INSPECTOR_OPTIONS',
  'INIT_CWD',
]);
const DENIED_PREFIXES = ['npm_', 'NPM_CONFIG_'];

function isDenied(name: string): boolean {
  return DENIED.has(name) || DENIED_PREFIXES.some((prefix) => name.startsWith(prefix));
}

export interface EnvLayers {
  inherited: NodeJS.ProcessEnv;
  adapter?: Record<string, string> | undefined;
  extra?: Record<string, string> | undefined;
  unset?: readonly string[] | undefined;
}

export function buildEnv({ inherited, adapter, extra, unset }: EnvLayers): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(inherited)) {
    if (value !== undefined && !isDenied(name)) env[name] = value;
  }
  Object.assign(env, adapter, extra);
  for (const name of unset ?? []) delete env[name];
  return env;
}
