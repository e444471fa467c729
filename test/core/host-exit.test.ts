// What a host leaves behind when it ends without closing its coder, with the fake CLI: nothing — not
// when it is SIGKILLed mid-run (the watchdog stops the CLI and a grandchild in a session of its own,
// and removes the temp dirs), not when it simply finishes (the coder's state dir goes at exit). And
// the watchdog alone, below a group whose escaped tree keeps forking while it is being stopped.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { describe, expect, it } from 'vitest';
import { sendToGroup } from '../../src/core/process/process-group.js';
import { createCoder } from '../../src/index.js';
import { cleanupAfterTest } from '../support/cleanup.js';
import { fakeAdapter, script } from '../support/fake-adapter.js';
import { isGroupAlive, isProcessAlive, killMarked, pidsWithMarker, processTable, uniqueMarker } from '../support/processes.js';
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

describe('a host that dies with a fronted MCP server running', () => {
  it('SIGKILLed: the stdio server it started (one that outlives its stdin) is stopped by the watchdog', async () => {
    const marker = uniqueMarker('mcp-host');
    const fixture = join(import.meta.dirname, '..', 'fixtures', 'mcp-server.mjs');
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '..', 'support', 'host-with-mcp-server.ts'), fixture, marker], { stdio: ['ignore', 'pipe', 'inherit'] });
    cleanupAfterTest(() => child.kill('SIGKILL'), () => killMarked(marker));
    await once(createInterface({ input: child.stdout! }), 'line');
    const servers = () => pidsWithMarker(marker).filter((pid) => pid !== child.pid);
    expect(servers()).toHaveLength(1);
    child.kill('SIGKILL');
    await waitFor(() => servers().length === 0);
  });
});

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

/** The watchdog the host forked (its child running the watchdog's script). */
const forkedWatchdog = (hostPid: number) => processTable().find((row) => row.ppid === hostPid && row.args.includes('CODERLINE_WATCHDOG'));

describe('the watchdog, when the host is SIGKILLed while a tree that left the group keeps forking', () => {
  const forkingHost = join(import.meta.dirname, '..', 'support', 'host-with-forker.ts');

  /** A `ps` that shows no process as stopped (as if one never stopped): the watchdog must not wait for it forever. */
  function psThatNeverShowsStopped(work: string): string {
    const bin = join(work, 'bin');
    mkdirSync(bin);
    const realPs = execFileSync('sh', ['-c', 'command -v ps'], { encoding: 'utf8' }).trim();
    writeFileSync(join(bin, 'ps'), `#!/bin/sh\n'${realPs}' "$@" | awk '{ sub(/^T/, "S", $4); print }'\n`);
    chmodSync(join(bin, 'ps'), 0o755);
    return bin;
  }

  it.each([
    ['the table read from /proc', 'proc', false],
    ['the table read through ps, as on macOS', 'ps', false],
    ['a ps that never shows a process stopped', 'ps', true],
  ] as const)('%s: none of the tree is left, the watched dir is gone, and so is the watchdog', async (_name, table, neverStopped) => {
    const marker = uniqueMarker('watchdog-forker');
    cleanupAfterTest(() => killMarked(marker));
    const work = mkdtempSync(join(tmpdir(), 'coderline-test-watchdog-'));
    cleanupAfterTest(() => rmSync(work, { recursive: true, force: true }));
    const watched = join(work, 'watched');
    mkdirSync(watched);
    const PATH = neverStopped ? `${psThatNeverShowsStopped(work)}:${process.env.PATH}` : process.env.PATH;
    const child = spawn(process.execPath, ['--import', 'tsx', forkingHost, table, marker, watched], { env: { ...process.env, PATH }, stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
    cleanupAfterTest(() => child.kill('SIGKILL'));
    const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
    const { leader } = JSON.parse(line) as { leader: number };
    cleanupAfterTest(() => void sendToGroup(leader, 'SIGKILL'));
    await waitFor(() => pidsWithMarker(marker).length >= 20, 30_000);
    const watchdog = forkedWatchdog(child.pid!);
    expect(watchdog).toBeDefined();

    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    await waitFor(() => !isProcessAlive(watchdog!.pid), 30_000);
    // SIGKILLed processes leave the table a moment after the signal; ones the watchdog missed never do.
    await waitFor(() => pidsWithMarker(marker).length === 0, 10_000).catch(() => {});
    expect(pidsWithMarker(marker)).toEqual([]);
    expect(isGroupAlive(leader)).toBe(false);
    expect(existsSync(watched)).toBe(false);
  });
});

describe('the watchdog, when only a temp dir is live (made before any CLI spawn, or with none to come)', () => {
  it('still starts, and removes the dir when the host is SIGKILLed', async () => {
    const work = mkdtempSync(join(tmpdir(), 'coderline-test-watchdog-dir-'));
    cleanupAfterTest(() => rmSync(work, { recursive: true, force: true }));
    const watched = join(work, 'watched');
    mkdirSync(watched);
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, '..', 'support', 'host-with-dir.ts'), watched], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve(signal ?? code)));
    cleanupAfterTest(() => child.kill('SIGKILL'));
    await once(createInterface({ input: child.stdout! }), 'line');
    // No spawn comes to start it, so the watchdog starts on its own a moment later.
    await waitFor(() => forkedWatchdog(child.pid!) !== undefined, 30_000);
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    await waitFor(() => !existsSync(watched), 30_000);
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
