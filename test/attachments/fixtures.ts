// Attachment files the tests write into a run's working directory.

/** A valid 1×1 PNG: CLIs that sniff the content or re-encode still take it for an image. */
export const pngBase64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** A minimal PDF (one empty page tree): its bytes are what a CLI that takes PDFs sends on. */
export const pdfText = '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n';

/** A text file's content: a word the model can only know from the attachment. */
export const notesText = 'The secret word is marmalade.\n';
