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

/**
 * The environment variable that carries value `index` of a server's env or headers, for CLIs that read
 * such values from their own environment: the values stay out of argv and config files.
 */
export function mcpValueVar(serverIndex: number, kind: 'env' | 'header', index: number): string {
  return `CODERLINE_MCP_${serverIndex}_${kind.toUpperCase()}_${index}`;
}

/** `values` with each value replaced by a reference `${VAR}`, and the variables to set. */
export function valuesByReference(values: Record<string, string> | undefined, name: (index: number) => string): { refs: Record<string, string>; env: Record<string, string> } {
  const refs: Record<string, string> = {};
  const env: Record<string, string> = {};
  Object.entries(values ?? {}).forEach(([key, value], index) => {
    refs[key] = `\${${name(index)}}`;
    env[name(index)] = value;
  });
  return { refs, env };
}
