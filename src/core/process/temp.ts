// Private temp files: a 0700 directory created on first use, files 0600, removed with everything in
// it when its owner is done (the run ends, the coder is closed) — else when the host exits (a
// synchronous exit hook, signals included) or vanishes (the watchdog): the same for a run's temp
// files and a coder's state dir.
import { rmSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onExit } from 'signal-exit';
import { unwatchDir, watchDir } from './watchdog.js';

const liveDirs = new Set<string>();
let exitHookInstalled = false;

function removeLiveDirs(): void {
  for (const dir of liveDirs) rmSync(dir, { recursive: true, force: true });
}

function track(dir: string): string {
  if (!exitHookInstalled) {
    // signal-exit runs it synchronously before the host dies, and re-raises a signal afterwards.
    onExit(removeLiveDirs);
    exitHookInstalled = true;
  }
  liveDirs.add(dir);
  watchDir(dir);
  return dir;
}

export class TempDir {
  private created: Promise<string> | undefined;

  constructor(private readonly prefix: string) {}

  path(): Promise<string> {
    // mkdtemp makes the directory 0700.
    this.created ??= mkdtemp(join(tmpdir(), this.prefix)).then(track);
    return this.created;
  }

  async writeFile(name: string, content: string): Promise<string> {
    if (name.includes('/') || name.includes('\\') || name === '..') throw new Error(`temp file name must be plain: ${name}`);
    const file = join(await this.path(), name);
    await writeFile(file, content, { mode: 0o600, flag: 'wx' });
    return file;
  }

  /** Removes the directory; safe to call when it was never created, and more than once. */
  async remove(): Promise<void> {
    const created = this.created;
    this.created = undefined;
    const dir = await created?.catch(() => undefined);
    if (dir === undefined) return;
    await rm(dir, { recursive: true, force: true });
    liveDirs.delete(dir);
    unwatchDir(dir);
  }
}
