// No value a caller passes becomes a flag: every string option that lands on a CLI's argv, given a
// value that looks like a flag, stays bound to its own flag. The attacker supplies the value (a model
// name, an agent, a directory, a tool name from a job or a form) and hopes the CLI reads it as
// `--dangerously-bypass-approvals-and-sandbox`, `--allow-all`, `--no-tools` or `--last`.
// How each CLI parses (measured on the pinned binaries): claude 2.1.332, codex 0.171.0 and
// copilot 1.0.102 take `--flag=value` whatever the value starts with, and refuse a spaced value that
// starts with `-` ("a value is required"); pi 1.6.0 takes the argument after each of its value flags
// whatever it is, and has no `--flag=value` for them. Real-binary proofs: session-ids.e2e.test.ts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeAdapter } from '../../src/adapters/claude/index.js';
import { codexAdapter } from '../../src/adapters/codex/index.js';
import { copilotAdapter } from '../../src/adapters/copilot/index.js';
import { piArgs } from '../../src/adapters/pi/argv.js';
import { piAdapter } from '../../src/adapters/pi/index.js';
import type { AdapterSpec, SessionTarget } from '../../src/core/contract/adapter.js';
import { checkSupport } from '../../src/core/run/validate.js';
import { InvalidOptionsError } from '../../src/errors.js';
import type { ResolvedOpts } from '../../src/options.js';

const FLAG = '--dangerously-bypass-approvals-and-sandbox';

async function argsOf(adapter: AdapterSpec, opts: ResolvedOpts, session: SessionTarget = { kind: 'new' }): Promise<string[]> {
  const invocation = await adapter.buildInvocation({
    prompt: 'p',
    opts,
    session,
    cwd: '/work',
    writeTempFile: async (name) => `/tmp/run/${name}`,
    coderStateDir: async () => '/tmp/state',
    outputJsonSchema: undefined,
    cliVersion: undefined,
  });
  return invocation.args;
}

/** Each option with a value that looks like a flag (a distinct one per option, to tell them apart). */
function hostile<K extends keyof ResolvedOpts>(keys: readonly K[], make: (value: string) => ResolvedOpts[K] = (value) => value as ResolvedOpts[K]): ResolvedOpts {
  return Object.fromEntries(keys.map((key) => [key, make(`${FLAG}-${String(key)}`)])) as ResolvedOpts;
}

/** The hostile values that stand alone on argv, where a parser would read them as flags. */
const standalone = (args: readonly string[]) => args.filter((arg) => arg.startsWith(FLAG));

describe('argv values that look like flags stay values', () => {
  it('claude: every caller value goes as --flag=value', async () => {
    const opts: ResolvedOpts = {
      ...hostile(['model', 'fallbackModel', 'systemPrompt', 'appendSystemPrompt']),
      ...hostile(['addDirs', 'allowedTools'], (value) => [value]),
      permissionPolicy: { allow: [`${FLAG}-allow`], deny: [`${FLAG}-deny`] },
      agents: { [`${FLAG}-agent`]: { description: 'd', prompt: 'p', model: `${FLAG}-agent-model` } },
    };
    const args = await argsOf(claudeAdapter, opts);
    expect(standalone(args)).toEqual([]);
    expect(args).toEqual(expect.arrayContaining([`--model=${FLAG}-model`, `--fallback-model=${FLAG}-fallbackModel`, `--add-dir=${FLAG}-addDirs`, `--disallowed-tools=${FLAG}-deny`, `--system-prompt=${FLAG}-systemPrompt`]));
    expect(args.filter((arg) => arg.startsWith('--agents='))).toHaveLength(1);
    expect(await argsOf(claudeAdapter, {}, { kind: 'resume', sessionId: FLAG })).toContain(`--resume=${FLAG}`);
  });

  it('codex: --model= and --add-dir= (a spaced value that starts with - was refused: exit 2), the id after --', async () => {
    const opts: ResolvedOpts = { ...hostile(['model', 'appendSystemPrompt']), ...hostile(['addDirs', 'images', 'codexImages'], (value) => [value]) };
    const args = await argsOf(codexAdapter, opts);
    expect(standalone(args)).toEqual([]);
    expect(args).toEqual(expect.arrayContaining([`--model=${FLAG}-model`, `--add-dir=${FLAG}-addDirs`, `--image=${FLAG}-images`, `--image=${FLAG}-codexImages`]));
    // Instructions are a TOML string inside one -c value.
    expect(args).toContain(`developer_instructions="${FLAG}-appendSystemPrompt"`);
    // The attacker's step, were the core's check gone: resume("--last"). After `--` clap takes it as a thread name.
    expect((await argsOf(codexAdapter, {}, { kind: 'resume', sessionId: '--last' })).slice(-4)).toEqual(['resume', '--', '--last', '-']);
    expect((await argsOf(codexAdapter, {}, { kind: 'fork', sessionId: FLAG })).slice(-4)).toEqual(['fork', '--', FLAG, '-']);
  });

  it('copilot: --model=, --add-dir=, --agent= and the list flags as --flag=value; images as absolute paths', async () => {
    const opts: ResolvedOpts = {
      ...hostile(['model', 'copilotAgent']),
      ...hostile(['addDirs', 'allowedTools', 'copilotAllowUrls', 'copilotDenyUrls', 'copilotAvailableTools', 'copilotExcludedTools'], (value) => [value]),
      permissionPolicy: { deny: [`${FLAG}-deny`] },
      images: [`${FLAG}.png`],
      copilotAdditionalMcpConfig: `@${FLAG}`,
    };
    const args = await argsOf(copilotAdapter, opts);
    expect(standalone(args)).toEqual([]);
    expect(args).toEqual(expect.arrayContaining([`--model=${FLAG}-model`, `--agent=${FLAG}-copilotAgent`, `--add-dir=${FLAG}-addDirs`, `--deny-tool=${FLAG}-deny`, `--excluded-tools=${FLAG}-copilotExcludedTools`]));
    expect(args).toContain(`/work/${FLAG}.png`);
    expect(await argsOf(copilotAdapter, {}, { kind: 'resume', sessionId: FLAG })).toContain(`--resume=${FLAG}`);
  });

  it('pi: each value right after its own value flag, which pi always takes as that flag\'s value', async () => {
    const valueFlags = new Set(['--provider', '--model', '--models', '--tools', '--exclude-tools', '--system-prompt', '--append-system-prompt', '--session-dir', '--session', '--session-id', '--fork']);
    const opts: ResolvedOpts = {
      ...hostile(['piProvider', 'model', 'systemPrompt', 'appendSystemPrompt', 'piSessionDir']),
      ...hostile(['piModels', 'allowedTools', 'images'], (value) => [value]),
      permissionPolicy: { deny: [`${FLAG}-deny`] },
    };
    for (const session of [{ kind: 'new' }, { kind: 'resume', sessionId: FLAG }, { kind: 'fork', sessionId: FLAG }] as const) {
      // A resume's invocation looks the id up in the store first (below): the flags alone here.
      const args = session.kind === 'new' ? await argsOf(piAdapter, opts, session) : piArgs(opts, session);
      const loose = args.flatMap((arg, index) => (arg.startsWith(FLAG) && !valueFlags.has(args[index - 1]!) ? [arg] : []));
      expect(loose).toEqual([]);
      expect(args).toContain(`@${FLAG}-images`);
    }
  });

  it('pi: a session id ending in .jsonl (which pi opens as a file path) is refused before the run', () => {
    // The attacker: resume("notes.jsonl") makes pi write its session into <cwd>/notes.jsonl.
    for (const session of [{ kind: 'resume', sessionId: 'notes.jsonl' }, { kind: 'fork', sessionId: 'x.jsonl' }] as const) {
      expect(() => checkSupport(piAdapter, {}, session)).toThrow(InvalidOptionsError);
      expect(() => checkSupport(piAdapter, {}, session)).toThrow(/ends in \.jsonl, which pi opens as a file path/);
    }
    expect(() => checkSupport(piAdapter, {}, { kind: 'resume', sessionId: 'jsonl' })).not.toThrow();
  });
});

describe('pi: an id is not a prefix', () => {
  it('resume/fork of an id the store does not hold exactly fails before pi starts (pi would take it as a prefix)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'coderline-pi-sessions-'));
    try {
      const id = '01a23d18-1bf3-7253-8a1d-9876c2e74d0d';
      writeFileSync(join(dir, `2026-12-03T18-00-00-000Z_${id}.jsonl`), '');
      // The attacker: resume("0"), which pi 1.6.0 ran as the newest session whose id starts with "0".
      for (const session of [{ kind: 'resume', sessionId: '0' }, { kind: 'fork', sessionId: id.slice(0, 8) }] as const) {
        await expect(argsOf(piAdapter, { piSessionDir: dir }, session)).rejects.toMatchObject({ code: 'session_not_found', message: expect.stringContaining(`pi found no session "${session.sessionId}"`) });
      }
      expect(await argsOf(piAdapter, { piSessionDir: dir }, { kind: 'resume', sessionId: id })).toEqual(expect.arrayContaining(['--session', id]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('config keys that look like flags', () => {
  it('codex: a codexConfig key that starts with - is refused (it would open the -c value)', () => {
    // The attacker names a config key "--dangerously-bypass-approvals-and-sandbox" (a job's codexConfig).
    expect(() => checkSupport(codexAdapter, { codexConfig: { '--dangerously-bypass-approvals-and-sandbox': true } }, { kind: 'new' })).toThrow(/codexConfig key "--dangerously-bypass-approvals-and-sandbox": a config key cannot start with "-"/);
    expect(() => checkSupport(codexAdapter, { codexConfig: { 'model_providers.x.base_url': 'http://127.0.0.1:1' } }, { kind: 'new' })).not.toThrow();
  });
});
