// What the OpenCode adapter hands the binary, without running it: argv, environment and the private
// config, for what a hostile caller or job can put in the options.
import { describe, expect, it } from 'vitest';
import { opencodeAdapter } from '../../src/adapters/opencode/index.js';
import { permissionConfig } from '../../src/adapters/opencode/config.js';
import { mcpNamesOf } from '../../src/adapters/opencode/translate.js';
import type { InvocationContext, SessionTarget } from '../../src/core/contract/adapter.js';
import { InvalidOptionsError, run } from '../../src/index.js';
import type { ResolvedOpts } from '../../src/options.js';

function context(opts: ResolvedOpts, session: SessionTarget = { kind: 'new' }, extra: Partial<InvocationContext> = {}): InvocationContext {
  return {
    prompt: 'the prompt -- --auto',
    opts,
    session,
    cwd: '/work/space',
    writeTempFile: async (name) => `/tmp/x/${name}`,
    coderStateDir: async () => '/state/coder',
    outputJsonSchema: undefined,
    ...extra,
  };
}

const build = (opts: ResolvedOpts, session?: SessionTarget, extra?: Partial<InvocationContext>) => Promise.resolve(opencodeAdapter.buildInvocation(context(opts, session, extra)));

describe('opencode argv', () => {
  it('the prompt goes on stdin only; values stay bound to their flags', async () => {
    const invocation = await build({ model: 'fake/--auto', reasoningEffort: 'high', files: ['-f.txt'] });
    expect(invocation.stdin).toBe('the prompt -- --auto');
    expect(invocation.args).toEqual(['run', '--format', 'json', '--thinking', '--model=fake/--auto', '--variant=high', '--file=/work/space/-f.txt', '--title=']);
    expect(invocation.args.join(' ')).not.toContain('the prompt');
  });

  it('sessions: resume, continue and fork bind the id to --session', async () => {
    expect((await build({}, { kind: 'resume', sessionId: 'ses_1' })).args.slice(4)).toEqual(['--session=ses_1']);
    expect((await build({}, { kind: 'continue' })).args.slice(4)).toEqual(['--continue']);
    expect((await build({}, { kind: 'fork', sessionId: 'ses_1' })).args.slice(4)).toEqual(['--session=ses_1', '--fork']);
  });

  it('the working directory is PWD too (OpenCode reads PWD before its cwd); update checks, share and downloads are off', async () => {
    const { env } = await build({});
    expect(env).toMatchObject({ PWD: '/work/space', OPENCODE_DISABLE_AUTOUPDATE: '1', OPENCODE_DISABLE_SHARE: '1', OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_LSP_DOWNLOAD: '1' });
    expect(env).not.toHaveProperty('OPENCODE_PERMISSION');
    expect(env).not.toHaveProperty('OPENCODE_DISABLE_PROJECT_CONFIG');
  });

  it("strict isolation puts OpenCode's XDG dirs in the coder's state dir", async () => {
    const { env } = await build({ isolation: 'strict' });
    expect(env).toMatchObject({ XDG_CONFIG_HOME: '/state/coder/config', XDG_DATA_HOME: '/state/coder/data', XDG_CACHE_HOME: '/state/coder/cache', XDG_STATE_HOME: '/state/coder/state' });
  });

  it('a policy becomes OPENCODE_PERMISSION and shuts out the project config; deny wins', async () => {
    const { env } = await build({ allowedTools: ['read', 'bash'], permissionPolicy: { mode: 'plan', allow: ['write'], deny: ['bash'] } });
    expect(JSON.parse(env!.OPENCODE_PERMISSION!)).toEqual({ read: 'allow', bash: 'deny', edit: 'deny', task: 'deny' });
    expect(env!.OPENCODE_DISABLE_PROJECT_CONFIG).toBe('1');
  });

  it('denyKinds deny every OpenCode tool of those kinds; write is OpenCode\'s edit, so it goes too', async () => {
    const { env } = await build({ permissionPolicy: { denyKinds: ['shell', 'write', 'fetch'] } });
    expect(JSON.parse(env!.OPENCODE_PERMISSION!)).toEqual({ bash: 'deny', edit: 'deny', webfetch: 'deny' });
    expect(env!.OPENCODE_DISABLE_PROJECT_CONFIG).toBe('1');
  });

  it('bypass is --auto', async () => {
    expect((await build({ permissionPolicy: { mode: 'bypass' } })).args).toContain('--auto');
  });

  it('the bridge servers go in OPENCODE_CONFIG_CONTENT with the secret named, not written', async () => {
    const toolBridge = { name: 'coderline', url: 'http://127.0.0.1:1/mcp', headers: {}, secret: 's3cr3t-value', toolNames: ['t'], servers: [{ name: 'ext', url: 'http://127.0.0.1:1/mcp/ext', toolNames: ['u'] }] };
    const { env, args } = await build({}, { kind: 'new' }, { toolBridge });
    const content = JSON.parse(env!.OPENCODE_CONFIG_CONTENT!) as { mcp: Record<string, { url: string; headers: Record<string, string> }> };
    expect(Object.keys(content.mcp)).toEqual(['coderline', 'ext']);
    expect(content.mcp.ext).toMatchObject({ type: 'remote', url: 'http://127.0.0.1:1/mcp/ext', oauth: false, headers: { Authorization: 'Bearer {env:CODERLINE_TOOL_BRIDGE_SECRET}' } });
    expect(env!.OPENCODE_CONFIG_CONTENT).not.toContain('s3cr3t-value');
    expect(args.join(' ')).not.toContain('s3cr3t-value');
    expect(env!.CODERLINE_TOOL_BRIDGE_SECRET).toBe('s3cr3t-value');
  });
});

describe('opencode option checks (before anything spawns)', () => {
  it('a rule OpenCode could read as something else is refused', () => {
    expect(() => permissionConfig({ permissionPolicy: { deny: ['bash": "allow'] } }, mcpNamesOf({}))).toThrow(InvalidOptionsError);
    expect(() => permissionConfig({ allowedTools: ['a b'] }, mcpNamesOf({}))).toThrow(InvalidOptionsError);
  });

  it('rules naming bridge tools are left to the bridge', () => {
    const tools = [{ name: 'lookup' }] as unknown as ResolvedOpts['tools'];
    expect(permissionConfig({ tools, permissionPolicy: { deny: ['lookup', 'mcp__coderline__lookup', 'coderline_lookup'] } }, mcpNamesOf({ tools }))).toBeUndefined();
  });

  it.each(['OPENCODE_PERMISSION', 'OPENCODE_CONFIG_CONTENT', 'OPENCODE_DISABLE_PROJECT_CONFIG'])('a gated run whose extraEnv sets %s fails fast', async (name) => {
    // The attacker: a queued job with a deny rule and an extraEnv that allows everything again.
    const attempt = run(opencodeAdapter, 'hi', { executablePath: '/nonexistent/opencode', permissionPolicy: { deny: ['bash'] }, extraEnv: { [name]: '{"*":"allow"}' } });
    await expect(attempt).rejects.toMatchObject({ code: 'invalid_options', message: expect.stringContaining(name) });
  });

  it('an owned flag in extraArgs is refused', async () => {
    await expect(run(opencodeAdapter, 'hi', { executablePath: '/nonexistent/opencode', extraArgs: ['--attach=http://elsewhere'] })).rejects.toBeInstanceOf(InvalidOptionsError);
  });
});
