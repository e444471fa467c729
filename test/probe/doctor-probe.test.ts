// `coderline doctor --probe` as a CI job runs it: the pinned CLIs on PATH (pi with Node 22 ahead of
// them), each probed against the fake model, offline. Their wire format is the one the adapters
// were written for, so no drift may be reported.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ProbeEntry } from '../../src/cli/doctor-probe.js';
import { pathWithNode22 } from '../../src/testing/pi-env.js';
import { coderline, repoRoot } from '../cli/command.js';

const pinnedPath = pathWithNode22(`${join(repoRoot, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`);
const env = { ...process.env, PATH: pinnedPath };

describe('coderline doctor --probe', () => {
  // Six CLIs' canaries one after another: minutes on a loaded machine.
  it('reports no drift for any of the six pinned CLIs, and exits 0', async () => {
    const result = await coderline(['doctor', '--probe', '--json'], { env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const entries = JSON.parse(result.stdout) as ProbeEntry[];
    expect(entries.map((entry) => [entry.cli, entry.state, entry.probed, entry.drift])).toEqual([
      ['claude', 'tested', true, false],
      ['codex', 'tested', true, false],
      ['copilot', 'tested', true, false],
      ['pi', 'tested', true, false],
      ['gemini', 'tested', true, false],
      ['opencode', 'tested', true, false],
    ]);
    for (const entry of entries) {
      expect(entry.canaries.map((canary) => [canary.canary, canary.status, canary.errorCode])).toEqual([
        ['text', 'success', null],
        ['tool', 'success', null],
        ['auth_error', 'error', 'auth'],
      ]);
    }
  }, 300_000);

  it('probes only the CLI given with --cli, and says so in text', async () => {
    const result = await coderline(['doctor', '--probe', '--cli', 'codex'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^codex +0\.171\.0 +tested \(supported .*\)\n +probe: no drift \(text, tool, auth_error as expected\)\n$/);
  });

  it('exits 5 when the CLI to probe is not installed', async () => {
    const result = await coderline(['doctor', '--probe', '--cli', 'claude'], { env: { ...process.env, PATH: '/nonexistent' } });
    expect(result.code).toBe(5);
    expect(result.stdout).toMatch(/^claude +- +not installed .*\n +probe: not run\n +claude: executable "claude" was not found/);
  });

  it('refuses --cli without --probe, and an unknown CLI', async () => {
    expect((await coderline(['doctor', '--cli', 'claude'], { env })).code).toBe(2);
    const unknown = await coderline(['doctor', '--probe', '--cli', 'nosuchcli'], { env });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown CLI "nosuchcli"');
  });
});
