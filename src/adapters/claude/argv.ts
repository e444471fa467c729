// Options → `claude -p --output-format stream-json --verbose …`, with the prompt on stdin.
// Value flags use the `--flag=value` spelling: the CLI's variadic flags (--add-dir, --allowed-tools,
// --disallowed-tools, --mcp-config) would otherwise swallow whatever argument follows them, and a
// value that starts with `-` stays a value.
import type { Invocation, InvocationContext, SessionTarget } from '../../core/contract/adapter.js';
import { repeatedFlagJoined, rulesSplitByCli } from '../../core/options/flags.js';
import { isUuid, notWholeSessionId } from '../../schema/ids.js';
import { readAttachments, type Attachments } from '../../core/options/attachments.js';
import { bridgedServers } from '../../core/tools/mcp-servers.js';
import type { ToolBridgeInfo } from '../../core/contract/bridge-info.js';
import { gatedRun } from '../../core/options/gated-run.js';
import { FeatureNotSupportedError, InvalidOptionsError } from '../../errors.js';
import type { ReasoningEffort, ResolvedOpts } from '../../options.js';
import { toolNamesOfKinds } from '../../core/translate/tool-facts.js';
import { claudeToolCatalog } from './tool-facts.js';

/** Effort levels `--effort` accepts (2.1.197 and 2.1.332). */
const claudeEfforts: readonly ReasoningEffort[] = ['low', 'medium', 'high', 'xhigh', 'max'];

/** The permission mode to pass, from `permissionMode` or `permissionPolicy.mode` (they must agree). */
export function permissionModeOf(opts: ResolvedOpts): string | undefined {
  const policyMode = opts.permissionPolicy?.mode;
  const fromPolicy = policyMode === 'plan' ? 'plan' : policyMode === 'bypass' ? 'bypassPermissions' : undefined;
  return opts.permissionMode ?? fromPolicy;
}

/** True when this process runs as root, where the CLI refuses bypass mode unless IS_SANDBOX=1. */
function runsAsRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

function sandboxDeclared(opts: ResolvedOpts): boolean {
  if (opts.unsetEnv?.includes('IS_SANDBOX')) return false;
  return (opts.extraEnv?.IS_SANDBOX ?? process.env.IS_SANDBOX ?? '') === '1';
}

// In a gated run the repository's own settings (`.claude/settings.json`, `settings.local.json`) stay
// unloaded: on 2.1.332 their `permissions.allow` ran Bash past a denying canUseTool, their hooks
// (SessionStart, UserPromptSubmit, PreToolUse) ran shell commands the gate never saw, and the
// .mcp.json server they enabled ran its write tool.
const repositorySources = ['project', 'local'] as const;

/** `--setting-sources`: the caller's, else only the user's own when the run is gated (none of the repository's). */
function settingSourcesOf(opts: ResolvedOpts): readonly string[] | undefined {
  return opts.settingSources ?? (gatedRun(opts) ? ['user'] : undefined);
}

export const bypassAsRootMessage =
  'Claude Code refuses bypassPermissions (--dangerously-skip-permissions) when it runs as root. ' +
  'If this is a sandbox or container where that is acceptable, pass extraEnv: { IS_SANDBOX: "1" }; ' +
  'otherwise run as a normal user, or use permissionPolicy.allow to allow the tools you need.';

/** Value checks the capability table cannot express. Throws before anything is spawned. */
export function validateClaudeOptions(opts: ResolvedOpts, session: SessionTarget): void {
  const issues: string[] = [];
  const policyMode = opts.permissionPolicy?.mode;
  if (opts.permissionMode && policyMode && policyMode !== 'default') {
    const implied = policyMode === 'plan' ? 'plan' : 'bypassPermissions';
    if (opts.permissionMode !== implied) {
      issues.push(`permissionMode "${opts.permissionMode}" contradicts permissionPolicy.mode "${policyMode}"`);
    }
  }
  if (opts.sessionId !== undefined && !isUuid(opts.sessionId)) {
    issues.push(`sessionId must be a UUID for claude (got "${opts.sessionId}")`);
  }
  const notWhole = notWholeSessionId(session, 'claude');
  if (notWhole) issues.push(notWhole);
  if (opts.sessionId !== undefined && session.kind !== 'new' && session.kind !== 'fork') {
    issues.push('sessionId names a new session; it cannot be combined with resume/continue');
  }
  // --allowed-tools and --disallowed-tools values are comma or space lists to the CLI (2.1.332): "Read Bash" allowed Bash.
  issues.push(...rulesSplitByCli({ allowedTools: opts.allowedTools, 'permissionPolicy.allow': opts.permissionPolicy?.allow, 'permissionPolicy.deny': opts.permissionPolicy?.deny }, /[,\s]/, 'claude'));
  if (issues.length) throw new InvalidOptionsError(issues, 'claude');

  if (opts.reasoningEffort !== undefined && !claudeEfforts.includes(opts.reasoningEffort)) {
    throw new FeatureNotSupportedError(
      'claude',
      `reasoningEffort="${opts.reasoningEffort}"`,
      `claude --effort accepts ${claudeEfforts.join(', ')}; use "low" for the least thinking.`,
    );
  }
  const repositorySettings = opts.settingSources?.filter((source) => (repositorySources as readonly string[]).includes(source)) ?? [];
  if (repositorySettings.length && gatedRun(opts)) {
    throw new FeatureNotSupportedError(
      'claude',
      `settingSources ${repositorySettings.join(', ')} with canUseTool, permissionPolicy allow/deny or plan mode`,
      "the repository's settings can allow tools past the gate and run hooks (shell commands) it never sees; leave settingSources unset (a gated run loads only the user's settings) or drop the gate.",
    );
  }
  if (permissionModeOf(opts) === 'bypassPermissions' && runsAsRoot() && !sandboxDeclared(opts)) {
    throw new InvalidOptionsError([bypassAsRootMessage], 'claude');
  }
}

/**
 * `--mcp-config` JSON: every server at the tool bridge (the run's tools and the caller's servers, which
 * the host fronts), or undefined when there are none.
 */
function mcpConfig(bridge: ToolBridgeInfo | undefined): string | undefined {
  const servers = Object.fromEntries(bridgedServers(bridge).map((server) => [server.name, { type: 'http', url: server.url, headers: bridge!.headers }]));
  return Object.keys(servers).length ? JSON.stringify({ mcpServers: servers }) : undefined;
}

/** Attachments as content blocks of a user message: images (base64), then PDFs (base64) and text files as documents. */
export function attachmentBlocks({ images, files }: Attachments): unknown[] {
  return [
    ...images.map((image) => ({ type: 'image', source: { type: 'base64', media_type: image.mediaType, data: image.base64 } })),
    ...files.map((file) => ({
      type: 'document',
      source: file.kind === 'pdf' ? { type: 'base64', media_type: file.mediaType, data: file.base64 } : { type: 'text', media_type: file.mediaType, data: file.text },
      title: file.path,
    })),
  ];
}

/** A stream-json user message: the attachments' blocks first, then the text. */
export function userMessageWith(prompt: string, attachments: Attachments | undefined): { type: 'user'; message: { role: 'user'; content: unknown } } {
  const blocks = attachments ? attachmentBlocks(attachments) : [];
  return { type: 'user', message: { role: 'user', content: blocks.length ? [...blocks, { type: 'text', text: prompt }] : prompt } };
}

function sessionArgs(session: SessionTarget): string[] {
  switch (session.kind) {
    case 'new':
      return [];
    case 'resume':
      return [`--resume=${session.sessionId}`];
    case 'continue':
      return ['--continue'];
    case 'fork':
      return [`--resume=${session.sessionId}`, '--fork-session'];
  }
}

export async function buildClaudeInvocation(ctx: InvocationContext): Promise<Invocation> {
  const { opts } = ctx;
  const args = ['-p', '--output-format=stream-json', '--verbose'];
  const env: Record<string, string> = {};
  const value = (flag: string, v: string | number | undefined) => {
    if (v !== undefined) args.push(`${flag}=${v}`);
  };

  value('--model', opts.model);
  value('--effort', opts.reasoningEffort);
  value('--permission-mode', permissionModeOf(opts));
  args.push(...repeatedFlagJoined('--add-dir', opts.addDirs));
  const bridge = ctx.toolBridge;
  // The run's own tools and the caller's servers (`mcp__<server>` allows all its tools) are allowed:
  // the bridge decides each of their calls on the host (bridge-gate.ts), so Claude does not ask too.
  const bridged = bridgedServers(bridge).flatMap((server) => (server.own ? server.toolNames.map((name) => `mcp__${server.name}__${name}`) : [`mcp__${server.name}`]));
  const allowed = [...(opts.allowedTools ?? []), ...(opts.permissionPolicy?.allow ?? []), ...bridged];
  args.push(...repeatedFlagJoined('--allowed-tools', [...new Set(allowed)]));
  const denied = [...(opts.permissionPolicy?.deny ?? []), ...toolNamesOfKinds(claudeToolCatalog, opts.permissionPolicy?.denyKinds)];
  args.push(...repeatedFlagJoined('--disallowed-tools', denied));
  const sources = settingSourcesOf(opts);
  if (sources) args.push(`--setting-sources=${sources.join(',')}`);
  value('--system-prompt', opts.systemPrompt);
  value('--append-system-prompt', opts.appendSystemPrompt);
  if (opts.agents) args.push(`--agents=${JSON.stringify(opts.agents)}`);
  value('--max-budget-usd', opts.maxBudgetUsd);
  value('--fallback-model', opts.fallbackModel);
  if (opts.claudeBare) args.push('--bare');
  if (opts.claudeNoSessionPersistence) args.push('--no-session-persistence');
  if (ctx.outputJsonSchema) args.push(`--json-schema=${JSON.stringify(ctx.outputJsonSchema)}`);
  if (opts.streamPartialMessages) args.push('--include-partial-messages');
  value('--max-turns', opts.maxTurns);
  value('--session-id', opts.sessionId);
  args.push(...sessionArgs(ctx.session));

  const config = mcpConfig(bridge);
  if (opts.isolation === 'strict') {
    // A config dir of the coder's own: parallel coders do not race on one .claude.json, user
    // settings and MCP servers stay out, and resume finds the transcripts again.
    env.CLAUDE_CONFIG_DIR = await ctx.coderStateDir();
  }
  // canUseTool on a one-shot run: the CLI asks the bridge's permission tool.
  if (bridge?.permissionToolName) args.push(`--permission-prompt-tool=mcp__${bridge.name}__${bridge.permissionToolName}`);
  // A file keeps the bridge's secret out of argv (and so out of `ps`).
  if (config) args.push(`--mcp-config=${await ctx.writeTempFile('claude-mcp-config.json', config)}`);
  // Only the run's own MCP servers, when asked: none from the user's or the project's config.
  if (opts.isolation === 'strict' || opts.strictMcpConfig) args.push('--strict-mcp-config');
  // Attachments go as content blocks of one stream-json user message; the CLI answers it and exits at the end of stdin.
  const attached = opts.images?.length || opts.files?.length;
  if (attached) args.push('--input-format=stream-json');
  args.push(...(opts.extraArgs ?? []));
  if (!attached) return { args, env, stdin: ctx.prompt };
  const message = userMessageWith(ctx.prompt, await readAttachments(opts, ctx.cwd, 'claude'));
  return { args, env, stdin: `${JSON.stringify(message)}\n` };
}
