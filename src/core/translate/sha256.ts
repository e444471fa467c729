// SHA-256 of a string's UTF-8 bytes, in hex. Pi names a bridged tool with 8 of its digits, and a pure
// translator needs them synchronously (adapters/pi/translate.ts). node:crypto has it, but importing
// node:crypto with the package cost every cold import ~5 ms and ~190 KB of young heap, enough to
// push a scavenge into a process's first run (docs/performance.md); the names are short and rare.

/** The first 32 bits of the fractional parts of the roots (square for the start, cube for the rounds) of the first primes. */
function fractionBits(count: number, root: (n: number) => number): Uint32Array {
  const primes: number[] = [];
  for (let n = 2; primes.length < count; n += 1) {
    if (primes.every((p) => n % p !== 0)) primes.push(n);
  }
  return Uint32Array.from(primes, (p) => {
    const r = root(p);
    return Math.floor((r - Math.floor(r)) * 2 ** 32);
  });
}

let constants: { start: Uint32Array; rounds: Uint32Array } | undefined;
const rotate = (x: number, n: number) => (x >>> n) | (x << (32 - n));

export function sha256Hex(text: string): string {
  constants ??= { start: fractionBits(8, Math.sqrt), rounds: fractionBits(64, Math.cbrt) };
  const { start, rounds } = constants;
  const bytes = new TextEncoder().encode(text);
  // The message, a 1 bit, zeros, and its length in bits (big-endian, 64 bits): whole 64-byte blocks.
  const padded = new Uint8Array(Math.ceil((bytes.length + 9) / 64) * 64);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor((bytes.length * 8) / 2 ** 32));
  view.setUint32(padded.length - 4, (bytes.length * 8) >>> 0);

  const hash = Uint32Array.from(start);
  const w = new Uint32Array(64);
  for (let block = 0; block < padded.length; block += 64) {
    for (let i = 0; i < 16; i += 1) w[i] = view.getUint32(block + i * 4);
    for (let i = 16; i < 64; i += 1) {
      const a = w[i - 15]!;
      const b = w[i - 2]!;
      w[i] = w[i - 16]! + (rotate(a, 7) ^ rotate(a, 18) ^ (a >>> 3)) + w[i - 7]! + (rotate(b, 17) ^ rotate(b, 19) ^ (b >>> 10));
    }
    let [a, b, c, d, e, f, g, h] = hash as unknown as [number, number, number, number, number, number, number, number];
    for (let i = 0; i < 64; i += 1) {
      const t1 = (h + (rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)) + ((e & f) ^ (~e & g)) + rounds[i]! + w[i]!) >>> 0;
      const t2 = ((rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    [a, b, c, d, e, f, g, h].forEach((value, i) => (hash[i] = hash[i]! + value));
  }
  return Array.from(hash, (word) => word.toString(16).padStart(8, '0')).join('');
}
