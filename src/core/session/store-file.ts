// Opening a file another program wrote (a CLI's session store, a report it leaves at exit). The agent
// that CLI runs can write there too, so the path may hold a FIFO (whose open or read waits for a writer
// that never comes), a symlink to a file the caller never meant to read, or more text than a string holds.
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { CoderError } from '../../errors.js';

/** The largest file read whole (256 MiB): a session store past it is refused, not read into memory. */
export const MAX_STORE_FILE_BYTES = 256 * 1024 * 1024;

/** Opens `file` for reading only if it is a regular file and not a symlink; never waits for a writer. */
export async function openStoreFile(file: string): Promise<FileHandle> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW).catch((error: unknown) => {
    // O_NOFOLLOW refuses a symlink with ELOOP.
    throw (error as NodeJS.ErrnoException).code === 'ELOOP' ? new CoderError('protocol', `${file} is a symlink: not read`) : error;
  });
  try {
    if (!(await handle.stat()).isFile()) throw new CoderError('protocol', `${file} is not a regular file: not read`);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The text of a regular file of at most `maxBytes`, else a typed error naming it. */
export async function readStoreText(file: string, maxBytes = MAX_STORE_FILE_BYTES): Promise<string> {
  const handle = await openStoreFile(file);
  try {
    const { size } = await handle.stat();
    if (size > maxBytes) throw new CoderError('protocol', `${file} holds ${size} bytes, more than the ${maxBytes} read whole: not read`);
    return await handle.readFile('utf8');
  } finally {
    await handle.close();
  }
}
