/**
 * The hygiene checks of answers (no-byte-order-mark, json-charset, content-coding, content-length,
 * one-answer-per-request) and echo's rule for properties that were not sent, each on exchanges
 * built by hand: what they find, what they leave to the other checks, and their severities.
 */
import { describe, expect, it } from 'vitest';
import { CHECK_NAMES, decodeJson, judgeExchange, runChecks, type CheckName } from '../../oracle/index.js';
import { isUtf8Label } from '../../oracle/checks/json-charset.js';
import { mediaTypeParameter } from '../../oracle/media-types.js';
import type { ExtraBytes, Finding, HttpOutcome, NeighbourRequest, RequestCase, WireFacts } from '../../oracle/types.js';
import { loadContract } from '../../src/openapi/index.js';

const contract = loadContract();
const JSON_TYPE = { 'content-type': 'application/json' };

function valid(body: string, headers: Record<string, string> = {}): RequestCase {
  return { method: 'POST', path: '/plants', headers: { 'content-type': 'application/json', authorization: 'Bearer t', ...headers }, body: Buffer.from(body), kind: 'valid', variant: '', content: 'valid', credentials: 'valid', setup: [] };
}

const wire = (facts: Partial<WireFacts> = {}): WireFacts => ({ connection: 1, exchangesBefore: 0, framing: 'content-length', receivedLength: 0, contentCodings: [], transferCodings: [], others: [], ...facts });

function response(status: number, body: string | Buffer, headers: Record<string, string> = JSON_TYPE, facts: Partial<WireFacts> = {}): HttpOutcome {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return { kind: 'response', status, headers, body: bytes, durationMs: 1, wire: wire({ contentLength: bytes.length, receivedLength: bytes.length, ...facts }) };
}

const extra = (text: string, seen: ExtraBytes['seen'] = 'settling', afterMs = 0): ExtraBytes => ({ bytes: Buffer.from(text, 'latin1'), length: Buffer.byteLength(text, 'latin1'), afterMs, seen });
const check = (name: CheckName, request: RequestCase, outcome: HttpOutcome, profile: 'reference' | 'mock' = 'reference') => judgeExchange(name, request, outcome, contract, { profile });
const checksFinding = (request: RequestCase, outcome: HttpOutcome, profile: 'reference' | 'mock' = 'reference'): string[] => [...new Set(runChecks(request, outcome, contract, { profile }).map((f) => f.check))];

const plant = valid('{"name":"Monstera","id":1,"tag":"tropical"}');

/** Exactly one finding, of this severity, whose message matches. */
const one =
  (severity: Finding['severity'], pattern: RegExp) =>
  (findings: readonly Finding[]): boolean =>
    findings.length === 1 && findings[0]?.severity === severity && pattern.test(findings[0].message);
const PLANT = '{"name":"Monstera","id":1,"tag":"tropical"}';

describe('the registry', () => {
  it('has the hygiene checks', () => {
    for (const name of ['no-byte-order-mark', 'json-charset', 'content-coding', 'content-length', 'one-answer-per-request']) expect(CHECK_NAMES).toContain(name);
  });

  it('finds nothing in a clean answer', () => {
    expect(runChecks(plant, response(200, PLANT), contract)).toEqual([]);
  });
});

describe('no-byte-order-mark (RFC 8259, section 8.1)', () => {
  const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(PLANT)]);

  it('finds a UTF-8 or UTF-16 byte order mark before a JSON answer, as a failure', () => {
    expect(check('no-byte-order-mark', plant, response(200, bom))).toSatisfy(one('failure', /UTF-8 byte order mark.*RFC 8259, section 8\.1/));
    expect(check('no-byte-order-mark', plant, response(400, Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('{}')])))[0]?.message).toMatch(/UTF-16 \(big-endian\)/);
    expect(check('no-byte-order-mark', plant, response(200, PLANT))).toEqual([]);
  });

  it('is the only finding: the other checks read past the mark', () => {
    expect(decodeJson(bom)).toEqual(decodeJson(Buffer.from(PLANT)));
    expect(checksFinding(plant, response(200, bom))).toEqual(['no-byte-order-mark']);
  });

  it('looks at JSON answers only: labelled JSON, or declared JSON for their status', () => {
    expect(check('no-byte-order-mark', plant, response(200, bom, { 'content-type': 'application/problem+json' }))).toHaveLength(1);
    expect(check('no-byte-order-mark', plant, response(200, bom, { 'content-type': 'text/plain' }))).toHaveLength(1);
    expect(check('no-byte-order-mark', plant, response(404, Buffer.from('\ufeffnot found'), { 'content-type': 'text/plain' }))).toEqual([]);
  });
});

describe('json-charset (RFC 8259, sections 8.1 and 11)', () => {
  const typed = (charset: string): Record<string, string> => ({ 'content-type': `application/json; charset=${charset}` });

  it('accepts no charset and every label of UTF-8', () => {
    for (const headers of [JSON_TYPE, typed('utf-8'), typed('UTF-8'), typed('"utf-8"'), typed('utf8'), { 'content-type': 'application/json;Charset=UTF-8 ; x=y' }]) {
      expect(check('json-charset', plant, response(200, PLANT, headers)), JSON.stringify(headers)).toEqual([]);
    }
    expect(isUtf8Label('unicode-1-1-utf-8')).toBe(true);
    expect(isUtf8Label('latin1')).toBe(false);
    expect(isUtf8Label('no-such-charset')).toBe(false);
  });

  it('warns about another label on a UTF-8 body, saying whether this answer would be misread', () => {
    expect(check('json-charset', plant, response(200, PLANT, typed('iso-8859-1')))).toSatisfy(one('warning', /declares the charset iso-8859-1.*misreads any non-ASCII/));
    expect(check('json-charset', plant, response(200, '{"name":"Café","id":1}', typed('ISO-8859-1')))[0]?.message).toMatch(/misreads this answer's non-ASCII characters/);
    expect(check('json-charset', plant, response(200, PLANT, typed('x-unknown')))).toMatchObject([{ severity: 'warning' }]);
  });

  it('fails a body that is not UTF-8 under another label', () => {
    const latin1 = Buffer.from('{"name":"Café","id":1}', 'latin1');
    expect(check('json-charset', plant, response(200, latin1, typed('iso-8859-1')))).toSatisfy(one('failure', /not UTF-8.*MUST be UTF-8/));
  });

  it('reads media type parameters as RFC 9110 writes them', () => {
    expect(mediaTypeParameter('application/json; charset="utf\\-8"', 'CHARSET')).toBe('utf-8');
    expect(mediaTypeParameter('application/json;a=1;charset=latin1', 'charset')).toBe('latin1');
    expect(mediaTypeParameter('application/json', 'charset')).toBeUndefined();
  });
});

describe('content-coding (RFC 9110, section 12.5.3)', () => {
  const gzipped = (facts: Partial<WireFacts> = {}): HttpOutcome => response(200, PLANT, { ...JSON_TYPE, 'content-encoding': 'gzip' }, { contentCodings: ['gzip'], ...facts });

  it('accepts any coding when the request did not restrict codings, or accepted it', () => {
    expect(check('content-coding', plant, gzipped())).toEqual([]);
    expect(check('content-coding', valid(PLANT, { 'accept-encoding': 'gzip, deflate, br' }), gzipped())).toEqual([]);
  });

  it('fails a coding the request excluded', () => {
    for (const acceptEncoding of ['identity', 'identity;q=1, *;q=0', 'br']) {
      expect(check('content-coding', valid(PLANT, { 'accept-encoding': acceptEncoding }), gzipped())).toSatisfy(one('failure', /does not accept gzip.*12\.5\.3/));
    }
    expect(check('content-coding', valid(PLANT, { 'accept-encoding': 'identity' }), response(200, PLANT))).toEqual([]);
  });

  it('fails a body that cannot be decoded, and leaves it out of the checks that read bodies', () => {
    const zstd = response(200, 'garbage', { ...JSON_TYPE, 'content-encoding': 'zstd' }, { contentCodings: ['zstd'], undecodable: 'the coding zstd is not one a client can be expected to decode' });
    expect(check('content-coding', plant, zstd)).toSatisfy(one('failure', /cannot be read.*zstd/));
    expect(checksFinding(plant, zstd)).toEqual(['content-coding']);
  });

  it('fails raw DEFLATE sent as deflate (RFC 9110, section 8.4.1.2), and warns about a transfer coding nobody asked for', () => {
    expect(check('content-coding', plant, gzipped({ contentCodings: ['deflate'], rawDeflate: true }))).toSatisfy(one('failure', /raw DEFLATE/));
    expect(check('content-coding', plant, response(200, PLANT, { ...JSON_TYPE, 'transfer-encoding': 'gzip, chunked' }, { transferCodings: ['gzip'] }))).toSatisfy(one('warning', /TE field/));
  });
});

describe('content-length (RFC 9112, sections 6.3 and 8)', () => {
  it('fails a body that ran on past its Content-Length, whenever the rest came', () => {
    for (const seen of ['settling', 'idle', 'before-next'] as const) {
      const findings = check('content-length', plant, response(200, PLANT.slice(0, -1), JSON_TYPE, { extraBytes: extra('}', seen, 3) }));
      expect(findings).toSatisfy(one('failure', /Content-Length: 42, but 1 more byte followed the body/));
    }
    expect(check('content-length', plant, response(200, PLANT.slice(0, -1), JSON_TYPE, { extraBytes: extra('}', 'idle', 12.5) }))[0]?.message).toMatch(/12\.5 ms later, while the kept-alive connection was idle/);
  });

  it('leaves bytes after a body that ends itself to one-answer-per-request: the length was right', () => {
    // Python's http.server answers a request line it cannot read as HTTP/0.9: a body with no head.
    const headless = response(401, '{"error":401,"message":"no"}', JSON_TYPE, { extraBytes: extra('{"error": 400, "message": "Bad request syntax"}') });
    expect(check('content-length', plant, headless)).toEqual([]);
    expect(check('one-answer-per-request', plant, headless)).toSatisfy(one('failure', /bytes that no framing accounts for/));
  });

  it('leaves a second answer after the body to one-answer-per-request', () => {
    const outcome = response(200, PLANT, JSON_TYPE, { extraBytes: extra('HTTP/1.1 500 Oops\r\n\r\n') });
    expect(check('content-length', plant, outcome)).toEqual([]);
    expect(checksFinding(plant, outcome)).toEqual(['one-answer-per-request']);
  });

  it('fails Content-Length together with Transfer-Encoding', () => {
    expect(check('content-length', plant, response(200, PLANT, JSON_TYPE, { framing: 'chunked', lengthWithTransferEncoding: true }))[0]?.message).toMatch(/MUST NOT send both/);
  });

  it('fails a complete JSON body under a Content-Length that promised more, instead of no-server-error', () => {
    const hung: HttpOutcome = { kind: 'failure', failure: 'timeout', message: 'no complete response within 1000 ms', durationMs: 1000, partial: { status: 200, headers: JSON_TYPE, framing: 'content-length', contentLength: 44, body: Buffer.from(PLANT) } };
    expect(check('content-length', plant, hung)).toSatisfy(one('failure', /Content-Length: 44, but the body is a complete JSON text of 43 bytes and nothing more came until the deadline/));
    expect(checksFinding(plant, hung)).toEqual(['content-length']);
    // A body cut off in the middle is a crash or a reset: no-server-error's.
    const cut: HttpOutcome = { ...hung, failure: 'reset', partial: { status: 200, headers: JSON_TYPE, framing: 'content-length', contentLength: 44, body: Buffer.from(PLANT.slice(0, 20)) } };
    expect(checksFinding(plant, cut)).toEqual(['no-server-error']);
  });
});

describe('one-answer-per-request (RFC 9112, section 9.3)', () => {
  it('fails a second answer, wherever it was seen, naming where', () => {
    expect(check('one-answer-per-request', plant, response(200, PLANT, JSON_TYPE, { extraBytes: extra('HTTP/1.1 500 Internal Server Error\r\n\r\n') }))).toSatisfy(one('failure', /a second answer nobody asked for \("HTTP\/1\.1 500 Internal Server Error"\) came on the connection \(at once\)/));
    expect(check('one-answer-per-request', plant, response(200, PLANT, JSON_TYPE, { extraBytes: extra('HTTP/1.1 200 OK\r\n\r\n', 'before-next', 4) }))[0]?.message).toMatch(/found when the connection carried its next request/);
  });

  it('fails bytes after a chunked body, which no Content-Length explains', () => {
    expect(check('one-answer-per-request', plant, response(200, PLANT, JSON_TYPE, { framing: 'chunked', extraBytes: extra('xyz') }))[0]?.message).toMatch(/3 bytes that no framing accounts for/);
  });

  describe('answers that carry another request', () => {
    const other = valid('{"name":"Fern","id":2}');
    const answer = (others: NeighbourRequest[]): HttpOutcome => response(200, '{"name":"Fern","id":2}', JSON_TYPE, { others });

    it('fails the answer of the previous request on the connection, or of one in flight, and echo leaves it to this check', () => {
      for (const relation of ['previous', 'concurrent'] as const) {
        const outcome = answer([{ request: other, relation, connection: 3 }]);
        expect(check('one-answer-per-request', plant, outcome)).toSatisfy(one('failure', relation === 'previous' ? /the request sent before it on the same connection/ : /in flight at the same time \(on connection #3\)/));
        expect(checksFinding(plant, outcome)).toEqual(['one-answer-per-request']);
      }
    });

    it('leaves an answer that carries an earlier request for the same id to echo: that is what was stored', () => {
      const earlier = valid('{"name":"Fern","id":1}');
      const outcome = response(200, '{"name":"Fern","id":1}', JSON_TYPE, { others: [{ request: earlier, relation: 'previous', connection: 1 }] });
      expect(checksFinding(plant, outcome)).toEqual(['echo']);
    });

    it('says nothing when the answer is its own, and nothing under the mock profile', () => {
      expect(check('one-answer-per-request', plant, response(200, PLANT, JSON_TYPE, { others: [{ request: other, relation: 'concurrent', connection: 2 }] }))).toEqual([]);
      expect(check('one-answer-per-request', plant, answer([{ request: other, relation: 'previous', connection: 1 }]), 'mock')).toEqual([]);
    });
  });
});

describe('echo: what was not sent is not answered', () => {
  it('fails a tag that was not sent (a merge with the plant stored before, not a replacement)', () => {
    const untagged = valid('{"name":"Monstera","id":1}');
    expect(check('echo', untagged, response(200, '{"name":"Monstera","id":1,"tag":"tropical"}'))).toSatisfy(one('failure', /tag was not sent, so the plant has none.*came back as "tropical"/));
    expect(check('echo', untagged, response(200, '{"name":"Monstera","id":1,"tag":null}'))[0]?.message).toMatch(/came back as null/);
    expect(check('echo', untagged, response(200, '{"name":"Monstera","id":1}'))).toEqual([]);
  });

  it('lets a server add what the request schema does not have, and leave out an id the Plant does not declare', () => {
    expect(check('echo', valid('{"name":"M","id":1}'), response(200, '{"name":"M","id":"1","createdAt":"2024-06-11","owner":{"x":1}}'))).toEqual([]);
    expect(check('echo', valid('{"name":"M","id":1}'), response(200, '{"name":"M"}'))).toEqual([]);
  });

  it('is a warning for a lenient request', () => {
    const lenient: RequestCase = { ...valid('{"name":"M","id":1}'), lenient: 'a reason' };
    expect(check('echo', lenient, response(200, '{"name":"M","id":1,"tag":"x"}'))).toMatchObject([{ severity: 'warning' }]);
  });
});

describe('outcomes without wire facts (made by hand, not by the client)', () => {
  it('leave the wire checks quiet', () => {
    const bare: HttpOutcome = { kind: 'response', status: 200, headers: JSON_TYPE, body: Buffer.from(PLANT), durationMs: 1 };
    for (const name of ['content-coding', 'content-length', 'one-answer-per-request'] as const) expect(judgeExchange(name, plant, bare, contract)).toEqual([]);
  });
});
