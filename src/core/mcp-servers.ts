// The caller's external MCP servers (`mcpServers`), CLI-agnostic: each adapter spells them in its
// CLI's own config next to the custom-tools bridge.
import type { SharedStartOpts } from '../options.js';

/** One external MCP server: a program on stdio, or a streamable HTTP endpoint. */
export type McpServerConfig = NonNullable<SharedStartOpts['mcpServers']>[string];
export type StdioMcpServer = Extract<McpServerConfig, { command: string }>;
export type HttpMcpServer = Extract<McpServerConfig, { url: string }>;

export function isStdioServer(server: McpServerConfig): server is StdioMcpServer {
  return 'command' in server;
}

/** The servers of `opts.mcpServers` as [name, server] pairs, in the caller's order. */
export function mcpServerEntries(opts: Pick<SharedStartOpts, 'mcpServers'>): Array<[string, McpServerConfig]> {
  return Object.entries(opts.mcpServers ?? {});
}
