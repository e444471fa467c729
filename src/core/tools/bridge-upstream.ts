// The host as an MCP client of each of the run's `mcpServers`: the bridge re-serves their tools
// (bridge-gate.ts decides each call) so no CLI talks to them itself. A stdio server is spawned by the
// host as the leader of a process group of its own, tracked like a CLI (process-group.ts: killed at
// host exit, and by the watchdog when the host dies), and stopped when the run ends; an HTTP server
// is reached with the caller's headers. Only tools are fronted: resources and prompts are not served.
import { setMaxListeners } from 'node:events';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { elicitFromHost, type UserInputHost } from './elicitation.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, JSONRPCMessage, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { CoderError } from '../../errors.js';
import { isStdioServer, type McpServerConfig, type StdioMcpServer, type UpstreamContext } from './mcp-servers.js';
import { STOP_STEPS, terminateGroup, trackGroup, untrackGroup } from '../process/process-group.js';
import { spawnCli, type PipedChild } from '../process/spawn.js';
import { REDACTED } from '../secrets/redact.js';

/** One external server, connected: its tools as it lists them, and a way to call one. */
export interface Upstream {
  name: string;
  tools: McpTool[];
  call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** How long a server may take to start and answer initialize and tools/list. */
const START_TIMEOUT_MS = 60_000;
/** What is kept of a stdio server's stderr, for the error when it fails to start. */
const STDERR_TAIL_BYTES = 2_048;

/** MCP over a stdio server's pipes, the server started the way the SDK starts a CLI (spawn.ts). */
class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  stderrTail = '';
  private child: PipedChild | undefined;
  private serialize: ((message: JSONRPCMessage) => string) | undefined;
  private closing: Promise<void> | undefined;

  constructor(private readonly server: StdioMcpServer, private readonly context: UpstreamContext) {}

  async start(): Promise<void> {
    const { ReadBuffer, serializeMessage } = await import('@modelcontextprotocol/sdk/shared/stdio.js');
    this.serialize = serializeMessage;
    const { child, closed } = spawnCli(this.server.command, this.server.args ?? [], undefined, { cwd: this.context.cwd, env: { ...this.context.env, ...this.server.env } });
    this.child = child;
    const pid = child.pid;
    if (pid !== undefined) trackGroup(pid);
    const buffer = new ReadBuffer();
    child.stdout.on('data', (chunk: Buffer) => {
      buffer.append(chunk);
      for (;;) {
        let message: JSONRPCMessage | null;
        try {
          message = buffer.readMessage();
        } catch (error) {
          this.onerror?.(error instanceof Error ? error : new Error(String(error)));
          continue;
        }
        if (!message) break;
        this.onmessage?.(message);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => (this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_BYTES)));
    void closed.then((exit) => {
      if (pid !== undefined) untrackGroup(pid);
      if (exit.spawnError) this.onerror?.(exit.spawnError);
      this.onclose?.();
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    this.child?.stdin.write(this.serialize!(message));
  }

  close(): Promise<void> {
    const pid = this.child?.pid;
    this.child?.stdin.end();
    return (this.closing ??= pid === undefined ? Promise.resolve() : terminateGroup(pid, STOP_STEPS));
  }
}

/**
 * `text` with each of the server's env and header values replaced: they may be secrets. Every value,
 * however short (the run's Redactor, built after the bridge starts, leaves values under 8 characters).
 */
function redacted(text: string, server: McpServerConfig): string {
  const values = Object.values((isStdioServer(server) ? server.env : server.headers) ?? {}).filter((value) => value.length > 0);
  return values.reduce((result, value) => result.replaceAll(value, REDACTED), text);
}

/**
 * Bounds on what a server may list: one whose pages never end (or that repeats a cursor) would keep the
 * run from starting until the start timeout and grow the host's memory meanwhile. Far above any real
 * server (GitHub's lists about a hundred tools on one page).
 */
const MAX_LIST_PAGES = 200;
const MAX_TOOLS = 5_000;

/** Every tool the server lists, page after page, within the bounds above. */
async function listAll(client: Client, signal: AbortSignal): Promise<McpTool[]> {
  const tools: McpTool[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  do {
    if (cursors.size >= MAX_LIST_PAGES) throw new Error(`tools/list went on for more than ${MAX_LIST_PAGES} pages`);
    const page = await client.listTools(cursor === undefined ? undefined : { cursor }, { signal });
    tools.push(...page.tools);
    if (tools.length > MAX_TOOLS) throw new Error(`tools/list listed more than ${MAX_TOOLS} tools`);
    cursor = page.nextCursor;
    if (cursor !== undefined && cursors.has(cursor)) throw new Error(`tools/list repeated the cursor ${JSON.stringify(cursor.slice(0, 40))}`);
    if (cursor !== undefined) cursors.add(cursor);
  } while (cursor !== undefined);
  return tools;
}

/** Connects to server `name`; one that cannot be started or reached is a CoderError naming it, before any CLI starts. */
export async function connectUpstream(name: string, server: McpServerConfig, context: UpstreamContext, signal: AbortSignal, userInput?: UserInputHost): Promise<Upstream> {
  const [{ Client }, { StreamableHTTPClientTransport }, { CallToolResultSchema, ElicitRequestSchema }] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
  ]);
  let stdio: GroupStdioTransport | undefined;
  let transport: Transport;
  if (isStdioServer(server)) transport = stdio = new GroupStdioTransport(server, context);
  else transport = new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: server.headers ?? {} } });
  // Form elicitations only, and only when onUserInput can answer them: the server is told so at initialize.
  const client = new Client({ name: 'coderline', version: '1.0.0' }, userInput ? { capabilities: { elicitation: { form: {} } } } : {});
  if (userInput) {
    client.setRequestHandler(ElicitRequestSchema, (request, extra) => {
      const { params } = request;
      const schema = 'requestedSchema' in params ? params.requestedSchema : undefined;
      return elicitFromHost(userInput, name, { message: params.message, ...(schema ? { schema } : {}) }, AbortSignal.any([signal, extra.signal]), request);
    });
  }
  const starting = AbortSignal.any([signal, AbortSignal.timeout(START_TIMEOUT_MS)]);
  // Each request of the listing keeps a listener on it until the start is over.
  setMaxListeners(MAX_LIST_PAGES + 10, starting);
  let tools: McpTool[];
  try {
    await client.connect(transport, { signal: starting, timeout: START_TIMEOUT_MS });
    tools = await listAll(client, starting);
  } catch (error) {
    await client.close().catch(() => undefined);
    const stderr = stdio?.stderrTail.trim();
    const why = `${error instanceof Error ? error.message : String(error)}${stderr ? `; its stderr ended with: ${stderr}` : ''}`;
    throw new CoderError('invalid_options', `mcpServers.${name} could not be started or listed: ${redacted(why, server)}`);
  }
  return {
    name,
    tools,
    call: (tool, args, callSignal) => client.request({ method: 'tools/call', params: { name: tool, arguments: args } }, CallToolResultSchema, { signal: callSignal, timeout: 24 * 60 * 60_000 }) as Promise<CallToolResult>,
    close: () => client.close(),
  };
}
