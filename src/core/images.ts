// Image attachments (`images`): the media types the CLIs accept, known by the file's extension, and
// reading a file for a CLI that takes images inline (as base64) rather than by path.
import { readFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { InvalidOptionsError } from '../errors.js';

const mediaTypes: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

export interface InlineImage {
  mediaType: string;
  base64: string;
}

/** Reads each image (relative paths from `cwd`); an unknown extension or a missing file fails before anything runs. */
export async function readImages(paths: readonly string[], cwd: string, provider: string): Promise<InlineImage[]> {
  return Promise.all(
    paths.map(async (path) => {
      const mediaType = mediaTypes[extname(path).toLowerCase()];
      if (!mediaType) throw new InvalidOptionsError([`images: "${path}" is not a PNG, JPEG, GIF or WebP file (by its extension)`], provider);
      try {
        return { mediaType, base64: (await readFile(resolve(cwd, path))).toString('base64') };
      } catch (error) {
        throw new InvalidOptionsError([`images: cannot read "${path}": ${(error as Error).message}`], provider);
      }
    }),
  );
}
