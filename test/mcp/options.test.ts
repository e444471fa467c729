// mcpServers and strictMcpConfig: how each adapter spells them for its CLI (what servers.e2e.test.ts runs
// on the binaries): every server fronted by the tool bridge, so the caller's env and header values
// reach no CLI at all; and the errors a caller gets before anything runs.
import { describe, expect, it } from 'vitest';
import type { ToolBridgeInfo } from '../../src/core/contract/bridge-info.js';
import { checkSupport, parseOptions } from '../../src/core/run/validate.js';
import { CoderError, FeatureNotSupportedError, InvalidOptionsError } from '../../src/errors.js';
import { run } from '../../src/index.js';
import { pidsWithMarker, uniqueMarker } from '../support/processes.js';
import { waitFor } from '../support/wait.js';
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
  // What the host's bridge makes of `servers` below: each fronted at a path of its own.
  servers: [
    { name: 'files', url: 'http://127.0.0.1:45678/mcp/files', toolNames: ['read_file'] },
    { name: 'web', url: 'http://127.0.0.1:45678/mcp/web', toolNames: ['fetch'] },
  ],
};

const servers: ResolvedOpts['mcpServers'] = {
  files: { command: 'node', args: ['server.mjs'], env: { API_KEY: 'stdio-secret' } },
  web: { url: 'https://mcp.example.test/mcp', headers: { Authorization: 'Bearer http-secret' } },
};

const secrets = ['stdio-secret', 'http-secret', 'bridge-secret'];

describe('mcpServers on each CLI: at the bridge, the caller\'s values nowhere', () => {
  const fronted = { type: 'http', headers: bridge.headers };
  const expectNoSecret = (...texts: string[]) => {
    for (const secret of secrets) for (const text of texts) expect(text).not.toContain(secret);
  };

  it('claude: one --mcp-config file with every server as HTTP at the bridge, each allowed (the bridge asks), not strict by default', async () => {
    const { args, files, env } = await invocationOf(builtInAdapters.claude, { mcpServers: servers }, bridge);
    expect(args).toContain('--mcp-config=/tmp/run/claude-mcp-config.json');
    expect(args).not.toContain('--strict-mcp-config');
    expect(args).toEqual(expect.arrayContaining(['--allowed-tools=mcp__coderline__lookup_ticket', '--allowed-tools=mcp__files', '--allowed-tools=mcp__web']));
    expect(JSON.parse(files['claude-mcp-config.json']!)).toEqual({
      mcpServers: {
        coderline: { ...fronted, url: bridge.url },
        files: { ...fronted, url: bridge.servers[0]!.url },
        web: { ...fronted, url: bridge.servers[1]!.url },
      },
    });
    expectNoSecret(args.join(' '), JSON.stringify(env), files['claude-mcp-config.json']!.replaceAll('bridge-secret', ''));
  });

  it('claude: strictMcpConfig passes --strict-mcp-config once, also with strict isolation', async () => {
    expect((await invocationOf(builtInAdapters.claude, { strictMcpConfig: true })).args.filter((arg) => arg === '--strict-mcp-config')).toHaveLength(1);
    expect((await invocationOf(builtInAdapters.claude, { strictMcpConfig: true, isolation: 'strict' })).args.filter((arg) => arg === '--strict-mcp-config')).toHaveLength(1);
    expect((await invocationOf(builtInAdapters.claude, { tools: [] }, bridge)).args).not.toContain('--strict-mcp-config');
  });

  it('codex: -c mcp_servers.<name>.url at the bridge, its secret by variable, approved (the bridge asks) and required', async () => {
    const { args, env } = await invocationOf(builtInAdapters.codex, { mcpServers: servers }, bridge);
    expect(args).toEqual(expect.arrayContaining([
      '-c', `mcp_servers.files.url="${bridge.servers[0]!.url}"`,
      '-c', 'mcp_servers.files.bearer_token_env_var="CODERLINE_TOOL_BRIDGE_SECRET"',
      '-c', 'mcp_servers.files.default_tools_approval_mode="approve"',
      '-c', `mcp_servers.web.url="${bridge.servers[1]!.url}"`,
      '-c', 'mcp_servers.web.required=true',
    ]));
    expect(args.join(' ')).not.toMatch(/mcp_servers\.files\.command|env_http_headers|env_vars/);
    expect(env).toEqual({ CODERLINE_TOOL_BRIDGE_SECRET: 'bridge-secret' });
    expectNoSecret(args.join(' '));
  });

  it('copilot: one config file with every server at the bridge; the caller\'s servers allowed whole, the tools by name', async () => {
    const { args, files, env } = await invocationOf(builtInAdapters.copilot, { mcpServers: servers }, bridge);
    expect(args).toEqual(expect.arrayContaining(['--additional-mcp-config', '@/tmp/run/copilot-tool-bridge.json', '--allow-tool=files', '--allow-tool=web', '--allow-tool=coderline(lookup_ticket)']));
    expect(JSON.parse(files['copilot-tool-bridge.json']!)).toEqual({
      mcpServers: {
        coderline: { ...fronted, url: bridge.url, tools: ['*'] },
        files: { ...fronted, url: bridge.servers[0]!.url, tools: ['*'] },
        web: { ...fronted, url: bridge.servers[1]!.url, tools: ['*'] },
      },
    });
    expectNoSecret(args.join(' '), JSON.stringify(env), files['copilot-tool-bridge.json']!.replaceAll('bridge-secret', ''));
  });

  it('pi: the extension registers every server at the bridge with the secret from the environment, none of the caller\'s values', async () => {
    const { args, files, env } = await invocationOf(builtInAdapters.pi, { mcpServers: servers }, { ...bridge, toolNames: [] });
    expect(args).toEqual(expect.arrayContaining(['-e', '/tmp/run/coderline-tool-bridge.mjs', '-e', 'builtin:mcp']));
    const extension = files['coderline-tool-bridge.mjs']!;
    expect(extension).toContain(`pi.registerMcpServer("files", { url: "${bridge.servers[0]!.url}", headers: { Authorization: \`Bearer \${secret}\` }, exposure: 'direct' });`);
    expect(extension).toContain('pi.registerMcpServer("web", ');
    // No tools of its own and no permission tool: the custom-tools server is not registered.
    expect(extension).not.toContain('pi.registerMcpServer("coderline"');
    expect(env).toMatchObject({ CODERLINE_TOOL_BRIDGE_SECRET: 'bridge-secret' });
    expectNoSecret(args.join(' '), extension);
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

  it('a server that cannot start: a CoderError naming it, before any CLI starts, with its env values redacted', async () => {
    // The server prints its secret to stderr and exits: what it printed is in the message, the secret is not.
    const broken = { command: process.execPath, args: ['-e', 'console.error("starting with " + process.env.TOKEN); process.exit(3)'], env: { TOKEN: 'hunter2-token' } };
    const error = (await run('claude', 'hi', { executablePath: '/nonexistent/claude', mcpServers: { broken } }).catch((caught: unknown) => caught)) as Error;
    expect(error).toBeInstanceOf(CoderError);
    expect(error).toMatchObject({ code: 'invalid_options', message: expect.stringContaining('mcpServers.broken could not be started') });
    expect(error.message).toContain('starting with <redacted>');
    expect(error.message).not.toContain('hunter2-token');
    const unreachable = (await run('claude', 'hi', { executablePath: '/nonexistent/claude', mcpServers: { gone: { url: 'http://127.0.0.1:9/mcp' } } }).catch((caught: unknown) => caught)) as Error;
    expect(unreachable).toMatchObject({ code: 'invalid_options', message: expect.stringContaining('mcpServers.gone could not be started') });
  });

  it('a stdio server env name that holds "=", or a NUL byte in its argv or env: InvalidOptionsError naming the server, and nothing starts', async () => {
    // The attacker: a job or a config file names a server variable "NODE_OPTIONS=--require=<file> ";
    // Node writes NAME=VALUE as given, so the server (a node program) would read NODE_OPTIONS and load the file.
    const marker = uniqueMarker('mcp-env-name');
    const server = (env: Record<string, string>, args: string[] = []) => ({ command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)', marker, ...args], env });
    for (const [env, args, problem] of [
      [{ 'NODE_OPTIONS=--require=/tmp/attacker.js ': 'x' }, [], 'holds "="'],
      [{ TOKEN: 'hunter2\0-token' }, [], 'NUL byte'],
      [{}, ['a\0b'], 'NUL byte'],
    ] as const) {
      const error = (await run('claude', 'hi', { executablePath: '/nonexistent/claude', mcpServers: { bad: server(env, [...args]) } }).catch((caught: unknown) => caught)) as Error;
      expect(error).toBeInstanceOf(InvalidOptionsError);
      expect(error.message).toContain('mcpServers.bad');
      expect(error.message).toContain(problem);
      expect(error.message).not.toContain('hunter2');
    }
    expect(pidsWithMarker(marker)).toEqual([]);
  });

  it('an abort while a server starts is a cancelled run, and the server is stopped', async () => {
    const marker = uniqueMarker('mcp-slow');
    // A server that never answers initialize: the run waits for it until the abort.
    const silent = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)', marker] };
    const controller = new AbortController();
    const running = run('claude', 'hi', { executablePath: '/nonexistent/claude', mcpServers: { silent }, signal: controller.signal });
    await waitFor(() => pidsWithMarker(marker).length === 1);
    controller.abort();
    expect(await running).toMatchObject({ status: 'cancelled' });
    expect(pidsWithMarker(marker)).toEqual([]);
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
