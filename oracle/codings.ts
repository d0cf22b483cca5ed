/**
 * Decoding the content codings a client is expected to read (RFC 9110, section 8.4) - gzip,
 * deflate and br, with node:zlib. The engine's client and the proxy decode every answer they can, before the checks read it; the
 * names of codings and what a request's Accept-Encoding accepts are in oracle/accept-encoding.ts,
 * for the `content-coding` check judges whether the coding was one the request accepted.
 */
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';

/** The codings a client reads (RFC 9110, section 18.6's registry; `x-gzip` is `gzip`, section 8.4.1.3). */
export const DECODABLE_CODINGS: readonly string[] = ['gzip', 'deflate', 'br'];

/**
 * How much of an answer the engine's client and the proxy read: a bound on the engine's memory, not a demand of the
 * contract (which bounds no answer). Far above what a store of a run's size answers - a list of
 * the 5,000 plants the capacity phase stores is about 1.3 MB - so that only an answer that does
 * not end (or inflates without end) reaches it.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

export type Decoded = { readonly body: Buffer; readonly rawDeflate: boolean } | { readonly error: string; readonly oversized?: true };

/**
 * The body with its codings undone, last applied first (RFC 9110, section 8.4: they are listed
 * in the order applied). `maxBytes` bounds every step's output: a small gzip can inflate to
 * gigabytes. `deflate` is the zlib format (RFC 9110, section 8.4.1.2); raw DEFLATE, which some
 * servers send under that name, is decoded too and reported.
 */
export function decodeCodings(codings: readonly string[], bytes: Buffer, maxBytes: number): Decoded {
  let body = bytes;
  let rawDeflate = false;
  const options = { maxOutputLength: maxBytes };
  for (const coding of [...codings].reverse()) {
    try {
      if (coding === 'identity') continue;
      else if (coding === 'gzip') body = gunzipSync(body, options);
      else if (coding === 'br') body = brotliDecompressSync(body, options);
      else if (coding === 'deflate') {
        try {
          body = inflateSync(body, options);
        } catch (error) {
          if (isTooLarge(error)) throw error;
          body = inflateRawSync(body, options);
          rawDeflate = true;
        }
      } else return { error: `the coding ${coding} is not one a client can be expected to decode (${DECODABLE_CODINGS.join(', ')})` };
    } catch (error) {
      if (isTooLarge(error)) return { error: `decoded, the body goes past ${maxBytes} bytes`, oversized: true };
      return { error: `the body is not ${coding} data (${error instanceof Error ? error.message : String(error)})` };
    }
  }
  return { body, rawDeflate };
}

function isTooLarge(error: unknown): boolean {
  return error instanceof RangeError || (error as NodeJS.ErrnoException | undefined)?.code === 'ERR_BUFFER_TOO_LARGE';
}
