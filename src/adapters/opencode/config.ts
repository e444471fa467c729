// The private configuration a run gives OpenCode, never through the user's or the repository's
// `opencode.json`. OpenCode merges, in order (1.18.33): its global config, OPENCODE_CONFIG, every
// project `opencode.json` from the cwd up, the `.opencode/` dirs, OPENCODE_CONFIG_CONTENT, managed
// config, then OPENCODE_PERMISSION over `permission`. So the MCP servers go in
// OPENCODE_CONFIG_CONTENT (it wins over project files) and the permissions in OPENCODE_PERMISSION
// (it wins over everything); a gated run also sets OPENCODE_DISABLE_PROJECT_CONFIG, so no
// repository config, agent, plugin or command loads past the gate.
import { bridgedServers, type BridgedServer } from '../../core/tools/mcp-servers.js';
import type { ToolBridgeInfo } from '../../core/contract/bridge-info.js';
import { gatedRun } from '../../core/options/gated-run.js';
import { CoderError, InvalidOptionsError } from '../../errors.js';
import type { ResolvedOpts } from '../../options.js';
import { toolBridgeServerName } from '../../schema/tool-names.js';
import { mcpToolOf, opencodeToolsOfKinds, type McpNames } from './tools.js';

/** The variable the tool bridge's secret reaches OpenCode in; the config names it (`{env:…}`), never holds it. */
export const toolBridgeSecretVar = 'CODERLINE_TOOL_BRIDGE_SECRET';

/** Variables this adapter sets for a run that carry its gate or its tools: a caller may not replace them then. */
const GATE_VARIABLES = ['OPENCODE_PERMISSION', 'OPENCODE_CONFIG_CONTENT', 'OPENCODE_DISABLE_PROJECT_CONFIG'] as const;

type Action = 'allow' | 'deny';

/** OpenCode keys every file-changing tool (write, edit, patch, multiedit) under one permission, `edit`. */
const PERMISSION_OF: Readonly<Record<string, string>> = { write: 'edit', patch: 'edit', multiedit: 'edit', apply_patch: 'edit' };

/** A permission name as OpenCode matches it: a tool name, `*` wildcards allowed. */
const PERMISSION_NAME = /^[A-Za-z0-9_.*-]+$/;

/** What plan mode denies: every tool that changes files or runs commands (a subagent could do either). */
const PLAN_DENIED = ['edit', 'bash', 'task'] as const;

/** Whether a rule names a tool the bridge serves (it is enforced there, on the host, whoever calls). */
function bridgeEnforces(rule: string, names: McpNames): boolean {
  if (names.tools.includes(rule)) return true;
  const servers = [...(names.tools.length ? [toolBridgeServerName] : []), ...names.servers];
  return servers.some((server) => rule === server || rule === `mcp__${server}` || rule.startsWith(`mcp__${server}__`) || (rule.startsWith(`${server}(`) && rule.endsWith(')'))) || mcpToolOf(rule, names) !== undefined;
}

/**
 * permissionPolicy and allowedTools as OpenCode's `permission` object (undefined when they say
 * nothing). Rules for the bridge's tools are left to the bridge; any other rule must be a name
 * OpenCode can match, or the run fails before it starts.
 */
export function permissionConfig(opts: ResolvedOpts, names: McpNames): Record<string, Action> | undefined {
  const policy = opts.permissionPolicy;
  const permission: Record<string, Action> = {};
  const problems: string[] = [];
  const put = (option: string, rules: readonly string[] | undefined, action: Action) => {
    for (const rule of rules ?? []) {
      if (bridgeEnforces(rule, names)) continue;
      if (!PERMISSION_NAME.test(rule)) {
        problems.push(`${option}: ${JSON.stringify(rule)} is not a tool name OpenCode can match (letters, digits, _ . - and * only)`);
        continue;
      }
      permission[PERMISSION_OF[rule] ?? rule] = action;
    }
  };
  put('allowedTools', opts.allowedTools, 'allow');
  put('permissionPolicy.allow', policy?.allow, 'allow');
  if (policy?.mode === 'plan') for (const tool of PLAN_DENIED) permission[tool] = 'deny';
  // Deny wins: it comes last.
  put('permissionPolicy.deny', policy?.deny, 'deny');
  put('permissionPolicy.denyKinds', opencodeToolsOfKinds(policy?.denyKinds), 'deny');
  if (problems.length) throw new InvalidOptionsError(problems, 'opencode');
  return Object.keys(permission).length ? permission : undefined;
}

/** One server at the bridge as an OpenCode remote MCP server; the secret is read from the environment. */
function remoteServer(server: BridgedServer): Record<string, unknown> {
  return {
    type: 'remote',
    url: server.url,
    enabled: true,
    // The bridge takes its bearer secret, never an OAuth flow.
    oauth: false,
    headers: { Authorization: `Bearer {env:${toolBridgeSecretVar}}` },
  };
}

/** The OPENCODE_CONFIG_CONTENT of a run: its servers at the bridge; undefined when it has none. */
export function configContent(bridge: ToolBridgeInfo | undefined): Record<string, unknown> | undefined {
  const servers = bridgedServers(bridge);
  if (!servers.length) return undefined;
  return { mcp: Object.fromEntries(servers.map((server) => [server.name, remoteServer(server)])) };
}

/**
 * OpenCode replaces {env:NAME} and {file:PATH} in every config text it loads, OPENCODE_CONFIG_CONTENT
 * too, and a live session's model is written there: a brace in a model id (no provider/model id has
 * one) would let whoever picks the model make OpenCode read a variable or a file. Refused, one-shot too.
 */
export function checkModelId(opts: ResolvedOpts): void {
  if (opts.model !== undefined && /[{}]/.test(opts.model)) {
    throw new InvalidOptionsError([`model: ${JSON.stringify(opts.model)} holds a brace, which OpenCode's config reads as {env:…} or {file:…}; a model id is provider/model`], 'opencode');
  }
}

/** A gate and a caller's own value for a variable that carries it cannot both hold: refused before the run. */
export function checkGateVariables(opts: ResolvedOpts, carriesGate: boolean): void {
  if (!carriesGate && !gatedRun(opts)) return;
  const overridden = GATE_VARIABLES.filter((name) => opts.extraEnv?.[name] !== undefined || opts.unsetEnv?.includes(name));
  if (!overridden.length) return;
  throw new CoderError(
    'invalid_options',
    `opencode: extraEnv/unsetEnv change ${overridden.join(', ')}, which carry this run's permissions and tools; put your own OpenCode settings in a config file (OPENCODE_CONFIG) instead.`,
    { provider: 'opencode' },
  );
}
