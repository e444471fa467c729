// The SDK-hosted MCP server that lets an agent CLI call the run's custom tools and the tools of its
// `mcpServers`: streamable HTTP on 127.0.0.1 (random port), a random per-run secret required on every
// request, closed when the run ends. Custom tools are served at /mcp (server `coderline`), each
// external server at /mcp/<name> (bridge-upstream.ts connects to it); every tools/call passes the
// run's gate first (bridge-gate.ts). CLI-agnostic: each adapter only tells its CLI names, URLs and
// the secret. `@modelcontextprotocol/sdk` is imported here, lazily, only when a run needs the bridge.
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { Tool, ToolCallContext, ToolOutput } from '../../tool.js';
import type { BridgeGate } from './bridge-gate.js';
import { connectUpstream, type Upstream } from './bridge-upstream.js';
import type { McpServerConfig, UpstreamContext } from './mcp-servers.js';
import { validateStandard } from '../../schema/standard-schema.js';
import { permissionToolName, toolBridgeServerName } from '../../schema/tool-names.js';
import type { ToolBridgeInfo } from '../contract/bridge-info.js';
import { checkElicitRequest, elicitFromHost, type UserInputHost } from './elicitation.js';

export interface ToolBridgeOptions {
  tools: readonly Tool[];
  /** Handlers get a signal that fires when this one does. */
  runSignal: AbortSignal;
  permissionPrompt?: PermissionPromptTool;
  /** The caller's servers to front, and the environment and directory a stdio one starts in. */
  mcpServers?: { entries: ReadonlyArray<[string, McpServerConfig]>; context: UpstreamContext };
  /** Decides each tools/call; without one every call runs (tests of the bridge alone). */
  gate?: BridgeGate;
  /** Answers elicitations (ctx.elicit, and those of `mcpServers`) when the run has onUserInput. */
  userInput?: UserInputHost;
}

/** A tool the bridge serves for the SDK itself: the CLI calls it with its permission question. */
export interface PermissionPromptTool {
  /** Answers the CLI's arguments with the text the CLI reads its decision from. */
  answer(args: Record<string, unknown>, signal: AbortSignal): Promise<string>;
}

export interface ToolBridge extends ToolBridgeInfo {
  /** Stops the server, cancels calls still running and releases the port. Safe to call twice. */
  close(): Promise<void>;
}

const maxBodyBytes = 8 * 1024 * 1024;

/** Starts the bridge; a server of `mcpServers` that cannot be started or listed fails it (nothing is left running). */
export async function startToolBridge({ tools, runSignal, permissionPrompt, mcpServers, gate, userInput }: ToolBridgeOptions): Promise<ToolBridge> {
  const [{ createServer }, { Server }, { StreamableHTTPServerTransport }, { CallToolRequestSchema, ListToolsRequestSchema, isInitializeRequest }] = await Promise.all([
    import('node:http'),
    import('@modelcontextprotocol/sdk/server/index.js'),
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const secret = randomBytes(32).toString('base64url');
  const expectedAuth = Buffer.from(`Bearer ${secret}`);
  const closing = new AbortController();
  const callSignal = AbortSignal.any([runSignal, closing.signal]);
  const sessions = new Map<string, { path: string; transport: StreamableHTTPServerTransport }>();
  const upstreams = mcpServers ? await connectAll(mcpServers.entries, mcpServers.context, callSignal, userInput) : [];
  const upstreamAt = new Map(upstreams.map((upstream) => [`/mcp/${upstream.name}`, upstream]));
  const listed = (server: string, tool: string) => gate?.lists(server, tool) ?? true;

  /** The gate's verdict, then `run` with the input it allows. */
  async function gated(server: string, tool: string, args: Record<string, unknown>, signal: AbortSignal, run: (input: Record<string, unknown>) => Promise<CallToolResult>): Promise<CallToolResult> {
    const verdict = gate ? await gate.decide({ server, tool, input: args }, signal) : { behavior: 'allow' as const, input: args };
    return verdict.behavior === 'allow' ? run(verdict.input) : errorResult(verdict.message);
  }

  /** The server for the run's own tools (and the permission prompt tool). */
  function ownServer(): InstanceType<typeof Server> {
    const mcp = new Server({ name: toolBridgeServerName, version: '1.0.0' }, { capabilities: { tools: {} } });
    const permissionTool = permissionPrompt
      ? [{ name: permissionToolName, description: 'Answers the CLI\'s permission prompts for the SDK host. Not for the model.', inputSchema: { type: 'object' as const } }]
      : [];
    mcp.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [
        ...tools.filter((tool) => listed(toolBridgeServerName, tool.name)).map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputJsonSchema as { type: 'object' } })),
        ...permissionTool,
      ],
    }));
    mcp.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const signal = AbortSignal.any([callSignal, extra.signal]);
      // The SDK's own question to the host: canUseTool answers it, it runs nothing.
      if (permissionPrompt && request.params.name === permissionToolName) {
        return { content: [{ type: 'text', text: await permissionPrompt.answer(request.params.arguments ?? {}, signal) }] };
      }
      const tool = byName.get(request.params.name);
      if (!tool) return errorResult(`Unknown tool "${request.params.name}".`);
      const elicit = (asked: unknown) => elicitFromHost(userInput, toolBridgeServerName, checkElicitRequest(asked), signal, { tool: tool.name, elicit: asked });
      return gated(toolBridgeServerName, tool.name, request.params.arguments ?? {}, signal, (input) => callTool(tool, input, { signal, elicit }));
    });
    return mcp;
  }

  /** An external server's tools, re-served as it lists them; each call is gated, then forwarded. */
  function frontServer(upstream: Upstream): InstanceType<typeof Server> {
    const mcp = new Server({ name: upstream.name, version: '1.0.0' }, { capabilities: { tools: {} } });
    const offered: McpTool[] = upstream.tools.filter((tool) => listed(upstream.name, tool.name));
    mcp.setRequestHandler(ListToolsRequestSchema, () => ({ tools: offered }));
    mcp.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const signal = AbortSignal.any([callSignal, extra.signal]);
      const name = request.params.name;
      if (!upstream.tools.some((tool) => tool.name === name)) return errorResult(`Unknown tool "${name}".`);
      return gated(upstream.name, name, request.params.arguments ?? {}, signal, (input) =>
        upstream.call(name, input, signal).catch((error: unknown) => errorResult(`${upstream.name}: ${error instanceof Error ? error.message : String(error)}`)),
      );
    });
    return mcp;
  }

  /** One MCP server per client session (a CLI may connect more than once), for the path it started on. */
  async function newSession(path: string): Promise<StreamableHTTPServerTransport | undefined> {
    const upstream = upstreamAt.get(path);
    if (path !== '/mcp' && !upstream) return undefined;
    const mcp = upstream ? frontServer(upstream) : ownServer();
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => void sessions.set(id, { path, transport }),
      onsessionclosed: (id) => void sessions.delete(id),
    });
    await mcp.connect(transport);
    return transport;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!authorized(req.headers.authorization, expectedAuth)) {
      refuse(res, 401, 'Unauthorized: the per-run secret is missing or wrong');
      return;
    }
    let body: unknown;
    if (req.method === 'POST') {
      const read = await readJson(req);
      if (!read.ok) {
        refuse(res, read.status, read.message);
        return;
      }
      body = read.value;
    }
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const sessionHeader = req.headers['mcp-session-id'];
    const known = typeof sessionHeader === 'string' ? sessions.get(sessionHeader) : undefined;
    const fresh = !known && sessionHeader === undefined && isInitializeRequest(body) ? await newSession(path) : undefined;
    if (known && known.path === path) await known.transport.handleRequest(req, res, body);
    else if (fresh) await fresh.handleRequest(req, res, body);
    else refuse(res, 404, 'Unknown or missing MCP session, or no MCP server at this path');
  }

  const http: HttpServer = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) refuse(res, 500, `tool bridge failure: ${String(error)}`);
      else res.end();
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      http.once('error', reject);
      http.listen(0, '127.0.0.1', () => resolve());
    });
  } catch (error) {
    await Promise.allSettled(upstreams.map((upstream) => upstream.close()));
    throw error;
  }
  const { port } = http.address() as AddressInfo;

  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= (async () => {
      closing.abort();
      await Promise.allSettled([...sessions.values()].map(({ transport }) => transport.close()));
      sessions.clear();
      await Promise.allSettled(upstreams.map((upstream) => upstream.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    })());

  return {
    name: toolBridgeServerName,
    url: `http://127.0.0.1:${port}/mcp`,
    secret,
    headers: { Authorization: `Bearer ${secret}` },
    toolNames: tools.filter((tool) => listed(toolBridgeServerName, tool.name)).map((tool) => tool.name),
    ...(permissionPrompt ? { permissionToolName } : {}),
    servers: upstreams.map((upstream) => ({ name: upstream.name, url: `http://127.0.0.1:${port}/mcp/${upstream.name}`, toolNames: upstream.tools.filter((tool) => listed(upstream.name, tool.name)).map((tool) => tool.name) })),
    close,
  };
}

/** Connects every server, or none: one that fails closes those already started. */
async function connectAll(servers: ReadonlyArray<[string, McpServerConfig]>, context: UpstreamContext, signal: AbortSignal, userInput: UserInputHost | undefined): Promise<Upstream[]> {
  if (!servers.length) return [];
  const started = await Promise.allSettled(servers.map(([name, server]) => connectUpstream(name, server, context, signal, userInput)));
  const failed = started.find((outcome) => outcome.status === 'rejected');
  if (!failed) return started.map((outcome) => (outcome as PromiseFulfilledResult<Upstream>).value);
  await Promise.allSettled(started.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value.close()] : [])));
  throw failed.reason;
}

/** Validates the input, runs the handler, and turns whatever happens into a tool result. */
async function callTool(tool: Tool, args: unknown, context: ToolCallContext): Promise<CallToolResult> {
  try {
    const checked = await validateStandard(tool.input, args, '(input)');
    if (!checked.ok) return errorResult(`Invalid input for ${tool.name}: ${checked.issues.join('; ')}`);
    return toCallToolResult(await tool.handler(checked.value, context));
  } catch (error) {
    return errorResult(error instanceof Error ? error.message : String(error));
  }
}

function toCallToolResult(output: ToolOutput): CallToolResult {
  if (typeof output === 'string') return { content: [{ type: 'text', text: output }] };
  const isError = output.isError === true ? { isError: true } : {};
  if ('content' in output) return { content: output.content, ...isError };
  if ('text' in output) return { content: [{ type: 'text', text: output.text }], ...isError };
  return { content: [{ type: 'text', text: JSON.stringify(output.json) ?? 'null' }], ...isError };
}

function errorResult(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

function authorized(header: string | undefined, expected: Buffer): boolean {
  if (header === undefined) return false;
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function refuse(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message }, id: null }));
}

async function readJson(req: IncomingMessage): Promise<{ ok: true; value: unknown } | { ok: false; status: number; message: string }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBodyBytes) return { ok: false, status: 413, message: 'Request body too large' };
    chunks.push(chunk as Buffer);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch {
    return { ok: false, status: 400, message: 'Request body is not JSON' };
  }
}
