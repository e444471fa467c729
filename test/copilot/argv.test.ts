// Options → copilot command line (flags verified against copilot 1.0.102; see capabilities.ts).
import { describe, expect, it } from 'vitest';
import { copilotAdapter } from '../../src/adapters/copilot/index.js';
import type { InvocationContext, SessionTarget } from '../../src/core/contract/adapter.js';
import { CoderError } from '../../src/errors.js';
import { run } from '../../src/index.js';
import type { ResolvedOpts } from '../../src/options.js';

const written: Record<string, string> = {};

function ctx(opts: ResolvedOpts, session: SessionTarget = { kind: 'new' }, prompt = 'do it'): InvocationContext {
  return {
    prompt,
    opts,
    session,
    cwd: '/work/dir',
    outputJsonSchema: opts.outputSchema ? { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } : undefined,
    writeTempFile: async (name, content) => {
      written[name] = content;
      return `/tmp/private/${name}`;
    },
    coderStateDir: async () => '/tmp/coder-state',
  };
}

/** Every run's flags: JSONL, no ask_user, and the file the CLI writes its token counts to at exit. */
const base = ['--output-format', 'json', '--no-ask-user', '--usage-output-file', '/tmp/private/copilot-usage.json'];

const build = (opts: ResolvedOpts, session?: SessionTarget, prompt?: string) => copilotAdapter.buildInvocation(ctx(opts, session, prompt));

describe('copilot argv', () => {
  it('asks for the usage file from the oldest version the sweep saw take it, and not before', async () => {
    const at = (cliVersion: string) => copilotAdapter.buildInvocation({ ...ctx({}), cliVersion });
    expect((await at('1.0.85')).args).toEqual(base);
    expect((await at('1.0.102')).args).toEqual(base);
    const older = await at('1.0.79');
    expect(older.args).toEqual(['--output-format', 'json', '--no-ask-user']);
    expect(older.afterExit).toBeUndefined();
  });

  it('asks for JSONL without ask_user, and sends the prompt on stdin, never in argv', async () => {
    const invocation = await build({}, undefined, 'a secret prompt -p --yolo');
    expect(invocation.args).toEqual(base);
    expect(invocation.stdin).toBe('a secret prompt -p --yolo');
    expect(invocation.args.join(' ')).not.toContain('secret');
    expect(invocation.env).toEqual({ COPILOT_AUTO_UPDATE: 'false' });
    expect(written['copilot-usage.json']).toBe('');
  });

  it('maps the universal options', async () => {
    const { args } = await build({
      model: 'gpt-x',
      reasoningEffort: 'xhigh',
      workingDirectory: 'dir',
      addDirs: ['/a', '/b'],
      allowedTools: ['shell(git:*)'],
      permissionPolicy: { allow: ['write', 'shell(git:*)'], deny: ['shell(rm)'] },
    });
    expect(args).toEqual([
      ...base,
      '--model=gpt-x',
      '--reasoning-effort', 'xhigh',
      '-C', '/work/dir',
      '--add-dir=/a', '--add-dir=/b',
      '--allow-tool=shell(git:*)', '--allow-tool=write',
      '--deny-tool=shell(rm)',
    ]);
  });

  it('maps permission modes: plan → --mode plan, bypass → --allow-all', async () => {
    expect((await build({ permissionPolicy: { mode: 'plan' } })).args).toContain('plan');
    expect((await build({ permissionPolicy: { mode: 'bypass' } })).args).toContain('--allow-all');
    expect((await build({ permissionPolicy: { mode: 'default' } })).args).toEqual(base);
  });

  it('maps the Copilot extras', async () => {
    const { args } = await build({
      copilotMode: 'autopilot',
      copilotAgent: 'reviewer',
      copilotAllowUrls: ['github.com'],
      copilotDenyUrls: ['evil.example'],
      copilotAvailableTools: ['bash', 'view'],
      copilotExcludedTools: ['fetch'],
    });
    expect(args.slice(base.length)).toEqual([
      '--mode', 'autopilot',
      '--agent=reviewer',
      '--allow-url=github.com',
      '--deny-url=evil.example',
      '--available-tools=bash', '--available-tools=view',
      '--excluded-tools=fetch',
    ]);
  });

  it('permissionPolicy.denyKinds excludes every tool of those kinds; with copilotAvailableTools (which voids --excluded-tools) it is refused', async () => {
    const { args } = await build({ copilotExcludedTools: ['sql'], permissionPolicy: { denyKinds: ['shell'] } });
    expect(args.filter((arg) => arg.startsWith('--excluded-tools'))).toEqual(['--excluded-tools=sql', '--excluded-tools=bash', '--excluded-tools=write_bash']);
    await expect(run(copilotAdapter, 'Hi', { executablePath: '/nonexistent/copilot', copilotAvailableTools: ['bash'], permissionPolicy: { denyKinds: ['shell'] } })).rejects.toMatchObject({
      code: 'invalid_options',
      message: expect.stringContaining('permissionPolicy.denyKinds cannot hold with copilotAvailableTools'),
    });
  });

  it('writes an MCP config to a private temp file, and passes an @file through', async () => {
    const config = { mcpServers: { tools: { command: 'node', args: ['server.js'], env: { TOKEN: 'secret' } } } };
    const { args } = await build({ copilotAdditionalMcpConfig: config });
    expect(args.slice(base.length)).toEqual(['--additional-mcp-config', '@/tmp/private/copilot-mcp-config.json']);
    expect(JSON.parse(written['copilot-mcp-config.json']!)).toEqual(config);
    expect(args.join(' ')).not.toContain('secret');
    expect((await build({ copilotAdditionalMcpConfig: '@/etc/mcp.json' })).args.slice(base.length)).toEqual(['--additional-mcp-config', '@/etc/mcp.json']);
  });

  it('maps sessions: new with an id, resume, continue', async () => {
    expect((await build({ sessionId: '0cb916db-26aa-40f2-86b5-1ba81b225fd2' })).args.at(-1)).toBe('--session-id=0cb916db-26aa-40f2-86b5-1ba81b225fd2');
    expect((await build({}, { kind: 'resume', sessionId: 'abc' })).args.at(-1)).toBe('--resume=abc');
    expect((await build({ sessionId: 'abc' }, { kind: 'resume', sessionId: 'abc' })).args.slice(base.length)).toEqual(['--resume=abc']);
    expect((await build({}, { kind: 'continue' })).args.at(-1)).toBe('--continue');
    expect(copilotAdapter.canFork).toBe(false);
  });

  it('strict isolation gives the coder its own COPILOT_HOME', async () => {
    expect((await build({ isolation: 'strict' })).env).toMatchObject({ COPILOT_HOME: '/tmp/coder-state' });
  });

  it('puts the output schema in the prompt (best effort)', async () => {
    const { stdin, args } = await build({ outputSchema: { type: 'object' } }, undefined, 'Count.');
    expect(stdin.startsWith('Count.\n')).toBe(true);
    expect(stdin).toContain('"required":["n"]');
    expect(args).toEqual(base);
  });

  it('declares structured output best effort, and strictSchema / maxTurns / system prompts unsupported', () => {
    expect(copilotAdapter.capabilities.outputSchema?.level).toBe('best-effort');
    for (const feature of ['strictSchema', 'maxTurns', 'systemPrompt', 'appendSystemPrompt', 'claudeBare', 'codexSandbox', 'piProvider'] as const) {
      expect(copilotAdapter.capabilities[feature], feature).toBeUndefined();
    }
    expect(copilotAdapter.insteadHints?.strictSchema).toMatch(/strictSchema/);
  });

  it('rejects contradicting options', () => {
    const check = (opts: ResolvedOpts, session: SessionTarget = { kind: 'new' }) => () => copilotAdapter.validate!(opts, session);
    expect(check({ copilotMode: 'autopilot', permissionPolicy: { mode: 'plan' } })).toThrow(CoderError);
    // A session started with a chosen id resumes it on its next turn.
    const chosen = '0cb916db-26aa-40f2-86b5-1ba81b225fd2';
    expect(check({ sessionId: chosen }, { kind: 'resume', sessionId: chosen })).not.toThrow();
    // Copilot reads a part of an id as a prefix or a name: only a whole one is resumed.
    expect(check({}, { kind: 'resume', sessionId: 'x' })).toThrow(/not a whole copilot session id/);
    expect(copilotAdapter.explainExit!({ exitCode: 1, signal: undefined, stderrTail: "Error: No session or task matched 'x'." })).toMatchObject({ code: 'session_not_found' });
    expect(check({ copilotMode: 'plan', permissionPolicy: { mode: 'plan' } })).not.toThrow();
    expect(check({ sessionId: 'my-name' })).toThrow(/UUID/);
    expect(check({ sessionId: '0CB916DB-26AA-40F2-86B5-1BA81B225FD2' })).not.toThrow();
  });

  it('reads the version from `copilot --version`', () => {
    expect(copilotAdapter.parseVersion('GitHub Copilot CLI 1.0.102.\n')).toBe('1.0.102');
  });

  it('explains failed exits from stderr', () => {
    const explain = (stderrTail: string) => copilotAdapter.explainExit!({ exitCode: 1, signal: undefined, stderrTail });
    expect(explain('No such agent: nope, available: ')).toMatchObject({ code: 'invalid_options' });
    expect(explain("Error: No session, task, or name matched 'x'")).toMatchObject({ code: 'session_not_found' });
    expect(explain('Error: No authentication information found.')).toMatchObject({ code: 'auth' });
    expect(explain('something else')).toBeUndefined();
  });
});
