// The last lines of a CLI's stderr, for error messages. It keeps the last bytes, not line strings: a
// line string cut from a decoded chunk keeps that whole chunk alive, and under a stderr flood of
// millions of lines those survivors made V8 double its young generation (docs/performance.md, fix 13).
import { withoutControls } from '../../schema/terminal-text.js';

const WINDOW_BYTES = 32 * 1024;
const MAX_LINE_CHARS = 2_000;

export class StderrTail {
  private readonly ring = Buffer.alloc(WINDOW_BYTES);
  /** Where the next byte goes. */
  private position = 0;
  private seen = 0;

  constructor(private readonly maxLines: number) {}

  push(chunk: Buffer): void {
    const kept = chunk.subarray(Math.max(0, chunk.length - WINDOW_BYTES));
    const first = Math.min(kept.length, WINDOW_BYTES - this.position);
    kept.copy(this.ring, this.position, 0, first);
    kept.copy(this.ring, 0, first);
    this.position = (this.position + kept.length) % WINDOW_BYTES;
    this.seen += chunk.length;
  }

  /** The last `maxLines` lines, oldest first, without control characters; a line longer than 2,000 characters is cut. */
  toString(): string {
    const cut = this.seen > WINDOW_BYTES;
    const bytes = cut ? Buffer.concat([this.ring.subarray(this.position), this.ring.subarray(0, this.position)]) : this.ring.subarray(0, this.seen);
    const lines = bytes.toString('utf8').split('\n');
    if (lines.at(-1) === '') lines.pop();
    // The window began inside a line: drop that piece, unless it is all there is.
    if (cut) {
      if (lines.length > 1) lines.shift();
      else lines[0] = `…${lines[0] ?? ''}`;
    }
    return lines
      .slice(-this.maxLines)
      .map(withoutControls)
      .map((line) => (line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line))
      .join('\n');
  }
}
