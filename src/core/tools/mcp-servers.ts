// The caller's external MCP servers (`mcpServers`), CLI-agnostic. The host connects to them itself
// (bridge-upstream.ts) and the tool bridge re-serves their tools, so every CLI is told only of MCP
// servers at the bridge: the caller's env and header values never reach a CLI's argv, config or
// environment, and the host decides each call (bridge-gate.ts).
import type { ResolvedOpts, SharedStartOpts } from '../../options.js';
import { InvalidOptionsError } from '../../errors.js';
import { buildEnv } from '../process/env.js';
import { unpassableToProcess } from '../process/spawn.js';
import type { ToolBridgeInfo } from '../contract/bridge-info.js';

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

/** Where the bridge starts a stdio server of the run's: its directory and environment. */
export interface UpstreamContext {
  /** The environment a stdio server starts with (the server's own env is laid over it). */
  env: Record<string, string>;
  cwd: string;
}

/**
 * The run's servers for the bridge to front, with where a stdio one starts: the run's directory, and
 * the environment the CLI would inherit (inheritEnv, extraEnv, unsetEnv) under the server's own env.
 */
export function serversToFront(opts: ResolvedOpts, cwd: string): { entries: Array<[string, McpServerConfig]>; context: UpstreamContext } | undefined {
  const entries = mcpServerEntries(opts);
  if (!entries.length) return undefined;
  // The host starts stdio servers itself: a name like `NODE_OPTIONS=--require=x` would set NODE_OPTIONS.
  const issues = entries.flatMap(([name, server]) => (isStdioServer(server) ? unpassableToProcess([server.command, ...(server.args ?? [])], server.env ?? {}).map((issue) => `mcpServers.${name}: ${issue}`) : []));
  if (issues.length) throw new InvalidOptionsError(issues);
  return { entries, context: { env: buildEnv({ inherited: process.env, inherit: opts.inheritEnv, extra: opts.extraEnv, unset: opts.unsetEnv }), cwd } };
}

/** One MCP server a CLI is told of: a streamable HTTP server at the bridge (all take the bridge's secret). */
export interface BridgedServer {
  name: string;
  url: string;
  /** The tools it lists, as the server names them. */
  toolNames: string[];
  /** The run's own tools (server `coderline`), rather than one of `mcpServers`. */
  own: boolean;
}

/**
 * Every server the CLI must be told of for this bridge: the run's own tools when it serves any (or
 * the permission prompt tool), then each of the caller's servers.
 */
export function bridgedServers(bridge: ToolBridgeInfo | undefined): BridgedServer[] {
  if (!bridge) return [];
  const own = bridge.toolNames.length > 0 || bridge.permissionToolName !== undefined ? [{ name: bridge.name, url: bridge.url, toolNames: bridge.toolNames, own: true }] : [];
  return [...own, ...bridge.servers.map((server) => ({ ...server, own: false }))];
}
