// What an ACP tool call does, as the SDK's portable ToolFacts. ACP names no tool, only its kind
// (`read`, `edit`, `delete`, `move`, `search`, `execute`, `think`, `fetch`, `switch_mode`, `other`),
// a title and the agent's own input (`rawInput`), plus the files it touches (`locations`). The kind
// stands as the tool's name (the name tool_use, tool_result and canUseTool show), read off a tool
// catalog (core/contract/tool-catalog.ts): the protocol's below, or an agent's own. Pure: replay reaches it.
import type { ToolFacts, ToolKind } from '../../events.js';
import type { AcpMcpCall } from './dialect.js';
import type { ToolCatalog, ToolRule } from '../contract/tool-catalog.js';
import { toolFactsOf } from '../translate/tool-facts.js';
import { asJsonObject, stringOf, type JsonObject } from '../../schema/json.js';

const PATHS = ['path', 'file_path', 'filePath', 'fileName', 'absolute_path', 'dir_path', 'directory', 'paths[]'];

/** ACP's tool kinds, for an agent whose preset says nothing else. */
export const acpToolCatalog: ToolCatalog = {
  source: "ACP `tool_call` / `session/request_permission` kinds (the event's `name`; `rawInput` is the agent's input, `locations` add paths)",
  note: "`command` is the input's `command` (a list of words joined), else the call's title; `paths` as the agent gives them.",
  tools: {
    read: { kind: 'read', paths: PATHS },
    edit: { kind: 'edit', paths: PATHS },
    // Both change files without their content: a gate treats them as writes.
    delete: { kind: 'write', paths: PATHS },
    move: { kind: 'write', paths: [...PATHS, 'source', 'destination'] },
    search: { kind: 'search', query: ['pattern', 'query'], paths: PATHS },
    execute: { kind: 'shell', command: ['command'] },
    fetch: { kind: 'fetch', url: ['url'] },
    switch_mode: { kind: 'plan' },
    think: { kind: 'other' },
    other: { kind: 'other' },
  },
};

/**
 * The protocol's catalog with each named ACP kind mapped to another ToolKind (createAcpAdapter's
 * `toolKinds`): its facts are read where the protocol's kind of that ToolKind has them (`shell`: the command).
 */
export function acpToolCatalogWith(kinds: Readonly<Record<string, ToolKind>>): ToolCatalog {
  const ruleOf = (kind: ToolKind): ToolRule => Object.values(acpToolCatalog.tools).find((rule) => rule.kind === kind) ?? { kind };
  const remapped = Object.entries(kinds).map(([name, kind]): [string, ToolRule] => [name, ruleOf(kind)]);
  return { ...acpToolCatalog, tools: { ...acpToolCatalog.tools, ...Object.fromEntries(remapped) } };
}

/** The name a tool call goes by: its ACP kind (`other` when it names none). */
export const acpToolName = (toolCall: JsonObject | undefined): string => stringOf(toolCall?.kind) ?? 'other';

/**
 * The facts of an ACP tool call (a `tool_call` update, or the `toolCall` of a permission request):
 * its kind's rule in `catalog` applied to its input, then the paths of its `locations`, and for a
 * shell call whose input names no command, its title (Gemini asks with the command as the title).
 */
export function acpToolFacts(toolCall: JsonObject, catalog: ToolCatalog = acpToolCatalog): ToolFacts {
  const facts = toolFactsOf(catalog, acpToolName(toolCall), toolCall.rawInput ?? {}, toolCall);
  const locations = Array.isArray(toolCall.locations) ? toolCall.locations.map((item) => stringOf(asJsonObject(item)?.path)).filter((path): path is string => Boolean(path)) : [];
  const paths = [...new Set([...locations, ...(facts.paths ?? [])])];
  if (paths.length > 0) facts.paths = paths;
  const title = stringOf(toolCall.title);
  if (facts.kind === 'shell' && facts.command === undefined && title) facts.command = title;
  return facts;
}

/**
 * The call of an MCP tool named `cliName`, spelled `<prefix><server><separator><tool>`, for one of
 * `servers` (the longest that fits: a server's name may hold the separator too).
 */
export function mcpCallOf(cliName: string | undefined, servers: readonly string[], separator: string, prefix = ''): AcpMcpCall | undefined {
  if (cliName === undefined || !cliName.startsWith(prefix)) return undefined;
  const rest = cliName.slice(prefix.length);
  const server = [...servers].sort((a, b) => b.length - a.length).find((candidate) => rest.startsWith(candidate + separator) && rest.length > candidate.length + separator.length);
  return server === undefined ? undefined : { server, tool: rest.slice(server.length + separator.length), cliName };
}
