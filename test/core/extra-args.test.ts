// extraArgs is guarded by each adapter's ownedFlags: the list must name every flag its invocation
// builder can emit, so a caller cannot pass a second --output-format or a session flag behind its back.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tomlInline } from '../../src/adapters/codex/argv.js';
import type { SessionTarget } from '../../src/core/contract/adapter.js';
import { FeatureNotSupportedError, InvalidOptionsError, run, type ProviderName, type SharedStartOpts } from '../../src/index.js';
import { builtInAdapters } from '../../src/registry.js';

const sessions: SessionTarget[] = [{ kind: 'new' }, { kind: 'resume', sessionId: 'id-1' }, { kind: 'fork', sessionId: 'id-1' }];
const uuid = '0b7d5a3e-0c1f-4d7e-9a57-7d1a4f3c2b10';
/** pi resumes and forks only a session its store holds: one for id-1. */
const piSessionDir = mkdtempSync(join(tmpdir(), 'coderline-extra-args-pi-'));
writeFileSync(join(piSessionDir, '2026-01-01T00-00-00-000Z_id-1.jsonl'), '');
/** gemini resumes only a session its store (under HOME) holds: one for id-1. */
const geminiHome = mkdtempSync(join(tmpdir(), 'coderline-extra-args-gemini-'));
mkdirSync(join(geminiHome, '.gemini', 'tmp', 'w', 'chats'), { recursive: true });
writeFileSync(join(geminiHome, '.gemini', 'tmp', 'w', 'chats', 'session-2026-01-01T00-00-id-1.jsonl'), '{"sessionId":"id-1"}\n');
const tempFiles = mkdtempSync(join(tmpdir(), 'coderline-extra-args-temp-'));
afterAll(() => {
  rmSync(piSessionDir, { recursive: true, force: true });
  rmSync(geminiHome, { recursive: true, force: true });
  rmSync(tempFiles, { recursive: true, force: true });
});

/** As many flags as each builder can emit at once (contradicting options are split in two sets). */
const maximal: Record<ProviderName, SharedStartOpts[]> = {
  claude: [
    { model: 'm', fallbackModel: 'f', reasoningEffort: 'high', addDirs: ['/a'], allowedTools: ['Read'], permissionPolicy: { mode: 'plan', deny: ['Bash'] }, settingSources: ['user'], systemPrompt: 's', appendSystemPrompt: 'a', agents: { r: { description: 'd', prompt: 'p' } }, maxBudgetUsd: 1, claudeBare: true, claudeNoSessionPersistence: true, isolation: 'strict', sessionId: uuid },
  ],
  codex: [
    { model: 'm', addDirs: ['/a'], codexDisablePlugins: true, codexEphemeral: true, codexIgnoreUserConfig: true, codexIgnoreRules: true, reasoningEffort: 'high', codexImages: ['/i.png'], codexConfig: { k: 'v' }, systemPrompt: 's' },
    { codexDangerouslyBypassApprovalsAndSandbox: true },
  ],
  copilot: [
    { model: 'm', reasoningEffort: 'high', workingDirectory: '/w', addDirs: ['/a'], permissionPolicy: { allow: ['write'], deny: ['shell'] }, copilotMode: 'autopilot', copilotAgent: 'x', copilotAllowUrls: ['u'], copilotDenyUrls: ['u'], copilotAvailableTools: ['t'], copilotExcludedTools: ['t'], copilotAdditionalMcpConfig: { mcpServers: {} }, sessionId: uuid },
    { permissionPolicy: { mode: 'bypass' } },
  ],
  pi: [
    { piProvider: 'p', model: 'm', piModels: ['a'], reasoningEffort: 'high', allowedTools: ['read'], permissionPolicy: { deny: ['bash'] }, systemPrompt: 's', appendSystemPrompt: 'a', piNoSession: true, piSessionDir, piNoContextFiles: true, piNoExtensions: true, piNoSkills: true, piNoPromptTemplates: true, sessionId: uuid },
    { permissionPolicy: { mode: 'plan' }, piSessionDir },
  ],
  gemini: [
    { model: 'm', addDirs: ['/a'], allowedTools: ['read_file'], permissionPolicy: { mode: 'plan', deny: ['glob'] }, sessionId: uuid, systemPrompt: 's', strictMcpConfig: true, extraEnv: { HOME: geminiHome } },
    { permissionPolicy: { mode: 'bypass' }, extraEnv: { HOME: geminiHome } },
  ],
  opencode: [
    { model: 'p/m', reasoningEffort: 'high', allowedTools: ['read'], permissionPolicy: { deny: ['bash'] }, isolation: 'strict' },
    { permissionPolicy: { mode: 'bypass' } },
  ],
};

async function emittedFlags(cli: ProviderName, opts: SharedStartOpts, session: SessionTarget): Promise<string[]> {
  const adapter = builtInAdapters[cli];
  if (session.kind === 'fork' && !adapter.canFork) return [];
  const { args } = await adapter.buildInvocation({
    prompt: 'p',
    opts,
    session,
    cwd: '/w',
    // A real file, as the core writes it: gemini makes the run's home beside it.
    writeTempFile: async (name) => {
      const file = join(tempFiles, name);
      writeFileSync(file, '');
      return file;
    },
    coderStateDir: async () => '/tmp/state',
    outputJsonSchema: { type: 'object' },
    toolBridge: { name: 'coderline', url: 'http://127.0.0.1:1/mcp', headers: {}, secret: 's', toolNames: ['t'], servers: [{ name: 'ext', url: 'http://127.0.0.1:1/mcp/ext', toolNames: ['u'] }] },
  });
  return args.filter((arg) => arg.startsWith('-') && arg !== '-').map((arg) => (arg.startsWith('--') ? arg.split('=')[0]! : arg.slice(0, 2)));
}

describe('extraArgs guard', () => {
  it.each(Object.keys(maximal) as ProviderName[])('%s: ownedFlags names every flag the invocation builder emits', async (cli) => {
    const emitted = new Set<string>();
    for (const opts of maximal[cli]) for (const session of sessions) for (const flag of await emittedFlags(cli, { ...opts, outputSchema: { type: 'object' }, streamPartialMessages: cli === 'claude', maxTurns: cli === 'claude' ? 2 : undefined } as SharedStartOpts, session)) emitted.add(flag);
    // Gemini takes most options in its settings file, OpenCode's `run` its permissions and tools from
    // the environment: not flags.
    expect(emitted.size).toBeGreaterThan(cli === 'gemini' || cli === 'opencode' ? 6 : 8);
    expect([...emitted].filter((flag) => !builtInAdapters[cli].ownedFlags?.includes(flag))).toEqual([]);
  });

  it.each(Object.keys(maximal) as ProviderName[])('%s: an owned flag in extraArgs is InvalidOptionsError before the CLI is looked for', async (cli) => {
    const flag = cli === 'codex' ? '--json' : cli === 'opencode' ? '--session=abc' : '--resume=abc';
    const attempt = run(cli, 'hi', { executablePath: '/nonexistent/cli', extraArgs: ['--harmless', flag] });
    await expect(attempt).rejects.toBeInstanceOf(InvalidOptionsError);
    await expect(attempt).rejects.toMatchObject({ provider: cli, issues: [expect.stringContaining(flag.split('=')[0]!)] });
  });

  it('a flag the adapter does not own passes the guard (and then the missing CLI is what fails)', async () => {
    await expect(run('claude', 'hi', { executablePath: '/nonexistent/cli', extraArgs: ['--tools=Read'] })).rejects.toMatchObject({ code: 'binary_not_found' });
  });

  it('fallbackModel is Claude only: FeatureNotSupportedError elsewhere', async () => {
    for (const cli of ['codex', 'copilot', 'pi', 'opencode'] as const) {
      // @ts-expect-error: the compiler refuses it too; this checks what a JavaScript caller gets
      await expect(run(cli, 'hi', { executablePath: '/nonexistent/cli', fallbackModel: 'x' })).rejects.toBeInstanceOf(FeatureNotSupportedError);
    }
  });
});

describe('codexConfig values as TOML', () => {
  it('renders arrays and inline tables, quoting strings and keys that need it', () => {
    expect(tomlInline(['a', 1, true])).toBe('["a", 1, true]');
    expect(tomlInline({ plain_key: 'v', 'x-dash': 2, 'has space': { nested: [] }, empty: {} })).toBe('{ plain_key = "v", x-dash = 2, "has space" = { nested = [] }, empty = { } }');
    expect(tomlInline('quote " and \\ and\nnewline')).toBe('"quote \\" and \\\\ and\\nnewline"');
  });

  it('refuses values TOML cannot hold', async () => {
    for (const value of [Number.NaN, null, [undefined], new Date(0)]) {
      await expect(run('codex', 'hi', { executablePath: '/nonexistent/cli', codexConfig: { k: value as never } })).rejects.toMatchObject({ code: 'invalid_options' });
    }
  });
});
