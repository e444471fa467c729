// The settings file the adapter writes for every run (home.ts puts it in the run's GEMINI_CLI_HOME).
// It turns telemetry,
// usage statistics and update checks off, chooses the auth type the environment implies, and holds
// the run's MCP servers (the tool bridge), tool rules and turn limit.
import type { InvocationContext } from '../../core/contract/adapter.js';
import { bridgedServers } from '../../core/tools/mcp-servers.js';
import { toolNamesOfKinds } from '../../core/translate/tool-facts.js';
import { cliEnvValue } from '../../core/session/session-store.js';
import type { ResolvedOpts } from '../../options.js';
import { geminiToolCatalog } from './tools.js';

/** `security.auth.selectedType` for the run's environment; undefined lets the CLI decide. */
export function authTypeOf(opts: ResolvedOpts): string | undefined {
  if (cliEnvValue(opts, 'GOOGLE_GENAI_USE_VERTEXAI') === 'true') return 'vertex-ai';
  // With GOOGLE_GEMINI_BASE_URL set, the CLI's own choice is `gateway`, which headless runs refuse
  // (exit 41): an API key in the environment means API-key auth.
  if (cliEnvValue(opts, 'GEMINI_API_KEY') || cliEnvValue(opts, 'GOOGLE_API_KEY')) return 'gemini-api-key';
  return undefined;
}

/** Tool rules: allow rules become `tools.allowed`, deny rules and denied kinds `tools.exclude` (the tool is not offered). */
function toolRules(opts: ResolvedOpts): Record<string, unknown> {
  const allowed = [...new Set([...(opts.allowedTools ?? []), ...(opts.permissionPolicy?.allow ?? [])])];
  const excluded = [...(opts.permissionPolicy?.deny ?? []), ...toolNamesOfKinds(geminiToolCatalog(), opts.permissionPolicy?.denyKinds)];
  // Plan mode is read-only only while the model cannot leave it: exit_plan_mode is approved headless
  // and switches the session to YOLO (0.61.0).
  if (opts.permissionPolicy?.mode === 'plan') excluded.push('exit_plan_mode');
  return { ...(allowed.length ? { allowed } : {}), ...(excluded.length ? { exclude: [...new Set(excluded)] } : {}) };
}

/** Every server at the tool bridge as a streamable HTTP server; trusted, since the bridge gates each call on the host. */
function mcpServersOf(ctx: InvocationContext): Record<string, unknown> | undefined {
  const bridge = ctx.toolBridge;
  const listed = bridgedServers(bridge);
  if (!bridge || !listed.length) return undefined;
  return Object.fromEntries(listed.map((server) => [server.name, { httpUrl: server.url, headers: bridge.headers, trust: true }]));
}

/** The MCP server names the settings register (for --allowed-mcp-server-names); `none` when there are none, which no server is called. */
export function bridgedServerNames(settings: Record<string, unknown>): string[] {
  const names = Object.keys((settings.mcpServers as Record<string, unknown> | undefined) ?? {});
  return names.length ? names : ['none'];
}

export function geminiSettings(ctx: InvocationContext): Record<string, unknown> {
  const { opts } = ctx;
  const authType = authTypeOf(opts);
  const mcpServers = mcpServersOf(ctx);
  const tools = toolRules(opts);
  // The caller's keys first; the ones that carry the gate, the bridge and telemetry are the adapter's.
  const { tools: _tools, mcpServers: _servers, ...own } = opts.geminiSettings ?? {};
  const section = (key: string): Record<string, unknown> => (typeof own[key] === 'object' && own[key] !== null ? (own[key] as Record<string, unknown>) : {});
  return {
    ...own,
    general: { ...section('general'), enableAutoUpdate: false, enableAutoUpdateNotification: false },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false, logPrompts: false },
    ide: { enabled: false },
    // Trust is decided by the adapter (argv.ts: a gated run refuses a folder with its own config).
    security: { folderTrust: { enabled: false }, ...(authType ? { auth: { selectedType: authType } } : {}) },
    ...(opts.maxTurns !== undefined ? { model: { ...section('model'), maxSessionTurns: opts.maxTurns } } : {}),
    ...(Object.keys(tools).length ? { tools } : {}),
    ...(mcpServers ? { mcpServers } : {}),
  };
}
