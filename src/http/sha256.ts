/**
 * SHA-256 (FIPS 180-4, section 6.2), synchronous and runtime-neutral: the journal page's
 * Content-Security-Policy names its style and script by their hashes (a CSP Level 3 hash-source)
 * when the module loads, in Node and in the browser alike, where node:crypto is missing and Web
 * Crypto's digest is asynchronous. Only for the page's two constant texts: not a hot path.
 */

/** The first 32 bits of the fractional parts of the cube roots of the first 64 primes (section 4.2.2). */
const K = new Uint32Array(64);
/** The first 32 bits of the fractional parts of the square roots of the first 8 primes (section 5.3.3). */
const H0 = new Uint32Array(8);
{
  const primes: number[] = [];
  for (let n = 2; primes.length < 64; n++) if (primes.every((p) => n % p !== 0)) primes.push(n);
  const fraction = (x: number): number => ((x - Math.floor(x)) * 2 ** 32) >>> 0;
  primes.forEach((p, i) => {
    K[i] = fraction(Math.cbrt(p));
    if (i < 8) H0[i] = fraction(Math.sqrt(p));
  });
}

const rotr = (x: number, n: number): number => (x >>> n) | (x << (32 - n));

/** The digest of `text`'s UTF-8 bytes. */
export function sha256(text: string): Uint8Array {
  const data = new TextEncoder().encode(text);
  // Padding (section 5.1.1): a 1 bit, zeros, the length in bits as 64 bits; whole 64-byte blocks.
  const length = Math.ceil((data.length + 9) / 64) * 64;
  const padded = new Uint8Array(length);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(length - 8, Math.floor((data.length * 8) / 2 ** 32));
  view.setUint32(length - 4, (data.length * 8) >>> 0);
  const h = H0.slice();
  const w = new Uint32Array(64);
  for (let block = 0; block < length; block += 64) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(block + t * 4);
    for (let t = 16; t < 64; t++) {
      const w15 = w[t - 15] as number;
      const w2 = w[t - 2] as number;
      const s0 = rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >>> 3);
      const s1 = rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >>> 10);
      w[t] = (w[t - 16] as number) + s0 + (w[t - 7] as number) + s1;
    }
    let [a, b, c, d, e, f, g, hh] = h as unknown as [number, number, number, number, number, number, number, number];
    for (let t = 0; t < 64; t++) {
      const t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + (K[t] as number) + (w[t] as number);
      const t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      hh = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    [a, b, c, d, e, f, g, hh].forEach((value, i) => (h[i] = (h[i] as number) + value));
  }
  const digest = new Uint8Array(32);
  const out = new DataView(digest.buffer);
  h.forEach((value, i) => {
    out.setUint32(i * 4, value);
  });
  return digest;
}

/** The digest as base64 (RFC 4648, section 4), as a CSP hash source writes it. */
export function sha256Base64(text: string): string {
  return btoa(String.fromCharCode(...sha256(text)));
}
