import { describe, expect, it } from 'vitest';
import { StderrTail } from '../../src/core/stream/stderr-tail.js';

function tailOf(chunks: Array<string | Buffer>, maxLines = 40): string {
  const tail = new StderrTail(maxLines);
  for (const chunk of chunks) tail.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return tail.toString();
}

describe('StderrTail', () => {
  it('keeps the last lines in order, whatever the chunks', () => {
    const text = Array.from({ length: 100 }, (_, i) => `line ${i}\r\n`).join('');
    const bytes = Buffer.from(text);
    const chunks = Array.from({ length: Math.ceil(bytes.length / 7) }, (_, i) => bytes.subarray(i * 7, i * 7 + 7));
    expect(tailOf(chunks).split('\n')).toEqual(Array.from({ length: 40 }, (_, i) => `line ${i + 60}`));
  });

  it('keeps a last line that has no newline, and is empty for no output', () => {
    expect(tailOf(['first\n', 'last wor', 'ds'])).toBe('first\nlast words');
    expect(tailOf([])).toBe('');
  });

  it('drops the line the window begins inside, after a flood larger than the window', () => {
    const flood = `${'x'.repeat(100_000)}\n`;
    expect(tailOf([flood, 'Error: the real cause\n'])).toBe('Error: the real cause');
    // The same in one chunk, and with the flood cut into many small ones.
    expect(tailOf([`${flood}Error: the real cause\n`])).toBe('Error: the real cause');
    expect(tailOf([...flood.match(/[^]{1,999}/g)!, 'Error: the real cause\n'])).toBe('Error: the real cause');
  });

  it('shows a line longer than the window by its start, marked as cut at both ends', () => {
    const tail = tailOf([`${'ab'.repeat(40_000)}`]);
    expect(tail).toMatch(/^…[ab]{1999}…$/);
  });

  it('decodes a multi-byte character cut between chunks', () => {
    const bytes = Buffer.from('héllo 🌍\n', 'utf8');
    expect(tailOf([...bytes].map((byte) => Buffer.from([byte])))).toBe('héllo 🌍');
  });

  it('keeps no terminal escape or control character: an error message must not drive its reader\'s terminal', () => {
    // OpenCode colours its errors off a terminal; a command the agent ran can print anything, e.g. an OSC 52
    // clipboard write or a cursor move that hides the line before it.
    const written = '\x1b[91m\x1b[1mError: \x1b[0mSession not found\r\n\x1b]52;c;ZWNobyBwd25lZA==\x07tail\x1b[2K\x1b[1Aend\u0007\tok\n';
    expect(tailOf([written])).toBe('Error: Session not found\ntailend\tok');
  });
});
