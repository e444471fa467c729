// extraArgs may not pass a flag the adapter sets itself. Spellings that went around the guard:
// a short-flag cluster (`-sC<dir>`: commander and clap read each letter as a flag), pi's own short
// aliases (`-xt` for --exclude-tools), claude's --permission-prompt-tool (emitted with canUseTool, not
// in the list), and codex's subcommands as bare words (`resume <thread>`). Real-binary proofs for pi
// and copilot: extra-args-owned.e2e.test.ts.
import { describe, expect, it } from 'vitest';
import { claudeAdapter } from '../../src/adapters/claude/index.js';
import { codexAdapter } from '../../src/adapters/codex/index.js';
import { copilotAdapter } from '../../src/adapters/copilot/index.js';
import { piAdapter } from '../../src/adapters/pi/index.js';
import type { AdapterSpec } from '../../src/core/contract/adapter.js';
import { checkSupport } from '../../src/core/run/validate.js';
import { InvalidOptionsError } from '../../src/errors.js';

const refusal = (adapter: AdapterSpec, extraArgs: string[]) => {
  try {
    checkSupport(adapter, { extraArgs }, { kind: 'new' });
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidOptionsError);
    return (error as InvalidOptionsError).issues.join('\n');
  }
};

describe('extraArgs: every spelling of an owned flag is refused', () => {
  it('claude: --permission-prompt-tool, which the adapter sets for canUseTool, cannot be replaced', async () => {
    // The attacker: extraArgs ["--permission-prompt-tool=mcp__repo__yes"]. commander keeps the last
    // value, and extraArgs come after the adapter's flag: the CLI would ask a tool of the attacker's
    // choosing (an MCP server of the repository's .mcp.json) instead of the run's canUseTool.
    const args = (
      await claudeAdapter.buildInvocation({
        prompt: 'p',
        opts: { canUseTool: () => ({ behavior: 'allow' }) },
        session: { kind: 'new' },
        cwd: '/w',
        writeTempFile: async (name) => `/tmp/x/${name}`,
        coderStateDir: async () => '/tmp/state',
        outputJsonSchema: undefined,
        toolBridge: { name: 'coderline', url: 'http://127.0.0.1:1/mcp', headers: {}, secret: 's', toolNames: [], permissionToolName: 'permission', servers: [] },
      })
    ).args;
    expect(args).toContain('--permission-prompt-tool=mcp__coderline__permission');
    expect(claudeAdapter.ownedFlags).toContain('--permission-prompt-tool');
    expect(refusal(claudeAdapter, ['--permission-prompt-tool=mcp__repo__yes'])).toContain('--permission-prompt-tool');
  });

  it('a cluster of short flags that holds an owned one (copilot -sC, -sr; claude -vc)', () => {
    // The attacker: `-s` is no owned flag, so the guard let `-sC/elsewhere` and `-sr<id>` through.
    expect(refusal(copilotAdapter, ['-sC/elsewhere'])).toContain('-C');
    expect(refusal(copilotAdapter, ['-sr0b7d5a3e-0c1f-4d7e-9a57-7d1a4f3c2b10'])).toContain('-r');
    expect(refusal(claudeAdapter, ['-vc'])).toContain('-c');
    // A cluster without an owned letter passes (and spaced values after non-owned flags).
    expect(refusal(copilotAdapter, ['-s'])).toBeUndefined();
    expect(refusal(codexAdapter, ['--output-last-message', '/tmp/out.txt'])).toBeUndefined();
  });

  it("pi: its own short aliases of owned flags (-xt, -nt, -ne, -ns, -np, -nc)", () => {
    // The attacker: `-xt read` replaces the adapter's `--exclude-tools bash` (pi keeps the last one).
    for (const alias of ['-xt', '-nt', '-ne', '-ns', '-np', '-nc']) expect(refusal(piAdapter, [alias, 'read']), alias).toContain(alias);
    // pi's flags it does not set stay allowed.
    expect(refusal(piAdapter, ['--offline', '--verbose'])).toBeUndefined();
  });

  it('the spellings of the permission mode the adapter owns: claude --dangerously-skip-permissions, copilot --yolo / --allow-all-tools', () => {
    // The attacker: extraArgs ["--dangerously-skip-permissions"] on a run with canUseTool or
    // permissionPolicy: the CLI would never ask, and the gate would see nothing (claude's --help:
    // "Bypass all permission checks"; copilot's --yolo is --allow-all, which the adapter owns).
    for (const flag of ['--dangerously-skip-permissions', '--allow-dangerously-skip-permissions']) expect(refusal(claudeAdapter, [flag]), flag).toContain(flag);
    for (const flag of ['--yolo', '--allow-all-tools']) expect(refusal(copilotAdapter, [flag]), flag).toContain(flag);
  });

  it('codex: a subcommand as a bare word (resume <thread>, fork, review)', () => {
    // The attacker: extraArgs ["resume", "<thread>"] makes `exec … resume <thread> -` of a new run:
    // a thread the app never named is resumed, around the core's session checks.
    for (const word of ['resume', 'fork', 'review']) expect(refusal(codexAdapter, [word, 'thread-1']), word).toContain(word);
    expect(refusal(codexAdapter, ['--color', 'never'])).toBeUndefined();
  });
});
