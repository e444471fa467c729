// Prompt attachments: `images` (PNG, JPEG, GIF, WebP by extension) and `files` (a PDF by extension,
// any other file as UTF-8 text). Every path is checked before anything spawns or is written, so a
// missing file is an InvalidOptionsError naming it; the CLIs that take attachments inline read them here.
import { access, constants, readFile, stat } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { InvalidOptionsError } from '../../errors.js';
import type { ResolvedOpts } from '../../options.js';
import type { Attachments, InlineFile, InlineImage } from './attachment-types.js';

const imageTypes: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

export type { Attachments, InlineFile, InlineImage } from './attachment-types.js';

/** An image attachment's media type, by its extension (undefined for another kind of file). */
export const imageMediaTypeOf = (path: string): string | undefined => imageTypes[extname(path).toLowerCase()];

export const isPdf = (path: string): boolean => extname(path).toLowerCase() === '.pdf';

async function checkReadable(option: string, path: string, cwd: string, provider: string): Promise<void> {
  const absolute = resolve(cwd, path);
  try {
    await access(absolute, constants.R_OK);
    if (!(await stat(absolute)).isFile()) throw new Error('not a file');
  } catch (error) {
    throw new InvalidOptionsError([`${option}: cannot read "${path}": ${(error as Error).message}`], provider);
  }
}

function imageType(option: string, path: string, provider: string): string {
  const mediaType = imageMediaTypeOf(path);
  if (!mediaType) throw new InvalidOptionsError([`${option}: "${path}" is not a PNG, JPEG, GIF or WebP file (by its extension)`], provider);
  return mediaType;
}

/** Every attachment is a readable file of a known kind (relative paths from `cwd`); nothing is read yet. */
export async function checkAttachments(opts: Pick<ResolvedOpts, 'images' | 'files' | 'codexImages'>, cwd: string, provider: string): Promise<void> {
  const images = [...(opts.codexImages ?? []).map((path) => ['codexImages', path] as const), ...(opts.images ?? []).map((path) => ['images', path] as const)];
  for (const [option, path] of images) imageType(option, path, provider);
  const all = [...images, ...(opts.files ?? []).map((path) => ['files', path] as const)];
  await Promise.all(all.map(([option, path]) => checkReadable(option, path, cwd, provider)));
}

async function readOrFail(option: string, path: string, absolutePath: string, provider: string): Promise<Buffer> {
  try {
    return await readFile(absolutePath);
  } catch (error) {
    throw new InvalidOptionsError([`${option}: cannot read "${path}": ${(error as Error).message}`], provider);
  }
}

/** Reads each image as base64, for a CLI that takes images inline. */
export async function readImages(paths: readonly string[], cwd: string, provider: string): Promise<InlineImage[]> {
  return Promise.all(
    paths.map(async (path) => {
      const mediaType = imageType('images', path, provider);
      const absolutePath = resolve(cwd, path);
      return { path, absolutePath, mediaType, base64: (await readOrFail('images', path, absolutePath, provider)).toString('base64') };
    }),
  );
}

/** Reads each file: a PDF as base64, anything else as UTF-8 text (a file with NUL bytes is not text and is refused). */
export async function readFiles(paths: readonly string[], cwd: string, provider: string): Promise<InlineFile[]> {
  return Promise.all(
    paths.map(async (path): Promise<InlineFile> => {
      const absolutePath = resolve(cwd, path);
      const bytes = await readOrFail('files', path, absolutePath, provider);
      if (isPdf(path)) return { kind: 'pdf', path, absolutePath, mediaType: 'application/pdf', base64: bytes.toString('base64') };
      if (bytes.includes(0)) throw new InvalidOptionsError([`files: "${path}" is binary: files takes PDF (by extension) and text files`], provider);
      return { kind: 'text', path, absolutePath, mediaType: 'text/plain', text: bytes.toString('utf8') };
    }),
  );
}

/** Reads what a turn attaches. */
export async function readAttachments(opts: Pick<ResolvedOpts, 'images' | 'files'>, cwd: string, provider: string): Promise<Attachments> {
  const [images, files] = await Promise.all([readImages(opts.images ?? [], cwd, provider), readFiles(opts.files ?? [], cwd, provider)]);
  return { images, files };
}
