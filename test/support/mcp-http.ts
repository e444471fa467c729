// A stateless streamable HTTP MCP server on 127.0.0.1 for the bridge's tests: a fresh server and
// transport per request, its handlers set by the test; closed after the test.
import { createServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { cleanupAfterTest } from './cleanup.js';

/** Resolves to the server's URL; `accepts` may turn a request away (401) before MCP sees it. */
export async function startMcpHttpServer(name: string, handlers: (mcp: Server) => void, accepts: (req: IncomingMessage) => boolean = () => true): Promise<string> {
  const http: HttpServer = createServer(async (req, res) => {
    if (!accepts(req)) return void res.writeHead(401).end();
    const mcp = new Server({ name, version: '1.0.0' }, { capabilities: { tools: {} } });
    handlers(mcp);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => void transport.close());
    await mcp.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  cleanupAfterTest(() => new Promise<void>((resolve) => (http.closeAllConnections(), http.close(() => resolve()))));
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
}
