// The SDK's own SHA-256 (pi's bridged tool names) against node:crypto's.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/core/translate/sha256.js';

describe('sha256Hex', () => {
  // Lengths around the padding's edges (55/56/64 bytes), several blocks, and multi-byte UTF-8.
  it.each(['', 'abc', 'coderline\0lookup_ticket', 'a'.repeat(55), 'a'.repeat(56), 'a'.repeat(64), 'x'.repeat(1000), 'héllo wörld ✓ 𝄞'])('hashes %j as node:crypto does', (text) => {
    expect(sha256Hex(text)).toBe(createHash('sha256').update(text).digest('hex'));
  });
});
