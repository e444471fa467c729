// What an adapter is told of the run's tool bridge (tools/tool-bridge.ts starts it): enough to point
// its CLI at the bridge and the servers it fronts, nothing of how the bridge works.
/** What an adapter needs to point its CLI at the bridge. */
export interface ToolBridgeInfo {
  /** The MCP server name to register (the CLI prefixes tool names with it). */
  name: string;
  /** The streamable HTTP endpoint. */
  url: string;
  /** The per-run secret; every request must carry it as `Authorization: Bearer <secret>`. */
  secret: string;
  /** The header that carries the secret, ready to put in a CLI's MCP config. */
  headers: Record<string, string>;
  /** The bridged tools' names, as the model sees them once unprefixed. */
  toolNames: string[];
  /** The tool that answers the CLI's permission prompts (`canUseTool`), when the run has a callback. */
  permissionToolName?: string;
  /** The run's `mcpServers`, each fronted at a URL of its own (same secret), with the tools it lists. */
  servers: FrontedServer[];
}

/** One of the caller's MCP servers as the CLI is to see it: a streamable HTTP server at the bridge. */
export interface FrontedServer {
  name: string;
  url: string;
  toolNames: string[];
}
