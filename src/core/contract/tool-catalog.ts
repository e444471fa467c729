// What an adapter declares about its CLI's tools, as data: the kind of each tool name and where in the
// tool's input its command, paths, query and address sit. The core reads the facts of a call off it
// (core/translate/tool-facts.ts); adapters.md renders it. Types only.
import type { ToolKind } from '../../events.js';

/**
 * Where a fact sits in a tool's input: `field`, `a.b` (nested), `list[].field` (each element's) or
 * `list[]` (each element). A value that is not a string (or a list of strings) there is no fact.
 */
export type InputPath = string;

export interface ToolRule {
  kind: ToolKind;
  /** The command line (a list of words is joined with spaces). The first path that holds one wins. */
  command?: readonly InputPath[];
  /** Every string these paths hold, in order, each once. */
  paths?: readonly InputPath[];
  /** The pattern or query. The first path that holds one wins. */
  query?: readonly InputPath[];
  /** The address. The first path that holds one wins. */
  url?: readonly InputPath[];
  /** The MCP server (kind `mcp`, for tools that name it in their input). The first path that holds one wins. */
  server?: readonly InputPath[];
}

export interface ToolCatalog {
  /** Which records' names these are (a heading in adapters.md), e.g. `stream-json tool_use names`. */
  source: string;
  /** By the CLI's own tool name; a name not here is an MCP call when `mcp` says so, else kind `other`. */
  tools: Readonly<Record<string, ToolRule>>;
  /** Calls of MCP server tools, which the CLI names by a pattern. */
  mcp?: {
    /** How the CLI spells them, for adapters.md (e.g. `mcp__<server>__<tool>`). */
    spelling: string;
    /** The server of a call named `name` (`raw`: the CLI's record of it), or undefined when it is not an MCP call. */
    server(name: string, raw: unknown): string | undefined;
  };
  /** What adapters.md should say about `command` and `paths` on this CLI (as given or absolute, which wrapper). */
  note?: string;
}
