// The version check as a process's first run meets it: a binary probed before (by any process) is
// not probed again, a changed one is, and a binary never seen is probed before it starts (its version
// decides which argv and features the run may use).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CliVersionError, run } from '../../src/index.js';
import { done, FAKE_CLI, fakeAdapter, script } from '../support/fake-adapter.js';

const fake = fakeAdapter();
const host = join(import.meta.dirname, '..', 'support', 'host-run-once.ts');

/** A node launcher of the fake CLI that answers --version with `version` and counts its probes. */
function writeLauncher(path: string, version: string, probes: string): void {
  writeFileSync(path, `#!/usr/bin/env node
import { appendFileSync } from 'node:fs';
if (process.argv.includes('--version')) {
  appendFileSync(${JSON.stringify(probes)}, 'probe\\n');
  process.stdout.write('fake-cli ${version}\\n');
  process.exit(0);
}
await import(${JSON.stringify(pathToFileURL(FAKE_CLI).href)});
`, { mode: 0o755 });
}

const probeCount = (probes: string) => (existsSync(probes) ? readFileSync(probes, 'utf8').split('\n').filter(Boolean).length : 0);

/** One run in a fresh process (sharing this file's CODERLINE_CACHE_DIR through the environment). */
function runInFreshProcess(cli: string): { status?: string; cliVersion?: string; thrown?: string } {
  const stdout = execFileSync(process.execPath, ['--import', 'tsx', host, cli], { encoding: 'utf8' });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as { status?: string; cliVersion?: string; thrown?: string };
}

describe('the version cache', () => {
  it('a binary probed in one process is not probed again in the next; an older one swapped in at the same path is', () => {
    const dir = mkdtempSync(join(tmpdir(), 'coderline-test-'));
    const cli = join(dir, 'cli');
    const probes = join(dir, 'probes');
    writeLauncher(cli, '1.2.0', probes);
    expect(runInFreshProcess(cli)).toEqual({ status: 'success', cliVersion: '1.2.0' });
    expect(probeCount(probes)).toBe(1);
    expect(runInFreshProcess(cli)).toEqual({ status: 'success', cliVersion: '1.2.0' });
    expect(probeCount(probes)).toBe(1);
    // Rewritten in place, same size: only its times tell.
    writeLauncher(cli, '0.9.0', probes);
    expect(runInFreshProcess(cli)).toEqual({ thrown: 'version_unsupported' });
    expect(probeCount(probes)).toBe(2);
  });

  // A version manager's shim picks the binary each time it runs: what it answered once says nothing
  // of the next process's binary.
  it('a shell launcher is probed by every process', () => {
    const dir = mkdtempSync(join(tmpdir(), 'coderline-test-'));
    const node = join(dir, 'cli.mjs');
    const cli = join(dir, 'cli');
    const probes = join(dir, 'probes');
    writeLauncher(node, '1.2.0', probes);
    writeFileSync(cli, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(node)} "$@"\n`, { mode: 0o755 });
    expect(runInFreshProcess(cli)).toEqual({ status: 'success', cliVersion: '1.2.0' });
    expect(runInFreshProcess(cli)).toEqual({ status: 'success', cliVersion: '1.2.0' });
    expect(probeCount(probes)).toBe(2);
  });

  it('within one process a binary replaced at the same path is probed again and refused', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'coderline-test-'));
    const cli = join(dir, 'cli');
    const probes = join(dir, 'probes');
    writeLauncher(cli, '1.2.0', probes);
    expect(await run(fake, 'x', { ...script([done()]), executablePath: cli })).toMatchObject({ status: 'success', cliVersion: '1.2.0' });
    await new Promise((resolve) => setTimeout(resolve, 50)); // a later modification time than the first file's
    writeLauncher(cli, '0.9.0', probes);
    await expect(run(fake, 'x', { ...script([done()]), executablePath: cli })).rejects.toBeInstanceOf(CliVersionError);
    expect(probeCount(probes)).toBe(2);
  });
});

describe('a binary never probed', () => {
  it('too old: refused before it starts, and nothing of it reaches the caller', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'coderline-test-'));
    const cli = join(dir, 'cli');
    const marker = join(dir, 'started');
    writeLauncher(cli, '0.9.0', join(dir, 'probes'));
    const seen: string[] = [];
    const attempt = run(fake, 'x', {
      ...script([{ out: { type: 'init', sessionId: 's-old' } }, { out: { type: 'message', text: 'from an old CLI' } }, { hang: 1 }], { FAKE_CLI_MARKER: marker }),
      executablePath: cli,
      onRawLine: (line) => seen.push(line),
      onEvent: (event) => seen.push(event.type),
    });
    await expect(attempt).rejects.toBeInstanceOf(CliVersionError);
    expect(existsSync(marker)).toBe(false);
    expect(seen).toEqual([]);
  });
});
