/** Content codings (oracle/accept-encoding.ts, oracle/codings.ts): RFC 9110, section 12.5.3's rules for Accept-Encoding, and decoding. */
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { acceptsCoding, codingList } from '../../oracle/accept-encoding.js';
import { decodeCodings } from '../../oracle/codings.js';

describe('acceptsCoding (RFC 9110, section 12.5.3)', () => {
  it('accepts any coding without the field, and only identity with an empty one', () => {
    expect(acceptsCoding(undefined, 'gzip')).toBe(true);
    expect(acceptsCoding(undefined, 'zstd')).toBe(true);
    expect(acceptsCoding('', 'gzip')).toBe(false);
    expect(acceptsCoding('', 'identity')).toBe(true);
  });

  it('accepts a listed coding unless its weight is 0, and an unlisted one only through *', () => {
    expect(acceptsCoding('identity', 'gzip')).toBe(false);
    expect(acceptsCoding('gzip, deflate, br', 'br')).toBe(true);
    expect(acceptsCoding('gzip;q=0, br', 'gzip')).toBe(false);
    expect(acceptsCoding('GZIP;Q=0.5', 'gzip')).toBe(true);
    expect(acceptsCoding('x-gzip', 'gzip')).toBe(true);
    expect(acceptsCoding('br', 'gzip')).toBe(false);
    expect(acceptsCoding('br, *;q=0.1', 'gzip')).toBe(true);
    expect(acceptsCoding('identity;q=1, *;q=0', 'gzip')).toBe(false);
  });

  it('accepts identity unless it is refused by name or by *;q=0 without its own entry', () => {
    expect(acceptsCoding('gzip', 'identity')).toBe(true);
    expect(acceptsCoding('gzip, identity;q=0', 'identity')).toBe(false);
    expect(acceptsCoding('gzip, *;q=0', 'identity')).toBe(false);
    expect(acceptsCoding('identity;q=1, *;q=0', 'identity')).toBe(true);
  });

  it('reads Content-Encoding lists in the order applied', () => {
    expect(codingList('gzip, X-Gzip ,br')).toEqual(['gzip', 'gzip', 'br']);
    expect(codingList(undefined)).toEqual([]);
  });
});

describe('decodeCodings', () => {
  const body = Buffer.from('{"name":"Monstera","id":1}');

  it('undoes gzip, deflate and br, several in the order applied', () => {
    expect(decodeCodings(['gzip'], gzipSync(body), 1024)).toEqual({ body, rawDeflate: false });
    expect(decodeCodings(['deflate'], deflateSync(body), 1024)).toEqual({ body, rawDeflate: false });
    expect(decodeCodings(['br'], brotliCompressSync(body), 1024)).toEqual({ body, rawDeflate: false });
    expect(decodeCodings(['gzip', 'br'], brotliCompressSync(gzipSync(body)), 1024)).toEqual({ body, rawDeflate: false });
  });

  it('reads raw DEFLATE sent as deflate, and says so', () => {
    expect(decodeCodings(['deflate'], deflateRawSync(body), 1024)).toEqual({ body, rawDeflate: true });
  });

  it('reports a coding nobody decodes, data that is not its coding, and a body that inflates past the limit', () => {
    const errorOf = (decoded: ReturnType<typeof decodeCodings>): string => ('error' in decoded ? decoded.error : '');
    expect(errorOf(decodeCodings(['zstd'], body, 1024))).toMatch(/zstd is not one a client/);
    expect(errorOf(decodeCodings(['gzip'], body, 1024))).toMatch(/not gzip data/);
    expect(decodeCodings(['gzip'], gzipSync(Buffer.alloc(10 * 1024 * 1024)), 1024 * 1024)).toMatchObject({ oversized: true });
  });
});
