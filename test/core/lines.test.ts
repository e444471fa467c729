import { describe, expect, it } from 'vitest';
import { LineSplitter } from '../../src/core/lines.js';

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
