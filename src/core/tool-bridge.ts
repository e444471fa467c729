// The SDK-hosted MCP server that lets an agent CLI call the run's custom tools: streamable HTTP on
// 127.0.0.1 (random port), a random per-run secret required on every request, closed when the run
// ends. CLI-agnostic: each adapter only tells its CLI the name, URL and secret.
// `@modelcontextprotocol/sdk` is imported here, lazily, only when a run has tools.
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Tool, ToolOutput } from '../tool.js';
import { validateStandard } from './standard-schema.js';
import { permissionToolName, toolBridgeServerName } from './tool-names.js';

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

/** Starts the bridge for `tools` (and the permission prompt tool); handlers get a signal that fires when `runSignal` does. */
export async function startToolBridge(tools: readonly Tool[], runSignal: AbortSignal, permissionPrompt?: PermissionPromptTool): Promise<ToolBridge> {
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
  const sessions = new Map<string, StreamableHTTPServerTransport>();

  /** One MCP server per client session (a CLI may connect more than once). */
  async function newSession(): Promise<StreamableHTTPServerTransport> {
    const mcp = new Server({ name: toolBridgeServerName, version: '1.0.0' }, { capabilities: { tools: {} } });
    const permissionTool = permissionPrompt
      ? [{ name: permissionToolName, description: 'Answers the CLI\'s permission prompts for the SDK host. Not for the model.', inputSchema: { type: 'object' as const } }]
      : [];
    mcp.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [...tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputJsonSchema as { type: 'object' } })), ...permissionTool],
    }));
    mcp.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      if (permissionPrompt && request.params.name === permissionToolName) {
        const text = await permissionPrompt.answer(request.params.arguments ?? {}, AbortSignal.any([callSignal, extra.signal]));
        return { content: [{ type: 'text', text }] };
      }
      const tool = byName.get(request.params.name);
      if (!tool) return errorResult(`Unknown tool "${request.params.name}".`);
      return callTool(tool, request.params.arguments ?? {}, AbortSignal.any([callSignal, extra.signal]));
    });
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => void sessions.set(id, transport),
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
    const sessionHeader = req.headers['mcp-session-id'];
    const known = typeof sessionHeader === 'string' ? sessions.get(sessionHeader) : undefined;
    if (known) {
      await known.handleRequest(req, res, body);
    } else if (sessionHeader === undefined && isInitializeRequest(body)) {
      await (await newSession()).handleRequest(req, res, body);
    } else {
      refuse(res, 404, 'Unknown or missing MCP session');
    }
  }

  const http: HttpServer = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) refuse(res, 500, `tool bridge failure: ${String(error)}`);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = http.address() as AddressInfo;

  let closed: Promise<void> | undefined;
  const close = () =>
    (closed ??= (async () => {
      closing.abort();
      await Promise.allSettled([...sessions.values()].map((transport) => transport.close()));
      sessions.clear();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    })());

  return {
    name: toolBridgeServerName,
    url: `http://127.0.0.1:${port}/mcp`,
    secret,
    headers: { Authorization: `Bearer ${secret}` },
    toolNames: tools.map((tool) => tool.name),
    ...(permissionPrompt ? { permissionToolName } : {}),
    close,
  };
}

/** Validates the input, runs the handler, and turns whatever happens into a tool result. */
async function callTool(tool: Tool, args: unknown, signal: AbortSignal): Promise<CallToolResult> {
  try {
    const checked = await validateStandard(tool.input, args, '(input)');
    if (!checked.ok) return errorResult(`Invalid input for ${tool.name}: ${checked.issues.join('; ')}`);
    return toCallToolResult(await tool.handler(checked.value, { signal }));
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
