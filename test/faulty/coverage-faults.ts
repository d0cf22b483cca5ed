/**
 * Faulty implementations for the coverage phase's families (fuzz/generation/schema-probes.ts,
 * fuzz/generation/kinds/): each the reference with one realistic defect that only a boundary, a character
 * class, a key in another case or a media type with a shared prefix shows - so the coverage phase
 * catches it in every run, whatever the seed.
 */
import { exactInteger, INT64_MAX, INT64_MIN, isLosslessNumber, LosslessNumber, parseJson, type JsonObject, type JsonValue } from '../../src/openapi/index.js';
import type { CheckName } from '../../fuzz/index.js';
import { startFaulty, type Fault } from '../support/servers.js';
import type { FaultyImplementation } from './faults.js';
import { bodyOf, errorResponse, forward, header, objectBodyOf, responseObject, withBody } from './helpers.js';

function fault(name: string, caughtBy: CheckName, defect: string, behaviour: Fault): FaultyImplementation {
  return { name, caughtBy, defect, start: () => startFaulty(behaviour) };
}

/** The string properties of a Plant. */
const TEXT_FIELDS = ['name', 'tag'] as const;

/** A 200's plant with its string properties changed; other answers pass through. */
function onStoredText(change: (text: string) => string): Fault {
  return (_request, correct) => {
    const answer = correct();
    const plant = answer.status === 200 ? responseObject(answer) : undefined;
    if (!plant) return answer;
    const changed: JsonObject = { ...plant };
    for (const field of TEXT_FIELDS) {
      const value = plant[field];
      if (typeof value === 'string') changed[field] = change(value);
    }
    return withBody(answer, changed);
  };
}

/** The first `bytes` bytes of a string's UTF-8, cut back to a whole character. */
function utf8Prefix(text: string, bytes: number): string {
  const encoded = Buffer.from(text, 'utf8');
  if (encoded.length <= bytes) return text;
  let end = bytes;
  while (end > 0 && ((encoded[end] ?? 0) & 0xc0) === 0x80) end--;
  return encoded.subarray(0, end).toString('utf8');
}

/** The properties of a NewPlant, as a case-insensitive binder matches keys to them. */
const PROPERTIES = ['name', 'id', 'tag'] as const;

export const COVERAGE_FAULTS: readonly FaultyImplementation[] = [
  fault('case-insensitive-keys', 'rejects-invalid', 'keys are bound to properties case-insensitively, the last one winning (Jackson\'s ACCEPT_CASE_INSENSITIVE_PROPERTIES, ASP.NET Core\'s default): {"Name": …} is taken as the name', (request, correct, app) => {
    const body = objectBodyOf(request);
    if (!body) return correct();
    // Entries, not assignments: a "__proto__" key stays an ordinary property.
    const bound = new Map<string, JsonValue>(Object.entries(body).map(([key, value]) => [PROPERTIES.find((p) => p === key.toLowerCase()) ?? key, value]));
    return forward(app, request, { body: Object.fromEntries(bound) });
  }),
  fault('accepts-json-prefixed-media-types', 'rejects-invalid', 'the media type is tested with startsWith("application/json"), so application/json-seq, application/jsonl and application/jsonx are parsed as JSON', (request, correct, app) =>
    /^application\/json/i.test(header(request, 'content-type') ?? '') ? forward(app, request, { headers: { 'content-type': 'application/json' } }) : correct(),
  ),
  fault('int64-range-checked-as-double', 'rejects-invalid', 'the id\'s range is checked on a double, so -2^63-1 and 2^63 (which round to the bounds) are accepted and stored exactly', (request, correct, app) => {
    const body = objectBodyOf(request);
    const id = body?.id;
    const exact = isLosslessNumber(id) ? exactInteger(id) : undefined;
    if (!body || exact === undefined || (exact >= INT64_MIN && exact <= INT64_MAX)) return correct();
    const double = Number(exact);
    if (double < -(2 ** 63) || double > 2 ** 63 - 1) return correct();
    const answer = forward(app, request, { body: { ...body, id: new LosslessNumber('0') } });
    const plant = answer.status === 200 ? responseObject(answer) : undefined;
    return plant ? withBody(answer, { ...plant, id: new LosslessNumber(exact.toString()) }) : answer;
  }),
  fault('truncates-text-at-65535-bytes', 'echo', 'names and tags are stored in a MySQL TEXT column and come back cut at 65,535 bytes', onStoredText((text) => utf8Prefix(text, 65_535))),
  fault('strips-byte-order-marks', 'echo', 'every U+FEFF is removed from names and tags, as BOM-stripping code does anywhere in the text', onStoredText((text) => text.replaceAll('\ufeff', ''))),
  fault('accepts-plus-and-leading-zeros', 'rejects-invalid', 'a hand-written number parser takes +1, 01 and 00 as numbers (RFC 8259, section 6 allows neither)', (request, correct, app) => {
    const text = bodyOf(request) === undefined ? Buffer.from(request.body ?? '').toString('utf8') : undefined;
    if (text === undefined) return correct();
    const lenient = text.replace(/:(\s*)\+(\d)/g, ':$1$2').replace(/:(\s*)(-?)0+(\d)/g, ':$1$2$3');
    try {
      parseJson(lenient);
    } catch {
      return correct();
    }
    return app.request({ ...request, body: lenient });
  }),
  fault('server-error-on-lone-surrogate', 'no-server-error', 'a lone surrogate in a name makes the database driver fail with a 500 (it cannot encode it as UTF-8)', (request, correct) => {
    const body = objectBodyOf(request);
    const lone = TEXT_FIELDS.some((field) => {
      const value = body?.[field];
      return typeof value === 'string' && /\p{Surrogate}/u.test(value);
    });
    return lone && correct().status === 200 ? errorResponse(500, 'internal: invalid Unicode in string') : correct();
  }),
];
