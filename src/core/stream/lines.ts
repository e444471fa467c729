// Splits a byte stream into lines. Newlines are found in the bytes, so a UTF-8 character cut across
// two chunks is decoded whole (0x0A never occurs inside a multi-byte sequence). A line longer than
// `maxBytes` is reported and skipped up to the next newline: memory never grows with one line.
//
// The complete lines of a chunk are decoded with one call and cut from that string: a Buffer and a
// decode per line was measured as a third of the splitting cost on short lines (docs/performance.md).
// For a consumer that pulls (`full`), they are decoded in batches, and the rest of the chunk waits as
// bytes until the consumer has taken the batch (fix 15): a batch waiting in a queue keeps its events
// alive, so batches are small — but each costs time, so a stream of short lines, whose events are
// small, may be given larger ones (`shortLineBatchBytes`). The first batch is one line.

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export interface LineHandlers {
  line(text: string): void;
  /** A line was dropped because it exceeded the cap; `bytes` is its full length. */
  oversized(bytes: number): void;
  /** Asked before each batch of lines: true keeps the rest back, as bytes, until `resume()`. */
  full?(): boolean;
}

/** With `full`, lines are handed out about this many bytes at a time. */
const BATCH_BYTES = 16 * 1024;
/** Lines shorter than this on average make a stream of short lines. */
const SHORT_LINE_BYTES = 1024;

export interface LineSplitterOptions {
  /** The batch size while the lines so far average under 1 KiB (default: the same 16 KiB). */
  shortLineBatchBytes?: number;
}

export class LineSplitter {
  /** The start of a line whose newline has not come yet. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Bytes of an oversized line seen so far; -1 while not discarding. */
  private discarded = -1;
  /** Bytes kept back while `full()` said so: the rest of a chunk, from the start of a line, and the chunks after it. */
  private held: Buffer[] = [];
  private heldBytes = 0;
  private ending = false;
  /** Bytes and lines handed out in batches so far: their average picks the batch size. */
  private batchedBytes = 0;
  private batchedLines = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly handlers: LineHandlers,
    private readonly options: LineSplitterOptions = {},
  ) {}

  /** True while lines are kept back: call `resume()` when the consumer has room. */
  get holding(): boolean {
    return this.held.length > 0;
  }

  /** How many bytes are kept back. */
  get holdingBytes(): number {
    return this.heldBytes;
  }

  push(chunk: Buffer): void {
    if (this.held.length > 0) {
      this.hold(chunk);
      return;
    }
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
    while (start <= last) {
      if (!this.ending && this.handlers.full?.()) {
        this.hold(chunk.subarray(start));
        return;
      }
      // A batch ends at the first newline after batchBytes, or with the chunk's last complete line.
      const batchBytes = this.batchBytes();
      const end = last - start < batchBytes ? last : chunk.indexOf(NEWLINE, start + batchBytes - 1);
      const lines = chunk.subarray(start, end);
      this.batchedBytes += lines.length;
      if (lines.length <= this.maxBytes) this.batchedLines += this.emitDecoded(lines.toString('utf8'));
      else this.emitMeasured(lines);
      start = end + 1;
    }
    if (last + 1 < chunk.length) this.keep(chunk.subarray(last + 1));
  }

  private batchBytes(): number {
    if (!this.handlers.full) return Infinity;
    // The first batch is the first line: a waiting consumer gets the run's first event without
    // waiting for the rest of the chunk to be translated.
    if (this.batchedLines === 0) return 1;
    const short = this.options.shortLineBatchBytes;
    return short !== undefined && this.batchedBytes < SHORT_LINE_BYTES * this.batchedLines ? short : BATCH_BYTES;
  }

  /** Goes on with the lines kept back, as far as `full()` lets it. */
  resume(): void {
    const held = this.held;
    this.held = [];
    this.heldBytes = 0;
    for (const chunk of held) this.push(chunk);
  }

  private hold(bytes: Buffer): void {
    this.held.push(bytes);
    this.heldBytes += bytes.length;
  }

  /** The stream ended: lines kept back are all handed out, and a last line without a newline is still a line. */
  end(): void {
    this.ending = true;
    this.resume();
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

  /** Lines that together fit the cap, so none of them can exceed it; returns how many there were. */
  private emitDecoded(text: string): number {
    let start = 0;
    for (let count = 1; ; count += 1) {
      const end = text.indexOf('\n', start);
      const line = end === -1 ? text.slice(start) : text.slice(start, end);
      this.handlers.line(line.charCodeAt(line.length - 1) === CARRIAGE_RETURN ? line.slice(0, -1) : line);
      if (end === -1) return count;
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
