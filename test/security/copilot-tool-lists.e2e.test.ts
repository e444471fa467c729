// copilot 1.0.102 splits each --allow-tool / --deny-tool value at commas: one entry "write,shell" is
// two rules. Measured: with allowedTools ["write,shell"] its shell ran `touch marker.txt`, which
// without it was "Permission denied because no interactive user response was available".
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copilotAdapter } from '../../src/adapters/copilot/index.js';
import { InvalidOptionsError, run } from '../../src/index.js';
import { fakeApiOf, startFakeModel } from '../../src/testing/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { withPinnedRuntime } from '../support/pinned-clis.js';

describe('copilot (real binary): one allowedTools entry is one rule', () => {
  it('an entry with a comma outside parentheses is InvalidOptionsError, and the shell never runs', async () => {
    const fake = await startFakeModel({ api: fakeApiOf.copilot, script: [{ toolCalls: [{ name: 'bash', input: { command: 'touch marker.txt', description: 'x' } }] }, { text: 'Done.' }] });
    const cwd = await mkdtemp(join(tmpdir(), 'coderline-copilot-lists-'));
    cleanupAfterTest(() => fake.close(), () => rm(cwd, { recursive: true, force: true }));
    const opts = withPinnedRuntime('copilot', { ...(await fake.env('copilot')), workingDirectory: cwd });
    // The attacker: an app lets a job allow "write…" tools (a prefix check); the job sends "write,shell".
    await expect(run(copilotAdapter, 'Write the marker.', { ...opts, allowedTools: ['write,shell'] })).rejects.toBeInstanceOf(InvalidOptionsError);
    await expect(run(copilotAdapter, 'x', { ...opts, permissionPolicy: { deny: ['shell,write'] } })).rejects.toBeInstanceOf(InvalidOptionsError);
    await expect(run(copilotAdapter, 'x', { ...opts, copilotAllowUrls: ['docs.example.com,attacker.example'] })).rejects.toBeInstanceOf(InvalidOptionsError);
    expect(existsSync(join(cwd, 'marker.txt'))).toBe(false);
    expect(fake.requests).toHaveLength(0);
    // Rules without a separator outside parentheses pass.
    const result = await run(copilotAdapter, 'Write the marker.', { ...opts, allowedTools: ['shell(touch:*)', 'write'] });
    expect(result.status).toBe('success');
  });
});
