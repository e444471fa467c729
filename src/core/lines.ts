// Splits a byte stream into lines. Splitting happens on bytes, so a UTF-8 character cut across two
// chunks is decoded whole (0x0A never occurs inside a multi-byte sequence). A line longer than
// `maxBytes` is reported and skipped up to the next newline: memory never grows with one line.

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export interface LineHandlers {
  line(text: string): void;
  /** A line was dropped because it exceeded the cap; `bytes` is its full length. */
  oversized(bytes: number): void;
}

export class LineSplitter {
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
    while (start < chunk.length) {
      const end = chunk.indexOf(NEWLINE, start);
      if (end === -1) {
        this.keep(chunk.subarray(start));
        return;
      }
      this.finish(chunk.subarray(start, end));
      start = end + 1;
    }
  }

  /** The stream ended: a last line without a newline is still a line. */
  end(): void {
    if (this.discarded >= 0 || this.pendingBytes > 0) this.finish(Buffer.alloc(0));
  }

  private keep(piece: Buffer): void {
    if (this.discarded >= 0) {
      this.discarded += piece.length;
    } else if (this.pendingBytes + piece.length > this.maxBytes) {
      this.discarded = this.pendingBytes + piece.length;
      this.pending = [];
      this.pendingBytes = 0;
    } else {
      this.pending.push(piece);
      this.pendingBytes += piece.length;
    }
  }

  private finish(tail: Buffer): void {
    if (this.discarded >= 0) {
      const bytes = this.discarded + tail.length;
      this.discarded = -1;
      this.handlers.oversized(bytes);
      return;
    }
    const total = this.pendingBytes + tail.length;
    if (total > this.maxBytes) {
      this.pending = [];
      this.pendingBytes = 0;
      this.handlers.oversized(total);
      return;
    }
    const bytes = this.pending.length === 0 ? tail : Buffer.concat([...this.pending, tail], total);
    this.pending = [];
    this.pendingBytes = 0;
    const length = bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN ? bytes.length - 1 : bytes.length;
    this.handlers.line(bytes.toString('utf8', 0, length));
  }
}
