// Options → `codex exec --json … -` (the prompt always goes on stdin).
// clap takes no value that starts with `-` after a spaced flag (`-m --x` fails with "a value is
// required", 0.171.0): caller values go as `--flag=value`, and the session id after `--`, where clap
// takes whatever follows as positionals (`resume -- --last -` names a thread "--last").
import { realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Invocation, InvocationContext, SessionTarget } from '../../core/contract/adapter.js';
import { repeatedFlagJoined } from '../../core/options/flags.js';
import { bridgedServers, type BridgedServer } from '../../core/tools/mcp-servers.js';
import { gatedRun } from '../../core/options/gated-run.js';
import { CoderError } from '../../errors.js';
import type { ResolvedOpts, TomlValue } from '../../options.js';
import { codexHomeFor, hasThreadFor } from './threads.js';

type ConfigValue = TomlValue;

/** A table key: bare when TOML allows it, else quoted. */
const tomlKey = (key: string) => (/^[A-Za-z0-9_-]+$/.test(key) ? key : JSON.stringify(key));

/** A TOML inline value: strings quoted (JSON escapes are valid TOML), arrays, and inline tables. */
export function tomlInline(value: TomlValue): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value)) return `[${value.map(tomlInline).join(', ')}]`;
  return `{${Object.entries(value).map(([key, item]) => ` ${tomlKey(key)} = ${tomlInline(item)}`).join(',')} }`;
}

/** `-c key=value`: Codex parses the value as TOML (the key may be dotted, to reach into tables). */
export function configFlag(key: string, value: ConfigValue): string[] {
  return ['-c', `${key}=${tomlInline(value)}`];
}

function configFlags(entries: Record<string, ConfigValue | undefined>): string[] {
  return Object.entries(entries).flatMap(([key, value]) => (value === undefined ? [] : configFlag(key, value)));
}

/** The variable Codex reads the tool bridge's bearer token from. */
export const toolBridgeSecretVar = 'CODERLINE_TOOL_BRIDGE_SECRET';

/**
 * One server at the tool bridge (the run's tools, or one of the caller's servers, which the host
 * fronts) as a streamable HTTP MCP server. `exec` cannot ask anyone, so without an approval default
 * Codex refuses every MCP call ("user cancelled MCP tool call"); the bridge decides each call on the
 * host instead (bridge-gate.ts), so approving here asks nothing twice. A server whose handshake
 * outlasts its start-up timeout (10 s by default: seen on a loaded machine) is dropped silently and
 * the model is offered none of its tools; `required` makes that a failed run that says so, and the
 * longer timeout leaves a busy host time to answer.
 */
function bridgedServerConfig(server: BridgedServer): Record<string, ConfigValue> {
  const key = `mcp_servers.${server.name}`;
  return {
    [`${key}.url`]: server.url,
    [`${key}.bearer_token_env_var`]: toolBridgeSecretVar,
    [`${key}.default_tools_approval_mode`]: 'approve',
    [`${key}.required`]: true,
    [`${key}.startup_timeout_sec`]: 60,
  };
}

/**
 * Codex passes its whole environment to the commands it runs, the bridge's secret too (0.171.0: `env`
 * in a command printed it). `set` blanks it there; `exclude` would too, but a `-c` array replaces the
 * user's own `exclude` list (measured: a variable the user's config.toml excluded then reached the
 * command), while one key of the `set` table merges with the user's.
 */
function secretKeptFromCommands(ctx: InvocationContext): Record<string, ConfigValue> {
  return bridgedServers(ctx.toolBridge).length ? { [`shell_environment_policy.set.${toolBridgeSecretVar}`]: '' } : {};
}

/** `dir` and every folder above it, the real path's too: Codex finds a project's trust on the nearest of them. */
function selfAndAncestors(dir: string): string[] {
  const chain = (from: string): string[] => (dirname(from) === from ? [from] : [from, ...chain(dirname(from))]);
  let real = dir;
  try {
    real = realpathSync(dir);
  } catch {
    // A folder that does not exist yet: Codex fails on it anyway.
  }
  return [...new Set([...chain(dir), ...chain(real)])];
}

/**
 * In a gated run the repository's `.codex/config.toml` stays unloaded, even where the user's config
 * trusts the folder: 0.171.0 then loaded its `mcp_servers` (with `default_tools_approval_mode =
 * "approve"`) and ran their tools past canUseTool. Codex loads project config for trusted projects only,
 * so this run marks the working directory and the folders above it untrusted (for this process only).
 */
function untrustedProject(ctx: InvocationContext): Record<string, ConfigValue> {
  if (!gatedRun(ctx.opts)) return {};
  return { projects: Object.fromEntries(selfAndAncestors(ctx.cwd).map((dir) => [dir, { trust_level: 'untrusted' }])) };
}

/** The sandbox flag: bypass beats everything, plan means read-only, and the default is workspace-write. */
function sandboxFlags(opts: ResolvedOpts): string[] {
  const bypass = opts.codexDangerouslyBypassApprovalsAndSandbox || opts.permissionPolicy?.mode === 'bypass';
  if (bypass) return ['--dangerously-bypass-approvals-and-sandbox'];
  if (opts.permissionPolicy?.mode === 'plan') return ['--sandbox', 'read-only'];
  return ['--sandbox', opts.codexSandbox ?? 'workspace-write'];
}

/**
 * What follows the exec flags. `exec resume` and `exec fork` lack `-C`/`--sandbox`/`--add-dir`,
 * but clap accepts every exec flag before the subcommand, so all runs share one flag list.
 */
function sessionArgs(session: SessionTarget): string[] {
  switch (session.kind) {
    case 'new':
      return ['-'];
    case 'resume':
      // The core has checked the id (src/schema/ids.ts); `--` keeps it a positional whatever it holds.
      return ['resume', '--', session.sessionId, '-'];
    case 'continue':
      // Picks the newest thread recorded for this cwd (checked to exist before the run).
      return ['resume', '--last', '-'];
    case 'fork':
      return ['fork', '--', session.sessionId, '-'];
  }
}

/** `resume --last` with no thread for this cwd would quietly start a new one: refuse instead. */
async function checkLatestExists(ctx: InvocationContext): Promise<void> {
  const home = codexHomeFor(ctx.opts);
  if ((await hasThreadFor(home, ctx.cwd)) === false) {
    throw new CoderError(
      'invalid_options',
      `codex: no thread recorded for ${ctx.cwd} in ${home}; resumeLatest would silently start a new thread. Run it in the directory of the thread, or resume(id).`,
      { provider: 'codex' },
    );
  }
}

/**
 * The `-c` flags both `codex exec` and `codex app-server` take: instructions, effort, network, search,
 * the tool bridge, then the caller's own overrides last so they win over the adapter's.
 */
export async function sharedConfigArgs(ctx: InvocationContext): Promise<string[]> {
  const { opts } = ctx;
  const systemPromptFile = opts.systemPrompt === undefined ? undefined : await ctx.writeTempFile('instructions.md', opts.systemPrompt);
  return [
    ...configFlags({
      model_reasoning_effort: opts.reasoningEffort ?? opts.codexReasoningEffort,
      'sandbox_workspace_write.network_access': opts.codexNetworkAccess,
      web_search: opts.codexSearch,
      model_instructions_file: systemPromptFile,
      developer_instructions: opts.appendSystemPrompt,
    }),
    ...bridgedServers(ctx.toolBridge).flatMap((server) => configFlags(bridgedServerConfig(server))),
    ...configFlags(secretKeptFromCommands(ctx)),
    ...configFlags(untrustedProject(ctx)),
    // The caller's own overrides come last so they win over the adapter's.
    ...configFlags(opts.codexConfig ?? {}),
  ];
}

/** What the CLI's environment must add for its config: the bridge's secret (argv is visible in `ps`). */
export function configEnv(ctx: InvocationContext): Record<string, string> | undefined {
  return ctx.toolBridge ? { [toolBridgeSecretVar]: ctx.toolBridge.secret } : undefined;
}

export async function buildCodexInvocation(ctx: InvocationContext): Promise<Invocation> {
  const { opts } = ctx;
  if (ctx.session.kind === 'continue') await checkLatestExists(ctx);
  const args = ['exec', '--json', '--skip-git-repo-check', '-C', ctx.cwd];
  if (opts.model) args.push(`--model=${opts.model}`);
  args.push(...sandboxFlags(opts));
  args.push(...repeatedFlagJoined('--add-dir', opts.addDirs));
  if (opts.codexDisablePlugins) args.push('--disable', 'plugins');
  if (opts.codexEphemeral) args.push('--ephemeral');
  if (opts.codexIgnoreUserConfig) args.push('--ignore-user-config');
  if (opts.codexIgnoreRules) args.push('--ignore-rules');
  args.push(...(await sharedConfigArgs(ctx)));
  // codexImages is the legacy spelling of images: both are attached.
  args.push(...repeatedFlagJoined('--image', [...(opts.codexImages ?? []), ...(opts.images ?? [])]));
  if (opts.outputSchema !== undefined && ctx.outputJsonSchema) {
    args.push('--output-schema', await ctx.writeTempFile('output-schema.json', JSON.stringify(ctx.outputJsonSchema)));
  }
  args.push(...(opts.extraArgs ?? []));
  args.push(...sessionArgs(ctx.session));
  const env = configEnv(ctx);
  return { args, stdin: ctx.prompt, ...(env ? { env } : {}) };
}
