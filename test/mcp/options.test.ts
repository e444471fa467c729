// mcpServers and strictMcpConfig: how each adapter spells them for its CLI (what servers.e2e.test.ts runs
// on the binaries), where secrets go, and the errors a caller gets before anything runs.
import { describe, expect, it } from 'vitest';
import type { ToolBridgeInfo } from '../../src/core/tool-bridge.js';
import { checkSupport, parseOptions } from '../../src/core/validate.js';
import { FeatureNotSupportedError, InvalidOptionsError } from '../../src/errors.js';
import { optionFields, type ResolvedOpts } from '../../src/options.js';
import { builtInAdapters } from '../../src/registry.js';
import { optionsFromFlags } from '../../src/cli/flags.js';
import { shareableOptions } from '../../src/cli/recording.js';
import { invocationOf } from '../support/invocation.js';

const bridge: ToolBridgeInfo = {
  name: 'coderline',
  url: 'http://127.0.0.1:45678/mcp',
  secret: 'bridge-secret',
  headers: { Authorization: 'Bearer bridge-secret' },
  toolNames: ['lookup_ticket'],
};

const servers: ResolvedOpts['mcpServers'] = {
  files: { command: 'node', args: ['server.mjs'], env: { API_KEY: 'stdio-secret' } },
  web: { url: 'https://mcp.example.test/mcp', headers: { Authorization: 'Bearer http-secret' } },
};

const secrets = ['stdio-secret', 'http-secret', 'bridge-secret'];

describe('mcpServers on each CLI', () => {
  it('claude: one --mcp-config file with the servers and the bridge, the servers allowed whole, not strict by default', async () => {
    const { args, files, env } = await invocationOf(builtInAdapters.claude, { mcpServers: { ...servers, odd: { command: 'sh', args: ['-c', 'echo ${HOME}'] } } }, bridge);
    expect(args).toContain('--mcp-config=/tmp/run/claude-mcp-config.json');
    expect(args).not.toContain('--strict-mcp-config');
    expect(args).toEqual(expect.arrayContaining(['--allowed-tools=mcp__coderline__lookup_ticket', '--allowed-tools=mcp__files', '--allowed-tools=mcp__web']));
    const config = JSON.parse(files['claude-mcp-config.json']!) as { mcpServers: Record<string, unknown> };
    expect(config.mcpServers).toEqual({
      files: { type: 'stdio', command: 'node', args: ['server.mjs'], env: { API_KEY: 'stdio-secret' } },
      web: { type: 'http', url: 'https://mcp.example.test/mcp', headers: { Authorization: 'Bearer http-secret' } },
      // `${` is escaped: claude expands references in this file, and CODERLINE_DOLLAR turns it back into `$`.
      odd: { type: 'stdio', command: 'sh', args: ['-c', 'echo ${CODERLINE_DOLLAR:-$}{HOME}'] },
      coderline: { type: 'http', url: bridge.url, headers: bridge.headers },
    });
    expect(env).toMatchObject({ CODERLINE_DOLLAR: '$' });
    for (const secret of secrets) expect(args.join(' ')).not.toContain(secret);
  });

  it('claude: strictMcpConfig passes --strict-mcp-config once, also with strict isolation', async () => {
    expect((await invocationOf(builtInAdapters.claude, { strictMcpConfig: true })).args.filter((arg) => arg === '--strict-mcp-config')).toHaveLength(1);
    expect((await invocationOf(builtInAdapters.claude, { strictMcpConfig: true, isolation: 'strict' })).args.filter((arg) => arg === '--strict-mcp-config')).toHaveLength(1);
    expect((await invocationOf(builtInAdapters.claude, { tools: [] }, bridge)).args).not.toContain('--strict-mcp-config');
  });

  it('codex: -c mcp_servers.<name>.* approved and required; env and header values only in the environment', async () => {
    const { args, env } = await invocationOf(builtInAdapters.codex, { mcpServers: servers });
    expect(args).toEqual(expect.arrayContaining([
      '-c', 'mcp_servers.files.command="node"',
      '-c', 'mcp_servers.files.args=["server.mjs"]',
      '-c', 'mcp_servers.files.env_vars=["API_KEY"]',
      '-c', 'mcp_servers.files.default_tools_approval_mode="approve"',
      '-c', 'mcp_servers.web.url="https://mcp.example.test/mcp"',
      '-c', 'mcp_servers.web.env_http_headers={ Authorization = "CODERLINE_MCP_1_HEADER_0" }',
      '-c', 'mcp_servers.web.required=true',
    ]));
    expect(env).toEqual({ API_KEY: 'stdio-secret', CODERLINE_MCP_1_HEADER_0: 'Bearer http-secret' });
    for (const secret of secrets) expect(args.join(' ')).not.toContain(secret);
  });

  it('copilot: one config file with the servers and the bridge; env and header values by reference to variables', async () => {
    const { args, files, env } = await invocationOf(builtInAdapters.copilot, { mcpServers: servers }, bridge);
    expect(args).toEqual(expect.arrayContaining(['--additional-mcp-config', '@/tmp/run/copilot-tool-bridge.json', '--allow-tool=files', '--allow-tool=web', '--allow-tool=coderline(lookup_ticket)']));
    expect(JSON.parse(files['copilot-tool-bridge.json']!)).toEqual({
      mcpServers: {
        files: { type: 'local', command: 'node', args: ['server.mjs'], env: { API_KEY: '${CODERLINE_MCP_0_ENV_0}' }, tools: ['*'] },
        web: { type: 'http', url: 'https://mcp.example.test/mcp', headers: { Authorization: '${CODERLINE_MCP_1_HEADER_0}' }, tools: ['*'] },
        coderline: { type: 'http', url: bridge.url, headers: bridge.headers, tools: ['*'] },
      },
    });
    expect(env).toMatchObject({ CODERLINE_MCP_0_ENV_0: 'stdio-secret', CODERLINE_MCP_1_HEADER_0: 'Bearer http-secret' });
    expect(files['copilot-tool-bridge.json']).not.toMatch(/stdio-secret|http-secret/);
    for (const secret of secrets) expect(args.join(' ')).not.toContain(secret);
  });

  it('pi: the servers registered by the extension, values escaped so pi takes them literally, without a bridge too', async () => {
    const { args, files } = await invocationOf(builtInAdapters.pi, { mcpServers: { files: { command: 'node', env: { A: '${HOME}', B: '!cmd', C: '$$' } } } });
    expect(args).toEqual(expect.arrayContaining(['-e', '/tmp/run/coderline-tool-bridge.mjs', '-e', 'builtin:mcp']));
    const extension = files['coderline-tool-bridge.mjs']!;
    expect(extension).toContain('pi.registerMcpServer("files", {"command":"node","args":[],"env":{"A":"$${HOME}","B":"$!cmd","C":"$$$$"},"exposure":"direct"});');
    expect(extension).not.toContain('CODERLINE_TOOL_BRIDGE_SECRET');
  });
});

describe('errors before anything runs', () => {
  const parse = (opts: unknown) => parseOptions(optionFields.oneShot, opts, 'options');

  it('the bridge\'s name, a name a CLI cannot take, or a server that is neither stdio nor http is invalid', () => {
    expect(() => parse({ mcpServers: { coderline: { command: 'x' } } })).toThrow(InvalidOptionsError);
    expect(() => parse({ mcpServers: { coderline: { command: 'x' } } })).toThrow(/taken by the custom-tools bridge/);
    expect(() => parse({ mcpServers: { 'my server': { command: 'x' } } })).toThrow(/letters, digits/);
    expect(() => parse({ mcpServers: { s: { url: 'ftp://host' } } })).toThrow(InvalidOptionsError);
    expect(() => parse({ mcpServers: { s: { command: 'x', url: 'http://h' } } })).toThrow(InvalidOptionsError);
    expect(parse({ mcpServers: servers }).mcpServers).toEqual(servers);
  });

  it.each(['codex', 'copilot', 'pi'] as const)('strictMcpConfig on %s: FeatureNotSupportedError; false asks for nothing', (cli) => {
    expect(() => checkSupport(builtInAdapters[cli], { strictMcpConfig: true }, { kind: 'new' })).toThrow(FeatureNotSupportedError);
    expect(() => checkSupport(builtInAdapters[cli], { strictMcpConfig: false }, { kind: 'new' })).not.toThrow();
    expect(() => checkSupport(builtInAdapters[cli], { mcpServers: servers }, { kind: 'new' })).not.toThrow();
  });
});

describe('from the command line', () => {
  it('--mcp-servers takes NAME=<JSON table>, repeatable; --strict-mcp-config and --images map to their options', () => {
    expect(optionsFromFlags({
      'mcp-servers': ['files={"command":"node","args":["server.mjs"]}', 'web={"url":"https://mcp.example.test/mcp"}'],
      'strict-mcp-config': true,
      images: 'a.png,b.png',
    })).toEqual({
      mcpServers: { files: { command: 'node', args: ['server.mjs'] }, web: { url: 'https://mcp.example.test/mcp' } },
      strictMcpConfig: true,
      images: ['a.png', 'b.png'],
    });
  });

  it('a recording leaves mcpServers out (their env and headers hold secrets)', () => {
    expect(shareableOptions({ mcpServers: servers, strictMcpConfig: true, model: 'm' })).toEqual({ strictMcpConfig: true, model: 'm' });
  });
});
