/**
 * Content codings (RFC 9110, section 8.4): which ones a request's Accept-Encoding accepts
 * (section 12.5.3), and decoding the ones a client is expected to read - gzip, deflate and br, with
 * node:zlib. The engine's client decodes every answer it can; the `content-coding` check judges
 * whether the coding was one the request accepted.
 */
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';

/** The codings a client reads (RFC 9110, section 18.6's registry; `x-gzip` is `gzip`, section 8.4.1.3). */
export const DECODABLE_CODINGS: readonly string[] = ['gzip', 'deflate', 'br'];

/** A coding's name as compared: lower case, `x-gzip` as `gzip` (RFC 9110, section 8.4.1.3). */
export function codingName(coding: string): string {
  const name = coding.trim().toLowerCase();
  return name === 'x-gzip' ? 'gzip' : name;
}

/** The codings of a Content-Encoding or Transfer-Encoding value, in the order they were applied. */
export function codingList(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(',')
    .map(codingName)
    .filter((c) => c !== '');
}

interface Preference {
  readonly coding: string;
  readonly q: number;
}

/** `gzip;q=0.8, *;q=0` as codings and weights (RFC 9110, section 12.4.2: a weight is `q=` and a number from 0 to 1). */
function preferences(acceptEncoding: string): Preference[] {
  return acceptEncoding
    .split(',')
    .map((item) => item.split(';').map((part) => part.trim()))
    .filter(([coding]) => coding !== undefined && coding !== '')
    .map(([coding = '', ...parameters]) => {
      const weight = parameters.find((p) => /^q\s*=/i.test(p));
      const q = weight === undefined ? 1 : Number(weight.replace(/^q\s*=\s*/i, ''));
      return { coding: codingName(coding), q: Number.isFinite(q) ? q : 1 };
    });
}

/**
 * Whether a request with this Accept-Encoding accepts an answer in `coding` (RFC 9110, section
 * 12.5.3): without the field, any coding; an empty field, only `identity`; a coding listed with a
 * weight above 0; an unlisted one where `*` has a weight above 0; `identity` unless it is listed
 * with q=0, or `*;q=0` is listed and `identity` is not.
 */
export function acceptsCoding(acceptEncoding: string | undefined, coding: string): boolean {
  if (acceptEncoding === undefined) return true;
  const name = codingName(coding);
  const listed = preferences(acceptEncoding);
  const own = listed.find((p) => p.coding === name);
  if (own !== undefined) return own.q > 0;
  const any = listed.find((p) => p.coding === '*');
  if (name === 'identity') return any === undefined || any.q > 0;
  return any !== undefined && any.q > 0;
}

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
          if (tooLarge(error)) throw error;
          body = inflateRawSync(body, options);
          rawDeflate = true;
        }
      } else return { error: `the coding ${coding} is not one a client can be expected to decode (${DECODABLE_CODINGS.join(', ')})` };
    } catch (error) {
      if (tooLarge(error)) return { error: `decoded, the body goes past ${maxBytes} bytes`, oversized: true };
      return { error: `the body is not ${coding} data (${error instanceof Error ? error.message : String(error)})` };
    }
  }
  return { body, rawDeflate };
}

function tooLarge(error: unknown): boolean {
  return error instanceof RangeError || (error as NodeJS.ErrnoException | undefined)?.code === 'ERR_BUFFER_TOO_LARGE';
}
