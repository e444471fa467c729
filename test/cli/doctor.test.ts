// `coderline doctor`: installed CLIs and versions, and the auth variables by name only.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DoctorEntry } from '../../src/cli/doctor.js';
import { compareVersions } from '../../src/core/versions/version.js';
import { builtInAdapters } from '../../src/registry.js';
import { coderline, repoRoot } from './command.js';

const bin = join(repoRoot, 'node_modules', '.bin');
const secret = 'sk-ant-very-secret-value-1234';

/** The test's environment without any credential a developer may have set. */
function envWithoutCredentials(path: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: path };
  for (const adapter of Object.values(builtInAdapters)) for (const name of adapter.auth?.variables ?? []) delete env[name];
  return env;
}

describe('coderline doctor', () => {
  it('reports each installed CLI with its version and the auth variable it would use, never the value', async () => {
    const env = { ...envWithoutCredentials(`${bin}:${process.env.PATH ?? ''}`), ANTHROPIC_API_KEY: secret, CODEX_API_KEY: secret, OPENAI_API_KEY: secret, GEMINI_API_KEY: secret };
    const text = await coderline(['doctor'], { env });
    expect(text.code).toBe(0);
    expect(text.stdout).not.toContain(secret);
    const claude = builtInAdapters.claude.versions;
    expect(text.stdout).toMatch(new RegExp(`^claude +2\\.1\\.332 +tested \\(supported ${claude.min.replaceAll('.', '\\.')} – 2\\.1\\.332 \\(tested\\)\\)\n +auth: ANTHROPIC_API_KEY$`, 'm'));
    expect(text.stdout).toMatch(/^codex +0\.171\.0 +tested .*\n +auth: CODEX_API_KEY \(also set: OPENAI_API_KEY\)$/m);
    expect(text.stdout).toMatch(/^gemini +0\.61\.0 +tested .*\n +auth: GEMINI_API_KEY$/m);

    const json = await coderline(['doctor', '--json'], { env });
    expect(json.stdout).not.toContain(secret);
    const entries = JSON.parse(json.stdout) as DoctorEntry[];
    expect(entries.map((entry) => entry.cli)).toEqual(['claude', 'codex', 'copilot', 'pi', 'gemini', 'opencode']);
    expect(entries.find((entry) => entry.cli === 'copilot')).toMatchObject({ installed: true, version: '1.0.102', state: 'tested' });
    expect(entries.find((entry) => entry.cli === 'claude')?.authVariables).toEqual(['ANTHROPIC_API_KEY']);
  });

  // The pinned pi 1.x dies while loading on Node 20, before it can print a version: the reason is the Node.
  it('names the Node pi 1.x needs when that is why its version cannot be read', async () => {
    const floorNode = join(repoRoot, 'test', 'runtime', 'node-floor', 'node_modules', 'node', 'bin');
    const result = await coderline(['doctor'], { env: envWithoutCredentials(`${floorNode}:${bin}:${process.env.PATH ?? ''}`) });
    expect(result.stdout).toMatch(/^pi +- +version unknown .*\n(.*\n)* +pi: could not read the version from "pi --version" \(pi 1\.x needs Node >= 22\.19: put a Node 22 first on PATH/m);
  });

  it('says when no CLI is installed (exit 5) and where each would look for a login', async () => {
    const result = await coderline(['doctor'], { env: envWithoutCredentials('/nonexistent') });
    expect(result.code).toBe(5);
    expect(result.stdout).toMatch(/^claude +- +not installed .*\n +auth: no variable set; would use the `claude` login in CLAUDE_CONFIG_DIR or ~\/\.claude\n +claude: executable "claude" was not found\. Install it with/m);
  });

  it('a CLI that prints its credential when asked its version: the report still names the variable only', async () => {
    // The careless CLI: `--version` echoes the key it found, on stdout and stderr, and fails. What
    // doctor shows about it (the state, the detail) must not carry the value.
    const dir = mkdtempSync(join(tmpdir(), 'coderline-doctor-'));
    writeFileSync(join(dir, 'claude'), '#!/bin/sh\necho "using key $ANTHROPIC_API_KEY"\necho "key $ANTHROPIC_API_KEY rejected" >&2\nexit 1\n', { mode: 0o755 });
    const env = { ...envWithoutCredentials(`${dir}:/usr/bin:/bin`), ANTHROPIC_API_KEY: secret };
    for (const args of [['doctor'], ['doctor', '--json']]) {
      const result = await coderline(args, { env });
      expect(result.stdout).toContain('ANTHROPIC_API_KEY');
      expect(result.stdout + result.stderr).not.toContain(secret);
    }
  });

  it('says where the installed version stands: in range but untested, newer than tested, or too old with the upgrade command', async () => {
    const { min, testedMax, tested = [] } = builtInAdapters.codex.versions;
    // A version between min and testedMax that the sweep did not run: the patch release after min.
    const [major, minor, patch] = min.split('.').map(Number) as [number, number, number];
    const untested = `${major}.${minor}.${patch + 1}`;
    expect(tested).not.toContain(untested);
    expect(compareVersions(untested, testedMax)).toBeLessThan(0);
    const stateOf = async (version: string) => {
      // Doctor reads only `codex --version`: a stand-in that prints a chosen version stands for an installed codex.
      const dir = mkdtempSync(join(tmpdir(), 'coderline-doctor-'));
      writeFileSync(join(dir, 'codex'), `#!/bin/sh\necho "codex-cli ${version}"\n`, { mode: 0o755 });
      const result = await coderline(['doctor'], { env: envWithoutCredentials(`${dir}:/usr/bin:/bin`) });
      return result.stdout.split('\n').filter((line) => /^codex /.test(line) || (line.startsWith(' ') && /codex/.test(line))).join('\n');
    };
    expect(await stateOf(untested)).toMatch(new RegExp(`^codex +${untested.replaceAll('.', '\\.')} +in range, untested \\(supported`));
    expect(await stateOf('999.0.0')).toMatch(/^codex +999\.0\.0 +newer than tested .*\n(.*\n)*.*codex 999\.0\.0 is newer than the newest tested version/);
    const old = await stateOf('0.1.0');
    expect(old).toMatch(/^codex +0\.1\.0 +too old \(supported/);
    expect(old).toContain(`Run: npm install -g @openai/codex@${testedMax}`);
  });
});
