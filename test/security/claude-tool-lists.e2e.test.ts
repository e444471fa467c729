// claude 2.1.332 reads each --allowed-tools / --disallowed-tools value as a "comma or space-separated
// list" (its --help), parentheses kept together (`Bash(git *)`): one entry "Read Bash" is two rules.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeAdapter } from '../../src/adapters/claude/index.js';
import { InvalidOptionsError, run } from '../../src/index.js';
import { startFakeModel } from '../../src/testing/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { withPinnedRuntime } from '../support/pinned-clis.js';

async function setup() {
  const fake = await startFakeModel({ api: 'anthropic', script: [{ toolCalls: [{ name: 'Bash', input: { command: 'touch marker.txt' } }] }, { text: 'Done.' }] });
  const cwd = await mkdtemp(join(tmpdir(), 'coderline-claude-lists-'));
  cleanupAfterTest(() => fake.close(), () => rm(cwd, { recursive: true, force: true }));
  return { fake, cwd, opts: withPinnedRuntime('claude', { ...(await fake.env('claude')), workingDirectory: cwd }) };
}

describe('claude (real binary): one allowedTools entry is one rule', () => {
  it('an entry with a space or comma outside parentheses is InvalidOptionsError, and Bash never runs', async () => {
    const { fake, cwd, opts } = await setup();
    // The attacker: an app lets a job allow tools named "Read…" (a prefix check); the job sends
    // "Read Bash" and the CLI allowed Bash: the marker was written (before the fix; without the entry, "touch … needs approval").
    const attempt = run(claudeAdapter, 'Write the marker.', { ...opts, allowedTools: ['Read Bash'] });
    await expect(attempt).rejects.toBeInstanceOf(InvalidOptionsError);
    expect(existsSync(join(cwd, 'marker.txt'))).toBe(false);
    expect(fake.requests).toHaveLength(0);
    for (const entry of ['Read,Bash', 'Read\tBash']) {
      await expect(run(claudeAdapter, 'x', { ...opts, permissionPolicy: { allow: [entry] } }), JSON.stringify(entry)).rejects.toBeInstanceOf(InvalidOptionsError);
    }
  });

  it('a rule with spaces inside its parentheses stays allowed', async () => {
    const { cwd, opts } = await setup();
    const result = await run(claudeAdapter, 'Write the marker.', { ...opts, allowedTools: ['Bash(touch marker.txt)'] });
    expect(result.status).toBe('success');
    expect(existsSync(join(cwd, 'marker.txt'))).toBe(true);
  });
});
