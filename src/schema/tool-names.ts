// The name the tool bridge is registered under in every CLI, and the way back from a CLI's name for
// a bridged tool to the user's. Kept apart from tool-bridge.ts so translators stay light.

/** What a name lookup needs of a run's options: its tools' names (kept structural: the options schema imports this file). */
type WithTools = { tools?: readonly { name: string }[] };

/** The MCP server name each CLI is given for the run's tools. */
export const toolBridgeServerName = 'coderline';

/** The bridge's tool that answers a CLI's permission prompts (a run's own tool may not take the name). */
export const permissionToolName = 'coderline_permission_prompt';

/** The user's name for a tool the CLI reports as `tool` of MCP server `server`, when it is one of this run's tools. */
export function bridgedToolName(opts: WithTools, server: unknown, tool: unknown): string | undefined {
  if (server !== toolBridgeServerName || typeof tool !== 'string') return undefined;
  return opts.tools?.some((candidate) => candidate.name === tool) ? tool : undefined;
}

/** The same for a name spelled `mcp__<server>__<tool>` (Claude's spelling). */
export function bridgedToolNameOf(opts: WithTools, cliName: string): string | undefined {
  const prefix = `mcp__${toolBridgeServerName}__`;
  return cliName.startsWith(prefix) ? bridgedToolName(opts, toolBridgeServerName, cliName.slice(prefix.length)) : undefined;
}
