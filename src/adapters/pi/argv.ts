// Options → the `pi` command line. The prompt goes on stdin (pi reads a non-TTY stdin to EOF before
// it starts, then takes it as the first message), never on argv.
// Values stay spaced (`--model <value>`): pi's parser takes the argument after each of its value flags
// whatever it starts with (1.6.0 parseArgs), and reads `--flag=value` as an unknown extension flag.
import type { Invocation, InvocationContext, SessionTarget } from '../../core/contract/adapter.js';
import { bridgedServers, type BridgedServer } from '../../core/tools/mcp-servers.js';
import { promptWithOutputSchema } from '../../core/options/schema-prompt.js';
import type { ToolBridgeInfo } from '../../core/contract/bridge-info.js';
import { gatedRun } from '../../core/options/gated-run.js';
import { CoderError } from '../../errors.js';
import type { ReasoningEffort, ResolvedOpts } from '../../options.js';
import { PI_READ_ONLY_TOOLS } from './capabilities.js';
import { piBridgedToolNames } from './translate.js';
import { toolNamesOfKinds } from '../../core/translate/tool-facts.js';
import { piToolCatalog } from './tool-facts.js';
import { piSessionFile } from './store.js';

/** The variable the tool bridge's secret reaches pi in (the extension takes it out of pi's environment). */
export const toolBridgeSecretVar = 'CODERLINE_TOOL_BRIDGE_SECRET';

/** pi's `--thinking` levels; pi calls "none" `off`. */
const THINKING: Record<ReasoningEffort, string> = {
  none: 'off',
  minimal: 'minimal',
  low: 'low',
  medium: 'medium',
  high: 'high',
  xhigh: 'xhigh',
  max: 'max',
};

function sessionArgs(session: SessionTarget, sessionId: string | undefined): string[] {
  switch (session.kind) {
    case 'resume':
      return ['--session', session.sessionId];
    case 'continue':
      return ['--continue'];
    case 'fork':
      // pi copies the history into a new session; --session-id chooses the new id (a fork inherits
      // its parent's options, so the parent's own id is not a choice).
      return ['--fork', session.sessionId, ...(sessionId && sessionId !== session.sessionId ? ['--session-id', sessionId] : [])];
    case 'new':
      return sessionId ? ['--session-id', sessionId] : [];
  }
}

/**
 * The tool allowlist: allowedTools and permissionPolicy.allow together; plan mode keeps only pi's
 * read-only tools (of the allowed ones, when some are listed).
 */
export function toolAllowlist(opts: ResolvedOpts): string[] | undefined {
  const allowed = [...new Set([...(opts.allowedTools ?? []), ...(opts.permissionPolicy?.allow ?? [])])];
  if (opts.permissionPolicy?.mode === 'plan') {
    const readOnly: readonly string[] = PI_READ_ONLY_TOOLS;
    return allowed.length ? allowed.filter((tool) => readOnly.includes(tool)) : [...readOnly];
  }
  return allowed.length ? allowed : undefined;
}

/**
 * `bridgedTools`: pi's names of the run's custom tools. An allowlist (`--tools`) hides every tool it
 * does not name, MCP tools included (pi 1.6.0, whatever its docs say), so they join it.
 */
export function piArgs(opts: ResolvedOpts, session: SessionTarget, bridgedTools: readonly string[] = [], mode: PiMode = 'json'): string[] {
  // rpc: the long-lived mode of a live session (commands on stdin, events on stdout).
  const args = mode === 'rpc' ? ['--mode', 'rpc'] : ['--mode', 'json', '--print'];
  const flag = (name: string, value: string | undefined) => {
    if (value !== undefined) args.push(name, value);
  };
  const toggle = (name: string, on: boolean | undefined) => {
    if (on) args.push(name);
  };

  flag('--provider', opts.piProvider);
  flag('--model', opts.model);
  if (opts.piModels?.length) flag('--models', opts.piModels.join(','));
  if (opts.reasoningEffort) flag('--thinking', THINKING[opts.reasoningEffort]);

  const allowlist = toolAllowlist(opts);
  const tools = allowlist && [...allowlist, ...bridgedTools];
  // An empty allowlist (plan mode with no read-only tool allowed) means no tools at all.
  if (tools) args.push(...(tools.length ? ['--tools', tools.join(',')] : ['--no-tools']));
  const excluded = [...(opts.permissionPolicy?.deny ?? []), ...toolNamesOfKinds(piToolCatalog, opts.permissionPolicy?.denyKinds)];
  if (excluded.length) flag('--exclude-tools', excluded.join(','));

  flag('--system-prompt', opts.systemPrompt);
  flag('--append-system-prompt', opts.appendSystemPrompt);

  toggle('--no-session', opts.piNoSession);
  flag('--session-dir', opts.piSessionDir);
  args.push(...sessionArgs(session, opts.sessionId));

  // A gated run never loads the repository's .pi/ (extensions run code in pi's process, settings and
  // mcp.json add tools): pi 1.6.0 loaded .pi/extensions past permissionPolicy and canUseTool in a
  // folder trust.json names. `--no-approve` overrides that trust for this process (pi >= 0.79).
  toggle('--no-approve', gatedRun(opts));
  toggle('--no-context-files', opts.piNoContextFiles);
  toggle('--no-extensions', opts.piNoExtensions);
  toggle('--no-skills', opts.piNoSkills);
  toggle('--no-prompt-templates', opts.piNoPromptTemplates);
  // `@<file>` attaches a file to the first message (images as images, other files inlined as text); json mode only, rpc refuses them.
  if (mode === 'json') args.push(...[...(opts.images ?? []), ...(opts.files ?? [])].map((path) => `@${path}`));
  args.push(...(opts.extraArgs ?? []));
  return args;
}

/**
 * The extension that connects pi to every server at the tool bridge (the run's tools and the caller's
 * servers, which the host fronts): pi's built-in MCP support (pi >= 0.99) connects servers that
 * extensions register, and `direct` exposure declares their tools to the model as
 * `mcp__<server>__<tool>`. The file holds no secret: it reads the bridge's from the environment and
 * removes it there, so the commands pi runs (bash) do not inherit it (a command can still read it in
 * /proc: the bridge decides every call itself, docs/tools.md). Older pi lacks `registerMcpServer`:
 * the extension throws, and pi exits 1 with this message (checked on 0.73.1).
 */
export function mcpExtension(servers: readonly Pick<BridgedServer, 'name' | 'url'>[]): string {
  const lines = [
    '// Written by coderline for one run and removed when the run ends.',
    'export default function coderlineMcpServers(pi) {',
    "  if (typeof pi.registerMcpServer !== 'function') {",
    "    throw new Error('coderline: custom tools and mcpServers need pi >= 0.99 (this pi has no pi.registerMcpServer); upgrade to @earendil-works/pi-coding-agent');",
    '  }',
    // Kept for a second load of this file in the same process, after the variable is gone.
    "  const key = Symbol.for('coderline.toolBridgeSecret');",
    `  const secret = globalThis[key] ?? process.env[${JSON.stringify(toolBridgeSecretVar)}];`,
    `  if (!secret) throw new Error('coderline: ${toolBridgeSecretVar} is not set: the tool bridge cannot be reached');`,
    '  globalThis[key] = secret;',
    `  delete process.env[${JSON.stringify(toolBridgeSecretVar)}];`,
  ];
  for (const server of servers) {
    // The secret is made of base64url characters: nothing in it for pi to resolve.
    lines.push(`  pi.registerMcpServer(${JSON.stringify(server.name)}, { url: ${JSON.stringify(server.url)}, headers: { Authorization: \`Bearer \${secret}\` }, exposure: 'direct' });`);
  }
  lines.push('}', '');
  return lines.join('\n');
}

/** pi's names of the tools the bridge serves, each as pi names an MCP tool (the canUseTool extension leaves them to the bridge). */
export function piBridgeServedNames(bridge: ToolBridgeInfo | undefined): string[] {
  return bridgedServers(bridge).flatMap((server) => piBridgedToolNames(server.name, server.toolNames));
}

export type PiMode = 'json' | 'rpc';

function invocation(ctx: InvocationContext, mode: PiMode, mcp?: { extension: string; bridgedTools: string[]; secret?: string }): Invocation {
  const stdin = ctx.outputJsonSchema ? promptWithOutputSchema(ctx.prompt, ctx.outputJsonSchema) : ctx.prompt;
  const args = piArgs(ctx.opts, ctx.session, mcp?.bridgedTools, mode);
  // `-e builtin:mcp` too: --no-extensions or `-builtin:mcp` in settings would leave nothing to connect
  // the servers (loading it twice is harmless). Our file first: on pi < 0.99 its error is the one shown.
  if (mcp) args.push('-e', mcp.extension, '-e', 'builtin:mcp');
  return {
    args,
    // No startup network checks (update and package lookups) in headless runs; extraEnv can undo it.
    // The bridge's secret travels in the environment, never in argv (visible in `ps`) or a file.
    env: { PI_OFFLINE: '1', ...(mcp?.secret ? { [toolBridgeSecretVar]: mcp.secret } : {}) },
    stdin,
  };
}

/**
 * pi takes `--session`/`--fork` as an id *or a prefix*: with no exact match it continues the first
 * session whose id starts with the value (1.6.0: resume("0") continued the newest UUIDv7 session of
 * the directory). Only an id the store holds exactly is passed; any other fails before pi starts.
 */
async function checkStoredSession(ctx: InvocationContext, sessionId: string): Promise<void> {
  const { file, dir } = await piSessionFile(ctx, sessionId);
  if (file) return;
  throw new CoderError(
    'session_not_found',
    `pi found no session "${sessionId}" in its session dir ${dir} (resume and fork take a whole id: pi itself would take it as a prefix of another session's)`,
    { provider: 'pi' },
  );
}

/** Synchronous for a new session without MCP servers; a resume or fork checks the store first, the tool bridge writes the extension file first. */
export function buildPiInvocation(ctx: InvocationContext, mode: PiMode = 'json'): Invocation | Promise<Invocation> {
  const { session } = ctx;
  if (session.kind === 'resume' || session.kind === 'fork') return checkStoredSession(ctx, session.sessionId).then(() => buildChecked(ctx, mode));
  return buildChecked(ctx, mode);
}

function buildChecked(ctx: InvocationContext, mode: PiMode): Invocation | Promise<Invocation> {
  const bridge = ctx.toolBridge;
  const servers = bridgedServers(bridge);
  if (!bridge || !servers.length) return invocation(ctx, mode);
  return ctx.writeTempFile('coderline-tool-bridge.mjs', mcpExtension(servers)).then((extension) =>
    invocation(ctx, mode, {
      extension,
      bridgedTools: servers.filter((server) => server.own).flatMap((server) => piBridgedToolNames(server.name, server.toolNames)),
      secret: bridge.secret,
    }),
  );
}
