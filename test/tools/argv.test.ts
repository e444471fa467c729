// How each adapter tells its CLI about the run's tool bridge (what was verified against the binaries
// in claude.test.ts, codex.test.ts and copilot.test.ts), and that the secret never lands in argv.
import { describe, expect, it } from 'vitest';
import { builtInAdapters } from '../../src/registry.js';
import type { AdapterSpec } from '../../src/core/contract/adapter.js';
import { invocationOf } from '../support/invocation.js';
import type { ToolBridgeInfo } from '../../src/core/contract/bridge-info.js';
import { run } from '../../src/index.js';
import type { ResolvedOpts } from '../../src/options.js';
import { ticketTool } from './support.js';

const bridge: ToolBridgeInfo = {
  name: 'coderline',
  url: 'http://127.0.0.1:45678/mcp',
  secret: 'the-secret-value',
  headers: { Authorization: 'Bearer the-secret-value' },
  toolNames: ['lookup_ticket', 'close_ticket'],
  servers: [],
};

/** The invocation of a run with the ticket tool and `bridge`. */
const invocationWithBridge = (adapter: AdapterSpec, opts: ResolvedOpts = {}) => invocationOf(adapter, { tools: [ticketTool()], ...opts }, bridge);

describe('tool bridge wiring', () => {
  it('claude: an MCP config file, the tools allowed by their CLI names, and the project\'s MCP servers kept (no strict config unless asked)', async () => {
    const { args, files } = await invocationWithBridge(builtInAdapters.claude, { allowedTools: ['Read'] });
    expect(args).toContain('--mcp-config=/tmp/run/claude-mcp-config.json');
    expect(args).not.toContain('--strict-mcp-config');
    expect(args).toEqual(expect.arrayContaining(['--allowed-tools=Read', '--allowed-tools=mcp__coderline__lookup_ticket', '--allowed-tools=mcp__coderline__close_ticket']));
    expect(JSON.parse(files['claude-mcp-config.json']!)).toEqual({ mcpServers: { coderline: { type: 'http', url: bridge.url, headers: bridge.headers } } });
    expect(args.join(' ')).not.toContain(bridge.secret);
  });

  it('claude with strict isolation still passes --strict-mcp-config once', async () => {
    const { args } = await invocationWithBridge(builtInAdapters.claude, { isolation: 'strict' });
    expect(args.filter((arg) => arg === '--strict-mcp-config')).toHaveLength(1);
  });

  it('codex: -c mcp_servers.coderline.* with approval, and the secret in the environment only', async () => {
    const { args, env } = await invocationWithBridge(builtInAdapters.codex);
    expect(args).toEqual(expect.arrayContaining([
      '-c', `mcp_servers.coderline.url="${bridge.url}"`,
      '-c', 'mcp_servers.coderline.bearer_token_env_var="CODERLINE_TOOL_BRIDGE_SECRET"',
      '-c', 'mcp_servers.coderline.default_tools_approval_mode="approve"',
      '-c', 'mcp_servers.coderline.required=true',
      '-c', 'mcp_servers.coderline.startup_timeout_sec=60',
    ]));
    expect(env).toEqual({ CODERLINE_TOOL_BRIDGE_SECRET: bridge.secret });
    expect(args.join(' ')).not.toContain(bridge.secret);
    // The prompt marker still comes last.
    expect(args.at(-1)).toBe('-');
  });

  it('copilot: an additional MCP config file besides the caller\'s, and each tool allowed', async () => {
    const { args, files } = await invocationWithBridge(builtInAdapters.copilot, { copilotAdditionalMcpConfig: '@/home/me/mcp.json' });
    expect(args).toEqual(expect.arrayContaining([
      '--additional-mcp-config', '@/home/me/mcp.json',
      '--additional-mcp-config', '@/tmp/run/copilot-tool-bridge.json',
      '--allow-tool=coderline(lookup_ticket)', '--allow-tool=coderline(close_ticket)',
    ]));
    expect(JSON.parse(files['copilot-tool-bridge.json']!)).toEqual({ mcpServers: { coderline: { type: 'http', url: bridge.url, headers: bridge.headers, tools: ['*'] } } });
    expect(args.join(' ')).not.toContain(bridge.secret);
  });

  it('pi: an extension file without the secret, builtin:mcp, the secret in the environment, the tools in an allowlist', async () => {
    const { args, env, files } = await invocationWithBridge(builtInAdapters.pi, { permissionPolicy: { mode: 'plan' } });
    expect(args).toEqual(expect.arrayContaining(['-e', '/tmp/run/coderline-tool-bridge.mjs', '-e', 'builtin:mcp']));
    expect(args).toEqual(expect.arrayContaining(['--tools', 'read,grep,find,ls,mcp__coderline__lookup_ticket,mcp__coderline__close_ticket']));
    expect(env).toMatchObject({ CODERLINE_TOOL_BRIDGE_SECRET: bridge.secret });
    const extension = files['coderline-tool-bridge.mjs']!;
    expect(extension).toContain(`pi.registerMcpServer("coderline", { url: "${bridge.url}",`);
    expect(extension).toContain("exposure: 'direct'");
    expect(extension).not.toContain(bridge.secret);
    expect(args.join(' ')).not.toContain(bridge.secret);
  });

  it('tools must be made by tool() and have distinct names', async () => {
    await expect(run('claude', 'hi', { tools: [{ name: 'x' } as never] })).rejects.toThrow(/tools must be made by tool\(\)/);
    await expect(run('claude', 'hi', { tools: [ticketTool(), ticketTool()] })).rejects.toThrow(/tool names must be unique/);
  });
});
