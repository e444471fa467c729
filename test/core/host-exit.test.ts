// What a host leaves behind when it ends without closing its coder, with the fake CLI: nothing — not
// when it is SIGKILLed mid-run (the watchdog stops the CLI and a grandchild in a session of its own,
// and removes the temp dirs), not when it simply finishes (the coder's state dir goes at exit).
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { createCoder } from '../../src/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { fakeAdapter, script } from '../support/fake-adapter.js';
import { isProcessAlive } from '../support/processes.js';
import { waitFor } from '../support/wait.js';

const host = join(import.meta.dirname, '..', 'support', 'host-with-state.ts');
const coderlineEntries = (dir: string) => readdirSync(dir).filter((name) => name.startsWith('coderline-'));

/** The host with a TMPDIR of its own, so only what it made is looked at. */
function startHost(mode: 'hang' | 'finish') {
  const work = mkdtempSync(join(tmpdir(), 'coderline-test-host-'));
  cleanupAfterTest(() => rmSync(work, { recursive: true, force: true }));
  const temp = join(work, 'tmp');
  mkdirSync(temp);
  const child = spawn(process.execPath, ['--import', 'tsx', host, mode], { env: { ...process.env, TMPDIR: temp }, stdio: ['ignore', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
  cleanupAfterTest(() => child.kill('SIGKILL'));
  return { child, temp, exited, firstLine: new Promise<string>((resolve) => lines.once('line', resolve)) };
}

describe('a host that never closes its coder', () => {
  it('SIGKILLed mid-run: the CLI, a grandchild in a session of its own, and every temp entry are gone', async () => {
    const { child, temp, exited, firstLine } = startHost('hang');
    const { grandchild } = JSON.parse(await firstLine) as { grandchild: number };
    expect(isProcessAlive(grandchild)).toBe(true);
    expect(coderlineEntries(temp)).toHaveLength(2); // the coder's state dir and the run's temp dir
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    await waitFor(() => !isProcessAlive(grandchild) && coderlineEntries(temp).length === 0);
  });

  it('finishing on its own: the coder\'s state dir is removed at exit', async () => {
    const { temp, exited, firstLine } = startHost('finish');
    expect(JSON.parse(await firstLine)).toEqual({ status: 'success' });
    expect(await exited).toBe(0);
    expect(coderlineEntries(temp)).toEqual([]);
  });
});

describe('Symbol.asyncDispose', () => {
  it('`await using` a coder closes it: its state dir is gone when the block ends', async () => {
    const dirs: string[] = [];
    const adapter = fakeAdapter({
      buildInvocation: async (ctx) => {
        dirs.push(await ctx.coderStateDir());
        return { args: [], stdin: ctx.prompt };
      },
    });
    {
      await using coder = createCoder(adapter, script([{ out: { type: 'done', text: 'ok' } }]));
      expect((await coder.start().run('x')).status).toBe('success');
      expect(readdirSync(dirs[0]!)).toEqual([]);
    }
    expect(() => readdirSync(dirs[0]!)).toThrow(/ENOENT/);
  });
});
