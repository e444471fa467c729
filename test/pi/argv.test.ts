// Options → pi command line, and the options pi cannot honour.
import { describe, expect, it } from 'vitest';
import { piAdapter } from '../../src/adapters/pi/index.js';
import { piArgs } from '../../src/adapters/pi/argv.js';
import type { InvocationContext, SessionTarget } from '../../src/core/contract/adapter.js';
import { checkSupport, checkVersionedSupport } from '../../src/core/run/validate.js';
import { FeatureNotInVersionError, FeatureNotSupportedError } from '../../src/errors.js';
import type { ResolvedOpts } from '../../src/options.js';

const NEW: SessionTarget = { kind: 'new' };

function invocation(prompt: string, opts: ResolvedOpts = {}, outputJsonSchema?: Record<string, unknown>) {
  const ctx: InvocationContext = {
    prompt,
    opts,
    session: NEW,
    cwd: '/tmp',
    writeTempFile: () => Promise.reject(new Error('unused')),
    coderStateDir: () => Promise.reject(new Error('unused')),
    outputJsonSchema,
  };
  return piAdapter.buildInvocation(ctx) as Awaited<ReturnType<typeof piAdapter.buildInvocation>>;
}

describe('pi argv', () => {
  it('runs JSON print mode with the prompt on stdin only, offline by default', () => {
    const { args, stdin, env } = invocation('-rf "quoted" @file prompt');
    expect(args).toEqual(['--mode', 'json', '--print']);
    expect(stdin).toBe('-rf "quoted" @file prompt');
    expect(args.join(' ')).not.toContain('quoted');
    expect(env).toEqual({ PI_OFFLINE: '1' });
  });

  it('maps model, provider, models and every thinking level', () => {
    expect(piArgs({ model: 'm', piProvider: 'p', piModels: ['a/*', 'b'] }, NEW)).toEqual([
      '--mode', 'json', '--print', '--provider', 'p', '--model', 'm', '--models', 'a/*,b',
    ]);
    const thinking = (effort: NonNullable<ResolvedOpts['reasoningEffort']>) => piArgs({ reasoningEffort: effort }, NEW).slice(3);
    expect(thinking('none')).toEqual(['--thinking', 'off']);
    for (const level of ['minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const) expect(thinking(level)).toEqual(['--thinking', level]);
  });

  it('tools: allowlist (both spellings merged), deny list, plan mode', () => {
    // A gated run also ignores the repository's .pi/ (--no-approve): see test/security/project-config.e2e.test.ts.
    expect(piArgs({ allowedTools: ['read', 'bash'], permissionPolicy: { allow: ['bash', 'ls'] } }, NEW).slice(3)).toEqual(['--tools', 'read,bash,ls', '--no-approve']);
    expect(piArgs({ permissionPolicy: { deny: ['bash', 'write'] } }, NEW).slice(3)).toEqual(['--exclude-tools', 'bash,write', '--no-approve']);
    expect(piArgs({ permissionPolicy: { deny: ['write'], denyKinds: ['shell', 'search'] } }, NEW).slice(3)).toEqual(['--exclude-tools', 'write,bash,grep,find', '--no-approve']);
    expect(piArgs({ permissionPolicy: { mode: 'plan' } }, NEW).slice(3)).toEqual(['--tools', 'read,grep,find,ls', '--no-approve']);
    expect(piArgs({ permissionPolicy: { mode: 'plan', allow: ['read', 'bash'] } }, NEW).slice(3)).toEqual(['--tools', 'read', '--no-approve']);
    expect(piArgs({ permissionPolicy: { mode: 'plan', allow: ['bash'] } }, NEW).slice(3)).toEqual(['--no-tools', '--no-approve']);
    expect(piArgs({ permissionPolicy: { mode: 'bypass' } }, NEW).slice(3)).toEqual([]);
    expect(piArgs({ allowedTools: ['read'] }, NEW).slice(3)).toEqual(['--tools', 'read']);
  });

  it('system prompt, session storage and resource switches', () => {
    expect(
      piArgs(
        {
          systemPrompt: 'S',
          appendSystemPrompt: 'A',
          piNoSession: true,
          piSessionDir: '/s',
          piNoContextFiles: true,
          piNoExtensions: true,
          piNoSkills: true,
          piNoPromptTemplates: true,
        },
        NEW,
      ).slice(3),
    ).toEqual([
      '--system-prompt', 'S', '--append-system-prompt', 'A', '--no-session', '--session-dir', '/s',
      '--no-context-files', '--no-extensions', '--no-skills', '--no-prompt-templates',
    ]);
  });

  it('sessions: new with an id, resume, continue, fork', () => {
    expect(piArgs({ sessionId: 'my-id' }, NEW).slice(3)).toEqual(['--session-id', 'my-id']);
    expect(piArgs({ sessionId: 'my-id' }, { kind: 'resume', sessionId: 'abc' }).slice(3)).toEqual(['--session', 'abc']);
    expect(piArgs({}, { kind: 'continue' }).slice(3)).toEqual(['--continue']);
    expect(piArgs({}, { kind: 'fork', sessionId: 'abc' }).slice(3)).toEqual(['--fork', 'abc']);
    expect(piArgs({ sessionId: 'new-id' }, { kind: 'fork', sessionId: 'abc' }).slice(3)).toEqual(['--fork', 'abc', '--session-id', 'new-id']);
    // A fork inherits the parent's options: the parent's id never becomes the fork's.
    expect(piArgs({ sessionId: 'abc' }, { kind: 'fork', sessionId: 'abc' }).slice(3)).toEqual(['--fork', 'abc']);
  });

  it('structured output: the schema travels in the prompt', () => {
    const { stdin, args } = invocation('Give me a number.', { outputSchema: { type: 'object' } }, { type: 'object', properties: { n: { type: 'number' } } });
    expect(stdin.startsWith('Give me a number.')).toBe(true);
    expect(stdin).toContain('"properties":{"n":{"type":"number"}}');
    expect(args).toEqual(['--mode', 'json', '--print']);
  });

  it('unsupported options fail fast with a hint', () => {
    for (const opts of [{ addDirs: ['/x'] }, { maxTurns: 3 }, { outputSchema: {}, strictSchema: true }, { codexSandbox: 'read-only' as const }]) {
      expect(() => checkSupport(piAdapter, opts, NEW)).toThrow(FeatureNotSupportedError);
    }
    expect(() => checkSupport(piAdapter, { maxTurns: 3 }, NEW)).toThrow(/stallTimeoutMs/);
  });

  it('reads the version and explains failed exits', () => {
    expect(piAdapter.parseVersion('1.6.0\n')).toBe('1.6.0');
    expect(piAdapter.parseVersion('file:///x/cli.js:2\nSyntaxError: …enableCompileCache\n\nNode.js v20.20.2\n')).toBeUndefined();
    expect(piAdapter.explainExit?.({ exitCode: 1, signal: undefined, stderrTail: 'Error: Unknown option: --exclude-tools' })).toMatchObject({ code: 'version_unsupported' });
    expect(piAdapter.explainExit?.({ exitCode: 1, signal: undefined, stderrTail: 'No API key found for the selected model.' })).toMatchObject({ code: 'auth' });
    expect(piAdapter.explainExit?.({ exitCode: 1, signal: undefined, stderrTail: "No session found matching 'nope'" })).toMatchObject({ code: 'session_not_found' });
    expect(
      piAdapter.explainExit?.({ exitCode: 1, signal: undefined, stderrTail: "SyntaxError: The requested module 'node:module' does not provide an export named 'enableCompileCache'" }),
    ).toMatchObject({ code: 'version_unsupported', message: expect.stringContaining('22.19') });
  });
});

describe('pi features older supported versions lack', () => {
  const check = (opts: ResolvedOpts, version: string) => () => checkVersionedSupport(piAdapter, opts, { kind: 'new' }, version);
  const tools = [{ name: 'lookup', description: 'x', inputSchema: { type: 'object' }, handler: () => 'x' }] as unknown as ResolvedOpts['tools'];

  it('refuses tools before 0.99.1, and --exclude-tools / --session-id before 0.79.10, naming option and versions', () => {
    expect(check({ tools }, '0.87.1')).toThrow(FeatureNotInVersionError);
    expect(check({ tools }, '0.87.1')).toThrow('pi 0.87.1 lacks it: it needs pi 0.99.1 or newer');
    expect(check({ permissionPolicy: { deny: ['bash'] } }, '0.73.1')).toThrow(expect.objectContaining({ option: 'permissionPolicy.deny', version: '0.73.1', since: '0.79.10' }));
    expect(check({ sessionId: 'abc' }, '0.73.1')).toThrow(expect.objectContaining({ option: 'sessionId', since: '0.79.10' }));
  });

  it("refuses reasoningEffort 'max' before 0.85.1 (0.79.10 would warn and think at its default)", () => {
    expect(check({ reasoningEffort: 'max' }, '0.79.10')).toThrow(expect.objectContaining({ option: "reasoningEffort 'max'", version: '0.79.10', since: '0.85.1' }));
    expect(check({ reasoningEffort: 'max' }, '0.85.1')).not.toThrow();
    expect(check({ reasoningEffort: 'xhigh' }, '0.73.1')).not.toThrow();
  });

  it('refuses a gated run before 0.79.10: it passes --no-approve, which 0.73 lacks (and 0.73 has no project trust)', () => {
    expect(check({ permissionPolicy: { allow: ['read'] } }, '0.73.1')).toThrow(expect.objectContaining({ version: '0.73.1', since: '0.79.10' }));
    expect(check({ permissionPolicy: { mode: 'plan' } }, '0.73.1')).toThrow(FeatureNotInVersionError);
    expect(check({ permissionPolicy: { mode: 'plan' }, reasoningEffort: 'max' }, '0.79.10')).toThrow(expect.objectContaining({ since: '0.85.1' }));
    expect(check({ permissionPolicy: { allow: ['read'] } }, '0.79.10')).not.toThrow();
  });

  it('lets the versions that have them through', () => {
    expect(check({ tools }, '1.3.0')).not.toThrow();
    expect(check({ permissionPolicy: { deny: ['bash'] }, sessionId: 'abc' }, '0.79.10')).not.toThrow();
    expect(check({ model: 'm' }, '0.73.1')).not.toThrow();
  });
});
