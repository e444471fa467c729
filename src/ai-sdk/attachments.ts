// File parts of the prompt as the files coderline attaches (`images`, `files`): written to a private
// temp dir (0600) for the run, removed after it. Which CLI takes which kind is coderline's capability
// data: a CLI without `images` or `files` fails the call with FeatureNotSupportedError before it starts.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LanguageModelV4FilePart } from '@ai-sdk/provider';
import { FeatureNotSupportedError } from '../index.js';

const imageExtensions: Readonly<Record<string, string>> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };

/** The image type of bytes given as just `image` (the top-level media type): by their signature. */
function sniffImage(bytes: Uint8Array): string | undefined {
  const starts = (...signature: number[]) => signature.every((byte, index) => bytes[index] === byte);
  if (starts(0x89, 0x50, 0x4e, 0x47)) return 'png';
  if (starts(0xff, 0xd8, 0xff)) return 'jpg';
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'gif';
  if (starts(0x52, 0x49, 0x46, 0x46) && String.fromCharCode(...bytes.subarray(8, 12)) === 'WEBP') return 'webp';
  return undefined;
}

export interface Attachments {
  images: string[];
  files: string[];
  remove(): Promise<void>;
}

const none: Attachments = { images: [], files: [], remove: async () => undefined };

function bytesOf(provider: string, part: LanguageModelV4FilePart): Uint8Array {
  // The model declares no supported URLs, so the AI SDK downloads a URL and hands over its bytes.
  if (part.data.type !== 'data') throw new FeatureNotSupportedError(provider, `file parts of type ${part.data.type}`, 'Give the file as bytes or base64 data.');
  const { data } = part.data;
  return typeof data === 'string' ? Buffer.from(data, 'base64') : data;
}

/** Where a part goes: `images` with its extension, or `files` (PDF, text), else refused. */
function placeOf(provider: string, part: LanguageModelV4FilePart, bytes: Uint8Array): { kind: 'images' | 'files'; extension: string } {
  const type = part.mediaType.toLowerCase();
  const image = imageExtensions[type] ?? (type === 'image' || type === 'image/*' ? sniffImage(bytes) : undefined);
  if (image) return { kind: 'images', extension: image };
  if (type === 'application/pdf') return { kind: 'files', extension: 'pdf' };
  if (type === 'text' || type.startsWith('text/')) return { kind: 'files', extension: 'txt' };
  throw new FeatureNotSupportedError(provider, `file parts of type ${part.mediaType}`, 'coderline attaches PNG, JPEG, GIF and WebP images, PDFs and text files.');
}

export async function writeAttachments(provider: string, parts: readonly LanguageModelV4FilePart[]): Promise<Attachments> {
  if (!parts.length) return none;
  const placed = parts.map((part) => {
    const bytes = bytesOf(provider, part);
    return { bytes, ...placeOf(provider, part, bytes) };
  });
  const dir = await mkdtemp(join(tmpdir(), 'coderline-ai-sdk-'));
  const attachments: Attachments = { images: [], files: [], remove: () => rm(dir, { recursive: true, force: true }) };
  try {
    for (const [index, { bytes, kind, extension }] of placed.entries()) {
      const path = join(dir, `attachment-${index + 1}.${extension}`);
      await writeFile(path, bytes, { mode: 0o600 });
      attachments[kind].push(path);
    }
  } catch (error) {
    await attachments.remove();
    throw error;
  }
  return attachments;
}
