// What a turn attaches, once read (attachments.ts reads it). Apart from the reading, which needs the
// file system, so the adapter contract can name it and still be imported where no file system is.
export interface InlineImage {
  /** The path as the caller gave it, and resolved against the working directory. */
  path: string;
  absolutePath: string;
  mediaType: string;
  base64: string;
}

export type InlineFile =
  | { kind: 'pdf'; path: string; absolutePath: string; mediaType: 'application/pdf'; base64: string }
  | { kind: 'text'; path: string; absolutePath: string; mediaType: 'text/plain'; text: string };

/** What one turn attaches, read. */
export interface Attachments {
  images: InlineImage[];
  files: InlineFile[];
}
