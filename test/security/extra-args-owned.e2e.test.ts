// extraArgs may not pass a flag the adapter sets itself (adapters.md). Measured on the pinned real
// binaries, two spellings went around that rule: pi 1.6.0's own short aliases (`-xt` is
// --exclude-tools, `-nt` --no-tools, `-ne` --no-extensions …; the guard read `-xt` as `-x`), and
// copilot 1.0.102's short-flag clusters (`-sC<dir>` is `-s -C <dir>`; the guard saw only `-s`).
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { copilotAdapter } from '../../src/adapters/copilot/index.js';
import { piAdapter } from '../../src/adapters/pi/index.js';
import { InvalidOptionsError, run } from '../../src/index.js';
import { startFakeModel } from '../../src/testing/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { withPinnedRuntime } from '../support/pinned-clis.js';

async function tempDir(label: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `coderline-owned-${label}-`));
  cleanupAfterTest(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

describe('pi (real binary): a short alias of an owned flag in extraArgs', () => {
  it('extraArgs ["-xt", …] cannot replace the deny list: InvalidOptionsError, and the denied bash never runs', async () => {
    const fake = await startFakeModel({
      api: 'openai-chat',
      script: [{ toolCalls: [{ name: 'bash', input: { command: 'echo ran > marker.txt' } }] }, { text: 'Done.' }],
    });
    cleanupAfterTest(() => fake.close());
    const cwd = await tempDir('pi');
    const opts = withPinnedRuntime('pi', { ...(await fake.env('pi')), workingDirectory: cwd });
    // The attacker: a job's extraArgs (or a form's "extra flags") adds `-xt read`. pi takes the last
    // --exclude-tools/-xt it reads, and the adapter's `--exclude-tools bash` comes first: bash ran
    // and wrote the marker although permissionPolicy.deny named it (before the fix).
    const attempt = run(piAdapter, 'Write the marker.', { ...opts, permissionPolicy: { deny: ['bash'] }, extraArgs: ['-xt', 'read'] });
    await expect(attempt).rejects.toBeInstanceOf(InvalidOptionsError);
    await expect(attempt).rejects.toMatchObject({ issues: expect.arrayContaining([expect.stringContaining('-xt')]) });
    expect(existsSync(join(cwd, 'marker.txt'))).toBe(false);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('copilot (real binary): a short-flag cluster that holds an owned flag', () => {
  it('copilot reads -sC<dir> as -s -C <dir>; extraArgs ["-sC<dir>"] is InvalidOptionsError before it starts', async () => {
    const home = await tempDir('copilot-home');
    const missing = join(home, 'no-such-dir');
    // What the parser does with the cluster: it changes directory (and fails here, the directory being absent).
    const parsed = await promisify(execFile)(resolve('node_modules/.bin/copilot'), [`-sC${missing}`, '--output-format', 'json'], {
      env: { PATH: process.env.PATH ?? '', HOME: home },
      timeout: 60_000,
    }).catch((error: { stdout?: string; stderr?: string }) => error);
    expect(`${parsed.stdout ?? ''}${parsed.stderr ?? ''}`).toContain(`cannot change working directory to '${missing}'`);

    // The attacker: extraArgs ["-sC/elsewhere"] moves the agent out of the workingDirectory the app chose
    // (or "-sr<id>" resumes a session the app never named). The guard saw only -s.
    const attempt = run(copilotAdapter, 'hi', { executablePath: '/nonexistent/copilot', extraArgs: [`-sC${missing}`] });
    await expect(attempt).rejects.toBeInstanceOf(InvalidOptionsError);
    await expect(attempt).rejects.toMatchObject({ issues: expect.arrayContaining([expect.stringContaining('-C')]) });
  });
});
