// Private temp files: a 0700 directory created on first use, files 0600, removed with everything in it.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dir } from 'tmp-promise';

export class TempDir {
  private created: Promise<{ path: string; cleanup(): Promise<void> }> | undefined;

  constructor(private readonly prefix: string) {}

  path(): Promise<string> {
    this.created ??= dir({ prefix: this.prefix, mode: 0o700, unsafeCleanup: true });
    return this.created.then((created) => created.path);
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
    if (created) await (await created).cleanup();
  }
}
