// Options → `opencode run --format json …` with the prompt on stdin. OpenCode reads a non-TTY stdin
// byte-exact as the message (1.18.33), while a message on argv reaches the model changed (an element
// with a space arrives in double quotes), so argv never carries the prompt. Values go as
// `--flag=value`: `-f/--file` is an array option that would swallow what follows it, and a value
// starting with `-` stays bound to its flag.
import { join, resolve } from 'node:path';
import type { Invocation, InvocationContext, SessionTarget } from '../../core/contract/adapter.js';
import { repeatedFlagJoined } from '../../core/options/flags.js';
import { gatedRun } from '../../core/options/gated-run.js';
import { promptWithOutputSchema } from '../../core/options/schema-prompt.js';
import { bridgedServers } from '../../core/tools/mcp-servers.js';
import type { ResolvedOpts } from '../../options.js';
import { configContent, permissionConfig, toolBridgeSecretVar } from './config.js';
import { mcpNamesOf } from './translate.js';

/**
 * Always set: no update check or self-update, no share uploads, no models.dev fetch (a bundled list
 * serves), no language-server downloads. What a run needs that OpenCode would fetch at start.
 */
export const QUIET_ENV: Readonly<Record<string, string>> = {
  OPENCODE_DISABLE_AUTOUPDATE: '1',
  OPENCODE_DISABLE_SHARE: '1',
  OPENCODE_DISABLE_MODELS_FETCH: '1',
  OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
};

function sessionArgs(session: SessionTarget): string[] {
  switch (session.kind) {
    case 'new':
      // An empty --title makes the first prompt (50 characters) the title: no title model call,
      // which OpenCode otherwise makes for every new session, at the model's price.
      return ['--title='];
    case 'resume':
      return [`--session=${session.sessionId}`];
    case 'continue':
      return ['--continue'];
    case 'fork':
      return [`--session=${session.sessionId}`, '--fork'];
  }
}

/** The XDG dirs of a coder under strict isolation: OpenCode's config, sessions (SQLite), cache and state. */
export function isolatedDirs(stateDir: string): Record<string, string> {
  return {
    XDG_CONFIG_HOME: join(stateDir, 'config'),
    XDG_DATA_HOME: join(stateDir, 'data'),
    XDG_CACHE_HOME: join(stateDir, 'cache'),
    XDG_STATE_HOME: join(stateDir, 'state'),
    // ~/.claude (CLAUDE.md, skills) is another CLI's config: not part of an isolated run.
    OPENCODE_DISABLE_CLAUDE_CODE: '1',
  };
}

/** The environment that points OpenCode at its store: the coder's private dirs under strict isolation. */
export async function storeEnv(opts: ResolvedOpts, coderStateDir: () => Promise<string>): Promise<Record<string, string>> {
  return opts.isolation === 'strict' ? isolatedDirs(await coderStateDir()) : {};
}

export function opencodeArgs(opts: ResolvedOpts, session: SessionTarget, cwd: string): string[] {
  const args = ['run', '--format', 'json', '--thinking'];
  if (opts.model) args.push(`--model=${opts.model}`);
  if (opts.reasoningEffort) args.push(`--variant=${opts.reasoningEffort}`);
  if (opts.permissionPolicy?.mode === 'bypass') args.push('--auto');
  // Attachments as absolute paths: OpenCode resolves a relative one from its cwd, which is this one anyway.
  args.push(...repeatedFlagJoined('--file', [...(opts.images ?? []), ...(opts.files ?? [])].map((path) => resolve(cwd, path))));
  args.push(...(opts.extraArgs ?? []));
  args.push(...sessionArgs(session));
  return args;
}

/**
 * The environment of a run or a live session: where OpenCode works (PWD), its switches, its store
 * under strict isolation, the permissions over every config (`permissionBase` first, so the policy's
 * rules win over it), the private config (the bridge's servers, and `extraConfig`), and in a gated
 * run no project config.
 */
export async function opencodeEnv(ctx: InvocationContext, options: { permissionBase?: Record<string, string>; extraConfig?: Record<string, unknown> } = {}): Promise<Record<string, string>> {
  const { opts } = ctx;
  const rules = permissionConfig(opts, mcpNamesOf(opts));
  const permission = options.permissionBase || rules ? { ...options.permissionBase, ...rules } : undefined;
  const content = { ...configContent(ctx.toolBridge), ...options.extraConfig };
  // OpenCode takes its directory from PWD before process.cwd(): an inherited PWD would move the run.
  const env: Record<string, string> = { ...QUIET_ENV, PWD: ctx.cwd, ...(await storeEnv(opts, ctx.coderStateDir)) };
  if (permission) env.OPENCODE_PERMISSION = JSON.stringify(permission);
  if (Object.keys(content).length) env.OPENCODE_CONFIG_CONTENT = JSON.stringify(content);
  if (gatedRun(opts)) env.OPENCODE_DISABLE_PROJECT_CONFIG = '1';
  // The bridge's secret travels in the environment (argv is visible in `ps`); the config names it.
  if (ctx.toolBridge && bridgedServers(ctx.toolBridge).length) env[toolBridgeSecretVar] = ctx.toolBridge.secret;
  return env;
}

export async function buildOpencodeInvocation(ctx: InvocationContext): Promise<Invocation> {
  const stdin = ctx.outputJsonSchema ? promptWithOutputSchema(ctx.prompt, ctx.outputJsonSchema) : ctx.prompt;
  return { args: opencodeArgs(ctx.opts, ctx.session, ctx.cwd), env: await opencodeEnv(ctx), stdin };
}
