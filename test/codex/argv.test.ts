// Options → argv: what the SDK asks the real binary to do (the fixtures' meta files show it ran).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCodexInvocation, configFlag } from '../../src/adapters/codex/argv.js';
import { codexAdapter } from '../../src/adapters/codex/index.js';
import type { SessionTarget } from '../../src/core/contract/adapter.js';
import { checkSupport } from '../../src/core/run/validate.js';
import { FeatureNotSupportedError } from '../../src/errors.js';
import type { ResolvedOpts } from '../../src/options.js';

async function build(opts: ResolvedOpts, session: SessionTarget = { kind: 'new' }, schema?: Record<string, unknown>) {
  const files: Record<string, string> = {};
  const invocation = await buildCodexInvocation({
    prompt: 'the prompt',
    opts,
    session,
    cwd: '/work/space',
    writeTempFile: async (name, content) => {
      files[name] = content;
      return `/tmp/x/${name}`;
    },
    coderStateDir: async () => '/tmp/state',
    outputJsonSchema: schema,
  });
  return { ...invocation, files };
}

describe('codex argv', () => {
  it('a plain run: exec --json, cwd, workspace-write by default, prompt on stdin only', async () => {
    const { args, stdin } = await build({});
    expect(args).toEqual(['exec', '--json', '--skip-git-repo-check', '-C', '/work/space', '--sandbox', 'workspace-write', '-']);
    expect(stdin).toBe('the prompt');
    expect(args.join(' ')).not.toContain('the prompt');
  });

  it('maps the universal options and Codex extras', async () => {
    const { args } = await build({
      model: 'gpt-5.5',
      reasoningEffort: 'high',
      addDirs: ['/a', '/b'],
      codexNetworkAccess: true,
      codexDisablePlugins: true,
      codexSearch: 'live',
      codexEphemeral: true,
      codexIgnoreUserConfig: true,
      codexIgnoreRules: true,
      codexImages: ['one.png', 'two.png'],
      codexConfig: { 'model_providers.x.base_url': 'http://127.0.0.1:1/v1', 'model_providers.x.stream_max_retries': 0 },
    });
    const text = args.join(' ');
    expect(text).toContain('--model=gpt-5.5');
    expect(text).toContain('-c model_reasoning_effort="high"');
    expect(text).toContain('--add-dir=/a --add-dir=/b');
    expect(text).toContain('-c sandbox_workspace_write.network_access=true');
    expect(text).toContain('--disable plugins');
    expect(text).toContain('-c web_search="live"');
    expect(text).not.toContain('--search');
    expect(args).toEqual(expect.arrayContaining(['--ephemeral', '--ignore-user-config', '--ignore-rules', '--image=one.png', '--image=two.png']));
    expect(text).toContain('-c model_providers.x.base_url="http://127.0.0.1:1/v1" -c model_providers.x.stream_max_retries=0');
    expect(args.at(-1)).toBe('-');
  });

  it('plan is read-only, bypass drops the sandbox flag', async () => {
    expect((await build({ permissionPolicy: { mode: 'plan' } })).args.join(' ')).toContain('--sandbox read-only');
    const bypass = (await build({ permissionPolicy: { mode: 'bypass' } })).args;
    expect(bypass).toContain('--dangerously-bypass-approvals-and-sandbox');
    expect(bypass).not.toContain('--sandbox');
  });

  it('system prompts: a temp instructions file replaces the base prompt; append is a developer message', async () => {
    const { args, files } = await build({ systemPrompt: 'You are terse.', appendSystemPrompt: 'Say "ok" at the end.' });
    expect(files['instructions.md']).toBe('You are terse.');
    expect(args).toEqual(expect.arrayContaining(['-c', 'model_instructions_file="/tmp/x/instructions.md"', '-c', 'developer_instructions="Say \\"ok\\" at the end."']));
  });

  it('outputSchema goes to a temp file for --output-schema', async () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    const { args, files } = await build({ outputSchema: schema }, { kind: 'new' }, schema);
    expect(args.join(' ')).toContain('--output-schema /tmp/x/output-schema.json');
    expect(JSON.parse(files['output-schema.json'] ?? '')).toEqual(schema);
  });

  it('sessions: exec flags first, then resume -- <id> / resume --last / fork -- <id>, then -', async () => {
    expect((await build({}, { kind: 'resume', sessionId: 'T1' })).args.slice(-4)).toEqual(['resume', '--', 'T1', '-']);
    const noStore = { extraEnv: { CODEX_HOME: '/nonexistent/coderline-codex-home' } };
    expect((await build(noStore, { kind: 'continue' })).args.slice(-3)).toEqual(['resume', '--last', '-']);
    expect((await build({}, { kind: 'fork', sessionId: 'T1' })).args.slice(-4)).toEqual(['fork', '--', 'T1', '-']);
    expect((await build({}, { kind: 'resume', sessionId: 'T1' })).args.slice(0, 5)).toEqual(['exec', '--json', '--skip-git-repo-check', '-C', '/work/space']);
  });

  it('resumeLatest where the session store has no thread for this cwd fails before spawning', async () => {
    const home = mkdtempSync(join(tmpdir(), 'coderline-codex-argv-'));
    mkdirSync(join(home, 'sessions/2026/01/01'), { recursive: true });
    writeFileSync(join(home, 'sessions/2026/01/01/rollout-x.jsonl'), `${JSON.stringify({ type: 'session_meta', payload: { id: 'T9', cwd: '/elsewhere' } })}\n`);
    await expect(build({ extraEnv: { CODEX_HOME: home } }, { kind: 'continue' })).rejects.toThrow(/silently start a new thread/);
    writeFileSync(join(home, 'sessions/2026/01/01/rollout-y.jsonl'), `${JSON.stringify({ type: 'session_meta', payload: { id: 'T8', cwd: '/work/space' } })}\n`);
    expect((await build({ extraEnv: { CODEX_HOME: home } }, { kind: 'continue' })).args.slice(-3)).toEqual(['resume', '--last', '-']);
    rmSync(home, { recursive: true, force: true });
  });

  it('a gated run marks the working directory and the folders above it untrusted, so no project config loads; an ungated one does not', async () => {
    const untrusted = '-c projects={ "/work/space" = { trust_level = "untrusted" }, "/work" = { trust_level = "untrusted" }, "/" = { trust_level = "untrusted" } }';
    const trustArgs = async (opts: ResolvedOpts) => (await build(opts)).args.map((arg, i, all) => `${all[i - 1]} ${arg}`).filter((pair) => pair.startsWith('-c projects='));
    expect(await trustArgs({ permissionPolicy: { mode: 'plan' } })).toEqual([untrusted]);
    expect(await trustArgs({ canUseTool: () => ({ behavior: 'deny' }) })).toEqual([untrusted]);
    expect(await trustArgs({})).toEqual([]);
  });

  it('TOML quoting of -c values', () => {
    expect(configFlag('a', 'x"y\\z\n')).toEqual(['-c', 'a="x\\"y\\\\z\\n"']);
    expect(configFlag('b', 3)).toEqual(['-c', 'b=3']);
    expect(configFlag('c', false)).toEqual(['-c', 'c=false']);
  });
});

describe('codex capabilities', () => {
  it('maxTurns fails fast: the CLI would ignore any limit', () => {
    expect(() => checkSupport(codexAdapter, { maxTurns: 2 }, { kind: 'new' })).toThrow(FeatureNotSupportedError);
    expect(() => checkSupport(codexAdapter, { maxTurns: 2 }, { kind: 'new' })).toThrow(/model_turn_limit/);
  });

  it('options Codex has no flag for fail fast with a hint', () => {
    for (const opts of [{ allowedTools: ['x'] }, { permissionPolicy: { deny: ['x'] } }, { sessionId: 'x' }, { permissionMode: 'plan' as const }, { copilotAgent: 'x' }]) {
      expect(() => checkSupport(codexAdapter, opts, { kind: 'new' })).toThrow(FeatureNotSupportedError);
    }
  });

  it('value checks: effort "max" and contradictory sandboxes', () => {
    expect(() => checkSupport(codexAdapter, { reasoningEffort: 'max' }, { kind: 'new' })).toThrow(/not a Codex level/);
    expect(() => checkSupport(codexAdapter, { permissionPolicy: { mode: 'plan' }, codexSandbox: 'workspace-write' }, { kind: 'new' })).toThrow(/read-only/);
    expect(() => checkSupport(codexAdapter, { permissionPolicy: { mode: 'bypass' }, codexSandbox: 'read-only' }, { kind: 'new' })).toThrow(/bypass/);
  });

  it('reads the version from `codex --version`', () => {
    expect(codexAdapter.parseVersion('codex-cli 0.171.0\n')).toBe('0.171.0');
  });
});
