// Splits a byte stream into lines. Newlines are found in the bytes, so a UTF-8 character cut across
// two chunks is decoded whole (0x0A never occurs inside a multi-byte sequence). A line longer than
// `maxBytes` is reported and skipped up to the next newline: memory never grows with one line.
//
// The complete lines of a chunk are decoded with one call and cut from that string: a Buffer and a
// decode per line was measured as a third of the splitting cost on short lines (docs/performance.md).

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export interface LineHandlers {
  line(text: string): void;
  /** A line was dropped because it exceeded the cap; `bytes` is its full length. */
  oversized(bytes: number): void;
}

export class LineSplitter {
  /** The start of a line whose newline has not come yet. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Bytes of an oversized line seen so far; -1 while not discarding. */
  private discarded = -1;

  constructor(
    private readonly maxBytes: number,
    private readonly handlers: LineHandlers,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    if (this.discarded >= 0) {
      const end = chunk.indexOf(NEWLINE);
      if (end === -1) {
        this.discarded += chunk.length;
        return;
      }
      this.handlers.oversized(this.discarded + end);
      this.discarded = -1;
      start = end + 1;
    }
    const last = chunk.lastIndexOf(NEWLINE);
    if (last < start) {
      this.keep(chunk.subarray(start));
      return;
    }
    if (this.pendingBytes > 0) {
      // Only the line that was cut is joined: the rest of the chunk is read where it lies.
      const end = chunk.indexOf(NEWLINE, start);
      this.finishPending(chunk.subarray(start, end));
      start = end + 1;
    }
    if (start <= last) {
      const lines = chunk.subarray(start, last);
      if (lines.length <= this.maxBytes) this.emitDecoded(lines.toString('utf8'));
      else this.emitMeasured(lines);
    }
    if (last + 1 < chunk.length) this.keep(chunk.subarray(last + 1));
  }

  /** The stream ended: a last line without a newline is still a line. */
  end(): void {
    if (this.discarded >= 0) {
      this.handlers.oversized(this.discarded);
      this.discarded = -1;
    } else if (this.pendingBytes > 0) {
      this.finishPending(Buffer.alloc(0));
    }
  }

  /** The line begun in earlier chunks ends with `tail`. */
  private finishPending(tail: Buffer): void {
    const total = this.pendingBytes + tail.length;
    const bytes = total > this.maxBytes ? undefined : Buffer.concat([...this.pending, tail], total);
    this.pending = [];
    this.pendingBytes = 0;
    if (!bytes) this.handlers.oversized(total);
    else this.handlers.line(bytes.toString('utf8', 0, bytes[total - 1] === CARRIAGE_RETURN ? total - 1 : total));
  }

  private keep(piece: Buffer): void {
    if (this.pendingBytes + piece.length > this.maxBytes) {
      this.discarded = this.pendingBytes + piece.length;
      this.pending = [];
      this.pendingBytes = 0;
    } else {
      this.pending.push(piece);
      this.pendingBytes += piece.length;
    }
  }

  /** Lines that together fit the cap, so none of them can exceed it. */
  private emitDecoded(text: string): void {
    let start = 0;
    for (;;) {
      const end = text.indexOf('\n', start);
      const line = end === -1 ? text.slice(start) : text.slice(start, end);
      this.handlers.line(line.charCodeAt(line.length - 1) === CARRIAGE_RETURN ? line.slice(0, -1) : line);
      if (end === -1) return;
      start = end + 1;
    }
  }

  /** Lines that together exceed the cap: each is measured in bytes before it is decoded. */
  private emitMeasured(bytes: Buffer): void {
    let start = 0;
    for (;;) {
      const found = bytes.indexOf(NEWLINE, start);
      const end = found === -1 ? bytes.length : found;
      if (end - start > this.maxBytes) {
        this.handlers.oversized(end - start);
      } else {
        const length = end > start && bytes[end - 1] === CARRIAGE_RETURN ? end - 1 : end;
        this.handlers.line(bytes.toString('utf8', start, length));
      }
      if (found === -1) return;
      start = found + 1;
    }
  }
}
