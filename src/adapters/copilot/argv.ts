// Options → `copilot` command line. The prompt goes on stdin: with no `-p`, the CLI reads piped stdin
// as the prompt (verified on 1.0.102), so it never shows in `ps` and has no argv length limit.
import { resolve } from 'node:path';
import type { Invocation, InvocationContext, SessionTarget } from '../../core/contract/adapter.js';
import { bridgedServers } from '../../core/tools/mcp-servers.js';
import { isUuid, notWholeSessionId } from '../../schema/ids.js';
import { compareVersions } from '../../core/versions/version.js';
import { promptWithOutputSchema } from '../../core/options/schema-prompt.js';
import { rulesSplitByCli } from '../../core/options/flags.js';
import { FeatureNotSupportedError, InvalidOptionsError } from '../../errors.js';
import { gatedRun } from '../../core/options/gated-run.js';
import type { ResolvedOpts } from '../../options.js';
import { trustedFolderOf } from './trust.js';
import { readUsageFile } from './usage-file.js';
import { toolNamesOfKinds } from '../../core/translate/tool-facts.js';
import { copilotToolCatalog } from './tool-facts.js';

/** Flags every run gets: JSONL on stdout, and no `ask_user` tool (nobody is there to answer). */
export const baseArgs = ['--output-format', 'json', '--no-ask-user'] as const;

/**
 * The list flags (`--allow-tool [<tools>...]` and friends) are variadic: `--flag=value`, once per
 * value, keeps each value bound to its flag whatever follows. Single-value flags take caller values
 * as `--flag=value` too: a spaced value that starts with `-` is refused ("a value is required", 1.0.102).
 */
function repeated(flag: string, values: readonly string[] | undefined): string[] {
  return (values ?? []).map((value) => `${flag}=${value}`);
}

/** `--mode` from copilotMode or permissionPolicy.mode=plan (validated not to disagree). */
function modeOf(opts: ResolvedOpts): string | undefined {
  if (opts.copilotMode) return opts.copilotMode;
  return opts.permissionPolicy?.mode === 'plan' ? 'plan' : undefined;
}

export function validateCopilotOptions(opts: ResolvedOpts, session: SessionTarget): void {
  const issues: string[] = [];
  // copilot 1.0.102 only creates a session under a UUID; anything else must name an existing one.
  if (opts.sessionId && session.kind === 'new' && !isUuid(opts.sessionId)) {
    issues.push(`sessionId "${opts.sessionId}" must be a UUID for Copilot`);
  }
  const notWhole = notWholeSessionId(session, 'copilot');
  if (notWhole) issues.push(notWhole);
  const policyMode = opts.permissionPolicy?.mode;
  if (opts.copilotMode && policyMode === 'plan' && opts.copilotMode !== 'plan') {
    issues.push(`copilotMode "${opts.copilotMode}" contradicts permissionPolicy.mode "plan"`);
  }
  // The list flags' values are comma lists to the CLI (1.0.102): allowedTools ["write,shell"] allowed shell
  // (measured); --allow-url and --deny-url are list flags of the same kind.
  const allowed = [...(opts.allowedTools ?? []), ...(opts.permissionPolicy?.allow ?? [])];
  issues.push(...rulesSplitByCli({ 'allowedTools / permissionPolicy.allow': allowed, 'permissionPolicy.deny': opts.permissionPolicy?.deny, copilotAvailableTools: opts.copilotAvailableTools, copilotExcludedTools: opts.copilotExcludedTools, copilotAllowUrls: opts.copilotAllowUrls, copilotDenyUrls: opts.copilotDenyUrls }, /,/, 'copilot'));
  // With --available-tools the CLI ignores --excluded-tools: the denied kinds would not hold.
  if (opts.permissionPolicy?.denyKinds?.length && opts.copilotAvailableTools?.length) {
    issues.push('permissionPolicy.denyKinds cannot hold with copilotAvailableTools (Copilot then ignores --excluded-tools): leave the tools of those kinds out of copilotAvailableTools instead');
  }
  if (issues.length) throw new InvalidOptionsError(issues, 'copilot');
}

function sessionArgs(session: SessionTarget, opts: ResolvedOpts): string[] {
  switch (session.kind) {
    case 'resume':
      return [`--resume=${session.sessionId}`];
    case 'continue':
      return ['--continue'];
    case 'fork':
      // canFork is false: the core refuses fork() before building an invocation.
      throw new InvalidOptionsError(['Copilot cannot fork a session'], 'copilot');
    case 'new':
      // Later turns of that session arrive here as `resume`: the id only names the first one.
      return opts.sessionId ? [`--session-id=${opts.sessionId}`] : [];
  }
}

/**
 * Every server at the tool bridge (the run's tools and the caller's servers, which the host fronts)
 * from one temp file (the bridge's secret stays out of argv). The bridge decides each call on the host
 * (bridge-gate.ts), so Copilot does not ask too: the run's tools are allowed by name, the caller's
 * servers whole (`--allow-tool=<server>`).
 */
async function mcpServerArgs(ctx: InvocationContext): Promise<string[]> {
  const bridge = ctx.toolBridge;
  const listed = bridgedServers(bridge);
  if (!bridge || !listed.length) return [];
  const servers = Object.fromEntries(listed.map((server) => [server.name, { type: 'http', url: server.url, headers: bridge.headers, tools: ['*'] }]));
  const allowed = listed.flatMap((server) => (server.own ? server.toolNames.map((name) => `${server.name}(${name})`) : [server.name]));
  const file = await ctx.writeTempFile('copilot-tool-bridge.json', JSON.stringify({ mcpServers: servers }));
  return ['--additional-mcp-config', `@${file}`, ...repeated('--allow-tool', allowed)];
}

async function mcpConfigArg(ctx: InvocationContext): Promise<string[]> {
  const config = ctx.opts.copilotAdditionalMcpConfig;
  if (config === undefined) return [];
  if (typeof config === 'string' && config.startsWith('@')) return ['--additional-mcp-config', config];
  // A file keeps server secrets out of argv (and so out of `ps`).
  const json = typeof config === 'string' ? config : JSON.stringify(config);
  const file = await ctx.writeTempFile('copilot-mcp-config.json', json);
  return ['--additional-mcp-config', `@${file}`];
}

/**
 * `--usage-output-file`: in the `--help` of 1.0.85, the oldest swept version that has it; 1.0.73 and
 * 1.0.79 exit 1 with "unknown option" (docs/compat.md). Older runs report no token counts, only the
 * `result` record's premium requests.
 */
export const USAGE_FILE_SINCE = '1.0.85';

/** An unreadable version is taken to be a current one. */
function hasUsageFile(version: string | undefined): boolean {
  return version === undefined || compareVersions(version, USAGE_FILE_SINCE) >= 0;
}

/**
 * A gated run never trusts the repository (trust.ts): an inherited COPILOT_ALLOW_ALL is turned off (it
 * also auto-approves every tool), and a folder the user's config trusts fails fast — Copilot has no
 * flag to withhold that trust for one run, and 1.0.102 ran the repository's hooks there.
 */
function ungatedRepositoryGuard(ctx: InvocationContext): Record<string, string> {
  const trusted = trustedFolderOf(ctx.opts, ctx.cwd);
  if (trusted) {
    throw new FeatureNotSupportedError(
      'copilot',
      `canUseTool or permissionPolicy in a folder Copilot trusts (${trusted})`,
      "Copilot loads a trusted folder's .github/hooks and settings, whose hooks run shell commands the gate never sees; use isolation: 'strict' (a private COPILOT_HOME) or remove the folder from trustedFolders.",
    );
  }
  return { COPILOT_ALLOW_ALL: 'false' };
}

/** The flags and environment the options set, shared by prompt mode and the live `--acp` mode. */
export async function copilotOptions(ctx: InvocationContext): Promise<{ args: string[]; env: Record<string, string> }> {
  const { opts } = ctx;
  const args: string[] = [];
  if (opts.model) args.push(`--model=${opts.model}`);
  if (opts.reasoningEffort) args.push('--reasoning-effort', opts.reasoningEffort);
  // Absolute (resolved by the core): never read as a flag.
  if (opts.workingDirectory) args.push('-C', ctx.cwd);
  args.push(...repeated('--add-dir', opts.addDirs));

  const mode = modeOf(opts);
  if (mode) args.push('--mode', mode);
  if (opts.permissionPolicy?.mode === 'bypass') args.push('--allow-all');
  const allowed = [...new Set([...(opts.allowedTools ?? []), ...(opts.permissionPolicy?.allow ?? [])])];
  args.push(...repeated('--allow-tool', allowed));
  args.push(...repeated('--deny-tool', opts.permissionPolicy?.deny));

  if (opts.copilotAgent) args.push(`--agent=${opts.copilotAgent}`);
  args.push(...repeated('--allow-url', opts.copilotAllowUrls));
  args.push(...repeated('--deny-url', opts.copilotDenyUrls));
  args.push(...repeated('--available-tools', opts.copilotAvailableTools));
  args.push(...repeated('--excluded-tools', [...(opts.copilotExcludedTools ?? []), ...toolNamesOfKinds(copilotToolCatalog, opts.permissionPolicy?.denyKinds)]));
  args.push(...(await mcpConfigArg(ctx)));
  args.push(...(await mcpServerArgs(ctx)));
  args.push(...(opts.extraArgs ?? []));
  // Never update the CLI in the middle of SDK runs; callers can override through extraEnv.
  const env: Record<string, string> = { COPILOT_AUTO_UPDATE: 'false' };
  // Strict isolation: config, sessions and MCP servers live in a dir of this coder only.
  if (opts.isolation === 'strict') env.COPILOT_HOME = await ctx.coderStateDir();
  if (gatedRun(opts)) Object.assign(env, ungatedRepositoryGuard(ctx));
  return { args, env };
}

export async function buildCopilotInvocation(ctx: InvocationContext): Promise<Invocation> {
  const { opts } = ctx;
  // The only token counts Copilot gives (see usage-file.ts). Created empty so the path is private
  // (0600 in a 0700 dir); the CLI overwrites it at exit.
  const usageFile = hasUsageFile(ctx.cliVersion) ? await ctx.writeTempFile('copilot-usage.json', '') : undefined;
  const options = await copilotOptions(ctx);
  const args: string[] = [...baseArgs, ...(usageFile ? ['--usage-output-file', usageFile] : []), ...options.args];
  args.push(...sessionArgs(ctx.session, opts));
  // Prompt mode only: each image goes to the model request as an image part, after the prompt.
  for (const image of opts.images ?? []) args.push('--attachment', resolve(ctx.cwd, image));
  const { env } = options;

  const stdin = opts.outputSchema && ctx.outputJsonSchema
    ? promptWithOutputSchema(ctx.prompt, ctx.outputJsonSchema)
    : ctx.prompt;
  return { args, env, stdin, ...(usageFile ? { afterExit: () => readUsageFile(usageFile) } : {}) };
}
