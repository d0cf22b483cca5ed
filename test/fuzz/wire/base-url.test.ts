/** Base URLs: a path prefix kept, and what cannot be a base URL refused. */
import { describe, expect, it } from 'vitest';
import { parseBaseUrl, urlFor } from '../../../src/http/base-url.js';

describe('base URLs', () => {
  it('keeps a path prefix and refuses what cannot be a base URL', () => {
    expect(urlFor(parseBaseUrl('http://127.0.0.1:3000/api/'), '/plants').href).toBe('http://127.0.0.1:3000/api/plants');
    expect(urlFor(parseBaseUrl('http://127.0.0.1:3000'), '/plants').href).toBe('http://127.0.0.1:3000/plants');
    expect(urlFor(parseBaseUrl('http://127.0.0.1:3000'), '/plants?_=1').href).toBe('http://127.0.0.1:3000/plants?_=1');
    expect(() => parseBaseUrl('ftp://x')).toThrow(/only http and https/);
    expect(() => parseBaseUrl('http://x/?a=1')).toThrow(/query string/);
    expect(() => parseBaseUrl('http://u:p@x/')).toThrow(/credentials/);
    expect(() => parseBaseUrl('not a url')).toThrow(/not a URL/);
  });
});
