// What the claude adapter puts on the command line for each option.
import { describe, expect, it } from 'vitest';
import { claudeAdapter } from '../../src/adapters/claude/index.js';
import type { InvocationContext, SessionTarget } from '../../src/core/contract/adapter.js';
import { checkSupport } from '../../src/core/run/validate.js';
import { CoderError } from '../../src/errors.js';
import type { ResolvedOpts } from '../../src/options.js';

async function invocation(opts: ResolvedOpts, session: SessionTarget = { kind: 'new' }, outputJsonSchema?: Record<string, unknown>) {
  const ctx: InvocationContext = {
    prompt: '--help me',
    opts,
    session,
    cwd: '/tmp',
    writeTempFile: () => Promise.reject(new Error('unused')),
    coderStateDir: () => Promise.resolve('/tmp/coder-state'),
    outputJsonSchema,
  };
  return claudeAdapter.buildInvocation(ctx);
}

describe('claude argv', () => {
  it('always headless stream-json with --verbose, prompt on stdin only', async () => {
    const { args, stdin } = await invocation({});
    expect(args.slice(0, 3)).toEqual(['-p', '--output-format=stream-json', '--verbose']);
    expect(stdin).toBe('--help me');
    expect(args).not.toContain('--help me');
  });

  it('permissionPolicy.denyKinds: every tool of those kinds is disallowed, after the deny rules', async () => {
    const { args } = await invocation({ permissionPolicy: { deny: ['Write'], denyKinds: ['shell', 'search'] } });
    expect(args.filter((arg) => arg.startsWith('--disallowed-tools'))).toEqual(['--disallowed-tools=Write', '--disallowed-tools=Bash', '--disallowed-tools=Glob', '--disallowed-tools=Grep']);
  });

  it('maps every universal option and Claude extra to its flag', async () => {
    const { args } = await invocation(
      {
        model: 'claude-sonnet-4-5',
        reasoningEffort: 'high',
        addDirs: ['/a', '/b c'],
        allowedTools: ['Read'],
        permissionPolicy: { mode: 'plan', allow: ['Bash(git *)', 'Read'], deny: ['Write'] },
        settingSources: ['user'],
        systemPrompt: '-starts with a dash',
        appendSystemPrompt: 'extra',
        agents: { reviewer: { description: 'Reviews', prompt: 'You review' } },
        maxBudgetUsd: 0.5,
        claudeBare: true,
        claudeNoSessionPersistence: true,
        streamPartialMessages: true,
        maxTurns: 3,
        sessionId: '11111111-2222-4333-8444-555555555555',
      },
      { kind: 'new' },
      { type: 'object' },
    );
    expect(args).toEqual(expect.arrayContaining([
      '--model=claude-sonnet-4-5',
      '--effort=high',
      '--permission-mode=plan',
      '--add-dir=/a',
      '--add-dir=/b c',
      '--allowed-tools=Read',
      '--allowed-tools=Bash(git *)',
      '--disallowed-tools=Write',
      '--setting-sources=user',
      '--system-prompt=-starts with a dash',
      '--append-system-prompt=extra',
      '--agents={"reviewer":{"description":"Reviews","prompt":"You review"}}',
      '--max-budget-usd=0.5',
      '--bare',
      '--no-session-persistence',
      '--json-schema={"type":"object"}',
      '--include-partial-messages',
      '--max-turns=3',
      '--session-id=11111111-2222-4333-8444-555555555555',
    ]));
    // "Read" is allowed once, whichever option named it.
    expect(args.filter((a) => a === '--allowed-tools=Read')).toHaveLength(1);
    // No variadic flag is followed by a bare value it could swallow.
    expect(args.slice(3).every((a) => a.startsWith('--'))).toBe(true);
  });

  it('sessions: resume, continue and fork', async () => {
    expect((await invocation({}, { kind: 'resume', sessionId: 'abc' })).args).toContain('--resume=abc');
    expect((await invocation({}, { kind: 'continue' })).args).toContain('--continue');
    const fork = (await invocation({}, { kind: 'fork', sessionId: 'abc' })).args;
    expect(fork).toEqual(expect.arrayContaining(['--resume=abc', '--fork-session']));
  });

  it('isolation strict: a private CLAUDE_CONFIG_DIR from the coder and only explicit MCP servers', async () => {
    const { args, env } = await invocation({ isolation: 'strict' });
    expect(env).toEqual({ CLAUDE_CONFIG_DIR: '/tmp/coder-state' });
    expect(args).toContain('--strict-mcp-config');
    expect((await invocation({ isolation: 'none' })).env).toEqual({});
  });

  it('bypass → --permission-mode=bypassPermissions', async () => {
    const { args } = await invocation({ permissionPolicy: { mode: 'bypass' }, extraEnv: { IS_SANDBOX: '1' } });
    expect(args).toContain('--permission-mode=bypassPermissions');
  });

  it('empty settingSources loads no settings files', async () => {
    expect((await invocation({ settingSources: [] })).args).toContain('--setting-sources=');
  });

  it('a gated run loads only the user\'s settings, none of the repository\'s; an ungated one leaves the CLI\'s default', async () => {
    const sources = async (opts: ResolvedOpts) => (await invocation(opts)).args.filter((arg) => arg.startsWith('--setting-sources'));
    expect(await sources({ canUseTool: () => ({ behavior: 'deny' }) })).toEqual(['--setting-sources=user']);
    expect(await sources({ permissionPolicy: { deny: ['Bash'] } })).toEqual(['--setting-sources=user']);
    expect(await sources({ permissionPolicy: { allow: ['Read'] } })).toEqual(['--setting-sources=user']);
    expect(await sources({ permissionPolicy: { mode: 'plan' } })).toEqual(['--setting-sources=user']);
    expect(await sources({ permissionPolicy: { mode: 'bypass' }, extraEnv: { IS_SANDBOX: '1' } })).toEqual([]);
    expect(await sources({})).toEqual([]);
  });
});

describe('claude option checks', () => {
  const check = (opts: ResolvedOpts, session: SessionTarget = { kind: 'new' }) => () => checkSupport(claudeAdapter, opts, session);
  const codeOf = (fn: () => void) => {
    try {
      fn();
      return undefined;
    } catch (error) {
      return (error as CoderError).code;
    }
  };

  it('rejects other CLIs\' options with a hint', () => {
    expect(check({ codexSandbox: 'read-only' })).toThrow(/permissionPolicy/);
    expect(codeOf(check({ piNoSession: true }))).toBe('feature_not_supported');
  });

  it('rejects effort levels claude lacks', () => {
    expect(codeOf(check({ reasoningEffort: 'minimal' }))).toBe('feature_not_supported');
    expect(codeOf(check({ reasoningEffort: 'xhigh' }))).toBeUndefined();
  });

  it('rejects the repository\'s settings (project, local) with a gate: they allow tools past it and run hooks', () => {
    const canUseTool = () => ({ behavior: 'deny' }) as const;
    expect(codeOf(check({ settingSources: ['project'], canUseTool }))).toBe('feature_not_supported');
    expect(codeOf(check({ settingSources: ['user', 'local'], permissionPolicy: { deny: ['Bash'] } }))).toBe('feature_not_supported');
    expect(codeOf(check({ settingSources: ['user'], canUseTool }))).toBeUndefined();
    expect(codeOf(check({ settingSources: ['project', 'local'] }))).toBeUndefined();
  });

  it('rejects a non-UUID session id and contradicting permission modes', () => {
    expect(codeOf(check({ sessionId: 'not-a-uuid' }))).toBe('invalid_options');
    expect(codeOf(check({ permissionMode: 'acceptEdits', permissionPolicy: { mode: 'plan' } }))).toBe('invalid_options');
    expect(codeOf(check({ permissionMode: 'plan', permissionPolicy: { mode: 'plan' } }))).toBeUndefined();
  });

  it('bypass without IS_SANDBOX fails before spawning as root (saying what to do), and passes otherwise', () => {
    const saved = process.env.IS_SANDBOX;
    delete process.env.IS_SANDBOX;
    try {
      if (process.getuid?.() === 0) expect(check({ permissionPolicy: { mode: 'bypass' } })).toThrow(/IS_SANDBOX/);
      else expect(codeOf(check({ permissionPolicy: { mode: 'bypass' } }))).toBeUndefined();
      expect(codeOf(check({ permissionMode: 'bypassPermissions', extraEnv: { IS_SANDBOX: '1' } }))).toBeUndefined();
    } finally {
      if (saved !== undefined) process.env.IS_SANDBOX = saved;
    }
  });

  it('explains the CLI\'s own root refusal instead of a bare exit 1', () => {
    const explained = claudeAdapter.explainExit?.({
      exitCode: 1,
      signal: undefined,
      stderrTail: '--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons',
    });
    expect(explained?.code).toBe('invalid_options');
    expect(explained?.message).toMatch(/IS_SANDBOX/);
  });
});
