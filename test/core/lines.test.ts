import { describe, expect, it } from 'vitest';
import { LineSplitter } from '../../src/core/stream/lines.js';

function split(chunks: Buffer[], maxBytes = 1024) {
  const lines: string[] = [];
  const oversized: number[] = [];
  const splitter = new LineSplitter(maxBytes, { line: (l) => lines.push(l), oversized: (b) => oversized.push(b) });
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return { lines, oversized };
}

describe('LineSplitter', () => {
  it('splits on \\n and \\r\\n and keeps a last line without newline', () => {
    expect(split([Buffer.from('a\r\nb\nc')]).lines).toEqual(['a', 'b', 'c']);
  });

  it('strips a \\r whose \\n comes in the next chunk', () => {
    expect(split([Buffer.from('{"a":1}\r'), Buffer.from('\n{"b":2}\r\nc'), Buffer.from('d\r\n')]).lines).toEqual(['{"a":1}', '{"b":2}', 'cd']);
  });

  it('joins a line written across many chunks', () => {
    expect(split([Buffer.from('{"a"'), Buffer.from(':1'), Buffer.from('}\n{"b":2}\n')]).lines).toEqual(['{"a":1}', '{"b":2}']);
  });

  it('decodes a multi-byte character cut between chunks', () => {
    const bytes = Buffer.from('héllo 🌍\n', 'utf8');
    const chunks = [...bytes].map((byte) => Buffer.from([byte]));
    expect(split(chunks).lines).toEqual(['héllo 🌍']);
  });

  it('reports an oversized line once and resynchronises at the next newline', () => {
    const big = Buffer.alloc(5000, 0x78);
    const result = split([Buffer.from('ok1\n'), big.subarray(0, 2000), big.subarray(2000), Buffer.from('\nok2\n')], 1024);
    expect(result.lines).toEqual(['ok1', 'ok2']);
    expect(result.oversized).toEqual([5000]);
  });

  it('reports an oversized last line without a newline', () => {
    const result = split([Buffer.alloc(3000, 0x78)], 1024);
    expect(result.lines).toEqual([]);
    expect(result.oversized).toEqual([3000]);
  });

  it('keeps a line of exactly the cap', () => {
    expect(split([Buffer.alloc(1024, 0x61), Buffer.from('\n')], 1024).lines[0]).toHaveLength(1024);
  });

  it('splits many lines of one chunk, blank ones included, with \\r\\n and multi-byte text', () => {
    expect(split([Buffer.from('{"a":"é"}\r\n\n{"b":"🌍"}\n\r\nlast')]).lines).toEqual(['{"a":"é"}', '', '{"b":"🌍"}', '', 'last']);
  });

  it('keeps every line when lines that each fit arrive together beyond the cap', () => {
    const line = 'x'.repeat(600);
    const result = split([Buffer.from(`${line}\r\n${line}\n${'y'.repeat(1500)}\n${line}\n`)], 1024);
    expect(result.lines).toEqual([line, line, line]);
    expect(result.oversized).toEqual([1500]);
  });

  it('counts the cap in bytes, not characters', () => {
    const result = split([Buffer.from(`${'é'.repeat(600)}\nok\n`)], 1024);
    expect(result.lines).toEqual(['ok']);
    expect(result.oversized).toEqual([1200]);
  });
});

describe('LineSplitter with a consumer that pulls', () => {
  it('hands out a batch per resume(), keeps chunks that come meanwhile, and loses nothing', () => {
    const queue: string[] = [];
    const taken: string[] = [];
    const splitter = new LineSplitter(1024 * 1024, { line: (l) => queue.push(l), oversized: () => {}, full: () => queue.length > 0 });
    const text = Array.from({ length: 3000 }, (_, i) => `line ${i} ${'é🌍'.repeat(i % 7)}`).join('\n');
    const bytes = Buffer.from(`${text}\npartial`);
    // The second chunk comes while the first is kept back (cut inside a character, too).
    splitter.push(bytes.subarray(0, 40_001));
    splitter.push(bytes.subarray(40_001));
    let resumes = 0;
    while (queue.length > 0 || splitter.holding) {
      taken.push(...queue.splice(0));
      splitter.resume();
      resumes += 1;
    }
    splitter.end();
    taken.push(...queue.splice(0));
    expect(taken).toEqual([...text.split('\n'), 'partial']);
    expect(resumes).toBeGreaterThan(3);
  });

  it('stops between batches, never inside one, and end() hands out what was kept back', () => {
    const lines: string[] = [];
    const queue: string[] = [];
    const splitter = new LineSplitter(1024 * 1024, { line: (l) => (lines.push(l), queue.push(l)), oversized: () => {}, full: () => queue.length > 0 });
    const text = Array.from({ length: 10_000 }, (_, i) => `${i}`.padStart(20, '0')).join('\n');
    splitter.push(Buffer.from(`${text}\n`));
    // The first batch is the first line alone: a reader waiting for the first event gets it at once.
    expect(queue).toEqual([text.slice(0, 20)]);
    expect(splitter.holding).toBe(true);
    // The next is about 16 KiB of lines; the rest waits.
    queue.length = 0;
    splitter.resume();
    expect(queue.length).toBeGreaterThan(700);
    expect(queue.length).toBeLessThan(900);
    expect(splitter.holding).toBe(true);
    splitter.end();
    expect(splitter.holding).toBe(false);
    expect(lines).toEqual(text.split('\n'));
  });

  it('gives a stream of short lines larger batches when asked, never one of long lines', () => {
    const batchesOf = (lineBytes: number) => {
      const queue: string[] = [];
      const sizes: number[] = [];
      const splitter = new LineSplitter(1024 * 1024, { line: (l) => queue.push(l), oversized: () => {}, full: () => queue.length > 0 }, { shortLineBatchBytes: 64 * 1024 });
      splitter.push(Buffer.from(`${'x'.repeat(lineBytes - 1)}\n`.repeat(Math.ceil((256 * 1024) / lineBytes))));
      while (queue.length > 0) {
        sizes.push(queue.length * lineBytes);
        queue.length = 0;
        splitter.resume();
      }
      return sizes;
    };
    const short = batchesOf(100);
    // The first batch is the first line alone; the average of the lines so far picks the next ones.
    expect(short[0]).toBeLessThan(17 * 1024);
    expect(short[1]).toBeGreaterThan(63 * 1024);
    expect(Math.max(...batchesOf(2000))).toBeLessThan(18 * 1024);
  });
});
