// OpenCode's tools as portable facts (ToolFacts), as data: its tool name → the kind, and which
// input fields hold the command, paths, pattern or address. Names and fields as 1.18.33 offers
// them to the model (bash {command}, read/write/edit {filePath}, glob/grep {pattern, path},
// webfetch {url}, todowrite {todos}, task {description, prompt, subagent_type}); `list`, `patch`,
// `multiedit`, `websearch`, `codesearch` and `todoread` are tools of other versions and configs.
// MCP tools are `<server>_<tool>` (OpenCode joins the names with `_`).
import type { ToolFacts, ToolKind } from '../../events.js';
import { isJsonObject, stringOf, type JsonObject } from '../../schema/json.js';
import { toolBridgeServerName } from '../../schema/tool-names.js';

interface ToolShape {
  kind: ToolKind;
  command?: string;
  paths?: readonly string[];
  query?: string;
  url?: string;
}

const BUILT_IN: Readonly<Record<string, ToolShape>> = {
  bash: { kind: 'shell', command: 'command', paths: ['workdir'] },
  read: { kind: 'read', paths: ['filePath'] },
  write: { kind: 'write', paths: ['filePath'] },
  edit: { kind: 'edit', paths: ['filePath'] },
  multiedit: { kind: 'edit', paths: ['filePath'] },
  patch: { kind: 'edit' },
  apply_patch: { kind: 'edit' },
  glob: { kind: 'search', query: 'pattern', paths: ['path'] },
  grep: { kind: 'search', query: 'pattern', paths: ['path'] },
  list: { kind: 'list', paths: ['path'] },
  webfetch: { kind: 'fetch', url: 'url' },
  websearch: { kind: 'web_search', query: 'query' },
  codesearch: { kind: 'web_search', query: 'query' },
  todowrite: { kind: 'plan' },
  todoread: { kind: 'plan' },
  task: { kind: 'task' },
  question: { kind: 'ask' },
};

/** OpenCode's own tool names (what permission rules may name besides MCP tools). */
export const OPENCODE_BUILT_IN_TOOLS: readonly string[] = Object.keys(BUILT_IN);

/** OpenCode's own tools by kind, as the docs list them: `shell: bash; read: read; …`. */
export const opencodeToolKindsText = (): string => {
  const byKind = new Map<ToolKind, string[]>();
  for (const [name, shape] of Object.entries(BUILT_IN)) byKind.set(shape.kind, [...(byKind.get(shape.kind) ?? []), name]);
  return [...byKind].map(([kind, names]) => `${kind}: ${names.join(', ')}`).join('; ');
};

/** OpenCode's own tools of these kinds (permissionPolicy.denyKinds). */
export const opencodeToolsOfKinds = (kinds: readonly ToolKind[] | undefined): string[] =>
  kinds?.length ? OPENCODE_BUILT_IN_TOOLS.filter((name) => kinds.includes(BUILT_IN[name]!.kind)) : [];

/** What the run's options say about the MCP servers the CLI sees: the bridge's own and the caller's. */
export interface McpNames {
  /** Names of the run's custom tools (served as server `coderline`). */
  tools: readonly string[];
  /** The caller's MCP server names (fronted by the bridge under the same names). */
  servers: readonly string[];
}

/** `<server>_<tool>` split at a known server name (the longest that fits, since names may hold `_`). */
export function mcpToolOf(cliName: string, names: McpNames): { server: string; tool: string } | undefined {
  const servers = [...(names.tools.length ? [toolBridgeServerName] : []), ...names.servers].sort((a, b) => b.length - a.length);
  const server = servers.find((candidate) => cliName.startsWith(`${candidate}_`) && cliName.length > candidate.length + 1);
  return server === undefined ? undefined : { server, tool: cliName.slice(server.length + 1) };
}

/** The name events give a tool: the user's for a custom tool, `mcp__<server>__<tool>` for an MCP tool, else OpenCode's. */
export function eventToolName(cliName: string, names: McpNames): string {
  const mcp = mcpToolOf(cliName, names);
  if (!mcp) return cliName;
  if (mcp.server === toolBridgeServerName && names.tools.includes(mcp.tool)) return mcp.tool;
  return `mcp__${mcp.server}__${mcp.tool}`;
}

function field(input: JsonObject, key: string | undefined): string | undefined {
  return key === undefined ? undefined : stringOf(input[key]);
}

/** The portable facts of one call of `cliName` with `input` (any shape: it comes from the CLI). */
export function toolFactsOf(cliName: string, input: unknown, names: McpNames): ToolFacts {
  const args = isJsonObject(input) ? input : {};
  const name = eventToolName(cliName, names);
  const mcp = mcpToolOf(cliName, names);
  if (mcp) return { kind: 'mcp', name, server: mcp.server };
  const shape = BUILT_IN[cliName];
  if (!shape) return { kind: 'other', name };
  const facts: ToolFacts = { kind: shape.kind, name };
  const command = field(args, shape.command);
  const query = field(args, shape.query);
  const url = field(args, shape.url);
  const paths = (shape.paths ?? []).map((key) => field(args, key)).filter((path): path is string => path !== undefined);
  if (command !== undefined) facts.command = command;
  if (paths.length) facts.paths = paths;
  if (query !== undefined) facts.query = query;
  if (url !== undefined) facts.url = url;
  return facts;
}
