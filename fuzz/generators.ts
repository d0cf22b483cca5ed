/**
 * Whole requests for an operation of the contract, each labelled with what it is (see CaseLabel):
 * valid NewPlants with every valid spelling of credentials and media type, and requests with
 * exactly one thing wrong - the body (schema), the JSON, the media type or the credentials.
 *
 * Everything comes from the contract: the body from the request schema's resolved shape, the
 * media types from the request body's content, the credentials from the operation's security
 * scheme, the path and method from the operation.
 */
import fc from 'fast-check';
import { loadContract, type Contract, type ObjectShape, type OperationContract, type Schema } from '../src/openapi/index.js';
import { codePointsOf, LAYOUTS, writeJson, type JsonMember, type JsonModel, type Layout } from './json-text.js';
import { SchemaArbitraries, type InvalidValue } from './schema-arbitraries.js';
import { CASE_LABELS, type CaseLabel, type Credentials, type Profile, type RequestCase } from './types.js';

export interface GeneratorOptions {
  /** The bearer token the target accepts. Under the `mock` profile any well-formed token will do. */
  readonly token: string;
  readonly profile?: Profile;
  /** Only these kinds of request (all by default). */
  readonly labels?: readonly CaseLabel[];
  /** Relative frequency of each kind; defaults in DEFAULT_WEIGHTS. */
  readonly weights?: Partial<Record<CaseLabel, number>>;
  /** The operation to target; by default every operation of the contract that takes a JSON body. */
  readonly operation?: OperationContract;
  /** How often (0..1) a valid request is preceded by a request for the same id with other values. Default 0.2. */
  readonly repeatRate?: number;
}

/**
 * Out of 100: most requests valid, then schema violations (the largest space of ways to be
 * wrong), every other kind well represented.
 */
export const DEFAULT_WEIGHTS: Readonly<Record<CaseLabel, number>> = { valid: 40, 'invalid-body': 30, 'malformed-json': 8, 'bad-media-type': 8, 'bad-auth': 14 };

/** RFC 6750, section 2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=" */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const B64_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/';

/** The same word in the letter cases a client may send (RFC 9110, section 11.1: the auth scheme is case-insensitive). */
function caseSpellings(word: string): string[] {
  const lower = word.toLowerCase();
  const capitalised = lower.charAt(0).toUpperCase() + lower.slice(1);
  const alternating = codePointsOf(lower).map((c, i) => (i % 2 === 0 ? c : c.toUpperCase())).join('');
  return [...new Set([capitalised, lower, lower.toUpperCase(), alternating])];
}

/**
 * Media types a server must accept for a declared one (RFC 9110, section 8.3.1: type and subtype
 * are case-insensitive; parameters such as charset may follow, with optional whitespace).
 */
export function mediaTypeSpellings(declared: string): string[] {
  const capitalised = declared.replace(/(^|\/)([a-z])/g, (_m, sep: string, c: string) => sep + c.toUpperCase());
  return [...new Set([declared, `${declared}; charset=utf-8`, `${declared};charset=UTF-8`, declared.toUpperCase(), `${capitalised}; Charset=utf-8`, `${declared} ; charset=utf-8`])];
}

/**
 * Media types that are clearly not JSON. `text/json` and `application/*+json` are left out on
 * purpose: common frameworks accept them as JSON, and the contract does not say they must not.
 * So is a missing Content-Type: some frameworks parse such a body as JSON.
 */
const OTHER_MEDIA_TYPES = ['text/plain', 'text/plain; charset=utf-8', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=plant', 'application/octet-stream', 'text/html', 'image/png'];

interface AuthSpelling {
  readonly header: string | undefined;
  readonly credentials: Credentials;
  /** The header as a person may read it, without the token. */
  readonly shown: string;
}

/** Bad credentials of every kind; `wrong-token` ones only when the target checks tokens (not the mock). */
function badCredentials(scheme: string, token: string, profile: Profile): fc.Arbitrary<AuthSpelling> {
  const missing: AuthSpelling = { header: undefined, credentials: 'missing', shown: 'no Authorization header' };
  const otherScheme: AuthSpelling[] = [
    { header: `Basic ${Buffer.from('plant:secret').toString('base64')}`, credentials: 'other-scheme', shown: 'Authorization: Basic (plant:secret)' },
    { header: `Token ${token}`, credentials: 'other-scheme', shown: 'Authorization: Token <token>' },
    { header: `OAuth ${token}`, credentials: 'other-scheme', shown: 'Authorization: OAuth <token>' },
    { header: `Digest username="plant"`, credentials: 'other-scheme', shown: 'Authorization: Digest username="plant"' },
  ];
  const malformed: AuthSpelling[] = [
    { header: scheme, credentials: 'malformed', shown: `Authorization: ${scheme} (no token)` },
    { header: token, credentials: 'malformed', shown: 'Authorization: <token> (no scheme)' },
    { header: `${scheme} "${token}"`, credentials: 'malformed', shown: `Authorization: ${scheme} "<token>" (quoted)` },
    { header: `${scheme} ${token}!`, credentials: 'malformed', shown: `Authorization: ${scheme} <token>! (not a b64token)` },
  ];
  const choices: fc.WeightedArbitrary<AuthSpelling>[] = [
    { weight: 3, arbitrary: fc.constant(missing) },
    { weight: 3, arbitrary: fc.constantFrom(...otherScheme) },
    { weight: 2, arbitrary: fc.constantFrom(...malformed) },
  ];
  // A mock accepts any well-formed token: a wrong one is not wrong there.
  if (profile === 'mock') return fc.oneof(...choices);
  const suffixed = `${token}x`;
  const wrong: fc.Arbitrary<AuthSpelling> = fc.oneof(
    // Catch comparisons by prefix (startsWith) and by containment.
    fc.constant<AuthSpelling>({ header: `${scheme} ${suffixed}`, credentials: B64TOKEN.test(suffixed) ? 'wrong-token' : 'malformed', shown: `Authorization: ${scheme} <token>x` }),
    fc.constant<AuthSpelling>({ header: `${scheme} x${token}`, credentials: 'wrong-token', shown: `Authorization: ${scheme} x<token>` }),
    fc
      .string({ unit: fc.constantFrom(...codePointsOf(B64_CHARS)), minLength: 1, maxLength: 32 })
      .filter((t) => t !== token)
      .map((t) => ({ header: `${scheme} ${t}`, credentials: 'wrong-token' as const, shown: `Authorization: ${scheme} ${t}` })),
  );
  return fc.oneof(...choices, { weight: 3, arbitrary: wrong });
}

type Malformation =
  | 'truncated'
  | 'empty'
  | 'whitespace-only'
  | 'trailing-comma'
  | 'comment'
  | 'single-quoted-key'
  | 'unquoted-key'
  | 'missing-colon'
  | 'missing-comma'
  | 'raw-control-character'
  | 'invalid-escape'
  | 'invalid-utf8'
  | 'bad-number';

/**
 * Ways to make a JSON text malformed that every JSON parser rejects. Left out on purpose:
 * trailing data after the value (Go's json.Decoder and Jackson's default accept it), duplicate
 * keys and a byte-order mark (RFC 8259 lets parsers accept them), NaN outside an integer field
 * (Python's json module accepts it), deep nesting (a limit of the implementation, not of JSON).
 */
const MALFORMATIONS: readonly Malformation[] = ['truncated', 'empty', 'whitespace-only', 'trailing-comma', 'comment', 'single-quoted-key', 'unquoted-key', 'missing-colon', 'missing-comma', 'raw-control-character', 'invalid-escape', 'invalid-utf8', 'bad-number'];

/** Number spellings JSON does not allow (RFC 8259, section 6); each replaces an integer property's value. */
const BAD_NUMBERS = ['NaN', 'Infinity', '-Infinity', '01', '+1', '0x10', '.5', '1.', '1e', '--1', '1_000'];

/** Index of the first occurrence of `char` outside string literals, or -1. */
function structuralIndex(text: string, char: string): number {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === char) return i;
  }
  return -1;
}

/** Bytes of `text` with one malformation; `pick` (0..1) chooses where, `raw` what, where there is a choice. */
function malform(model: JsonModel, layout: Layout, how: Malformation, pick: number, integerKeys: readonly string[]): { bytes: Uint8Array; variant: string } {
  const text = writeJson(model, layout);
  const utf8 = (s: string): Uint8Array => Buffer.from(s, 'utf8');
  const at = (i: number, insert: string): string => text.slice(0, i) + insert + text.slice(i);
  const firstQuote = text.indexOf('"');
  switch (how) {
    case 'truncated': {
      const cut = Math.min(text.length - 1, Math.floor(pick * text.length));
      return { bytes: utf8(text.slice(0, cut)), variant: `JSON cut off after ${cut} of ${text.length} characters` };
    }
    case 'empty':
      return { bytes: new Uint8Array(), variant: 'an empty body' };
    case 'whitespace-only':
      return { bytes: utf8(' \r\n\t '.slice(0, 1 + Math.floor(pick * 5))), variant: 'a body of whitespace only' };
    case 'trailing-comma':
      return { bytes: utf8(at(text.lastIndexOf('}'), ',')), variant: 'a trailing comma before }' };
    case 'comment':
      return { bytes: utf8(at(1, '/* a plant */')), variant: 'a /* comment */' };
    case 'single-quoted-key':
    case 'unquoted-key': {
      const colon = structuralIndex(text, ':');
      if (firstQuote < 0 || colon < 0) return malform(model, layout, 'trailing-comma', pick, integerKeys);
      const end = text.lastIndexOf('"', colon);
      const key = text.slice(firstQuote + 1, end);
      const written = how === 'single-quoted-key' ? `'${key}'` : key || 'key';
      return { bytes: utf8(text.slice(0, firstQuote) + written + text.slice(end + 1)), variant: how === 'single-quoted-key' ? 'a key in single quotes' : 'a key without quotes' };
    }
    case 'missing-colon': {
      const colon = structuralIndex(text, ':');
      if (colon < 0) return malform(model, layout, 'comment', pick, integerKeys);
      return { bytes: utf8(text.slice(0, colon) + '=' + text.slice(colon + 1)), variant: '= instead of : between a key and its value' };
    }
    case 'missing-comma': {
      const comma = structuralIndex(text, ',');
      if (comma < 0) return malform(model, layout, 'trailing-comma', pick, integerKeys);
      return { bytes: utf8(text.slice(0, comma) + ' ' + text.slice(comma + 1)), variant: 'no comma between two members' };
    }
    case 'raw-control-character': {
      if (firstQuote < 0) return malform(model, layout, 'comment', pick, integerKeys);
      const control = ['\u0001', '\t', '\n', '\u001f', '\u0000'][Math.floor(pick * 5)] ?? '\u0001';
      return { bytes: utf8(at(firstQuote + 1, control)), variant: `an unescaped control character U+${control.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()} in a string` };
    }
    case 'invalid-escape': {
      if (firstQuote < 0) return malform(model, layout, 'comment', pick, integerKeys);
      const escape = ['\\x41', "\\'", '\\u12G4', '\\a', '\\U0041'][Math.floor(pick * 5)] ?? '\\x41';
      return { bytes: utf8(at(firstQuote + 1, escape)), variant: `the invalid escape ${escape} in a string` };
    }
    case 'invalid-utf8': {
      // Between tokens, not inside a string: however a server decodes the byte, it is not JSON there.
      const bytes = utf8(text);
      const byte = [0xff, 0xfe, 0xc0, 0x80][Math.floor(pick * 4)] ?? 0xff;
      const out = new Uint8Array(bytes.length + 1);
      out[0] = bytes[0] ?? 0x7b;
      out[1] = byte;
      out.set(bytes.subarray(1), 2);
      return { bytes: out, variant: `the byte 0x${byte.toString(16).toUpperCase()} (not UTF-8) after {` };
    }
    case 'bad-number': {
      const key = integerKeys.find((k) => model.kind === 'object' && model.members.some((m) => m.key === k));
      if (key === undefined || model.kind !== 'object') return malform(model, layout, 'trailing-comma', pick, integerKeys);
      const bad = BAD_NUMBERS[Math.floor(pick * BAD_NUMBERS.length)] ?? 'NaN';
      const members = model.members.map((m): JsonMember => (m.key === key ? { ...m, value: { kind: 'number', text: bad } } : m));
      return { bytes: utf8(writeJson({ kind: 'object', members }, layout)), variant: `${key} written as ${bad} (not a JSON number)` };
    }
  }
}

function pathOf(operation: OperationContract): string {
  if (operation.path.includes('{')) throw new Error(`${operation.operationId}: path parameters are not supported by the generators yet (${operation.path})`);
  return operation.path;
}

/** The bearer scheme word of an operation, or undefined when it needs no credentials. */
function bearerScheme(operation: OperationContract): string | undefined {
  const requirement = operation.security[0];
  if (requirement === undefined || requirement.length === 0) return undefined;
  const scheme = requirement[0];
  if (requirement.length > 1 || scheme?.type !== 'http' || scheme.scheme !== 'bearer') {
    throw new Error(`${operation.operationId}: only a single HTTP bearer security scheme is supported, got ${JSON.stringify(requirement)}`);
  }
  return 'Bearer';
}

function operationArbitrary(contract: Contract, operation: OperationContract, options: GeneratorOptions): fc.Arbitrary<RequestCase> {
  const requestBody = operation.requestBody;
  if (!requestBody) throw new Error(`${operation.operationId}: the generators need an operation with a JSON request body`);
  const profile = options.profile ?? 'reference';
  const schemas = new SchemaArbitraries(contract);
  const shape = requestBody.shape;
  const bodySchema: Schema = requestBody.schema;
  const isObject = contract.resolve(bodySchema).type === 'object' || shape.properties.size > 0;
  const body = schemas.valid(bodySchema);
  const path = pathOf(operation);
  const scheme = bearerScheme(operation);
  const jsonTypes = requestBody.mediaTypes.filter((t) => /^application\/json$/i.test(t));
  if (jsonTypes.length === 0) throw new Error(`${operation.operationId}: the request body declares no application/json content`);
  const declaredEssences = new Set(requestBody.mediaTypes.map((t) => t.toLowerCase()));
  const integerKeys = [...shape.properties].filter(([, s]) => contract.resolve(s).type === 'integer').map(([k]) => k);

  const layout: fc.Arbitrary<Layout> = fc.oneof({ withCrossShrink: true }, { weight: 3, arbitrary: fc.constant<Layout>('compact') }, { weight: 1, arbitrary: fc.constantFrom(...LAYOUTS.slice(1)) });
  const mediaType = fc.oneof({ withCrossShrink: true }, { weight: 3, arbitrary: fc.constantFrom(...jsonTypes) }, { weight: 2, arbitrary: fc.constantFrom(...jsonTypes.flatMap(mediaTypeSpellings)) });
  const goodAuth: fc.Arbitrary<AuthSpelling> =
    scheme === undefined
      ? fc.constant({ header: undefined, credentials: 'valid', shown: '' })
      : fc.oneof({ withCrossShrink: true }, 
          { weight: 3, arbitrary: fc.constant(scheme) },
          { weight: 1, arbitrary: fc.constantFrom(...caseSpellings(scheme)) },
        ).map((word) => ({ header: `${word} ${options.token}`, credentials: 'valid' as const, shown: `Authorization: ${word} <token>` }));

  const make = (label: CaseLabel, variant: string, auth: AuthSpelling, contentType: string | undefined, bytes: Uint8Array, setup: readonly RequestCase[] = []): RequestCase => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (contentType !== undefined) headers['content-type'] = contentType;
    if (auth.header !== undefined) headers.authorization = auth.header;
    return { method: operation.method, path, headers, body: bytes, label, variant, credentials: auth.credentials, setup };
  };
  const text = (model: JsonModel, how: Layout): Uint8Array => Buffer.from(writeJson(model, how), 'utf8');

  // A repeated id: the same integer properties posted first with other values (decision 2).
  const repeatRate = options.repeatRate ?? 0.2;
  const repeatWeight = Math.round(Math.min(1, Math.max(0, repeatRate)) * 100);
  const earlier: fc.Arbitrary<JsonModel | undefined> =
    repeatWeight > 0 && integerKeys.length > 0 ? fc.oneof({ withCrossShrink: true }, { weight: 100 - repeatWeight, arbitrary: fc.constant(undefined) }, { weight: repeatWeight, arbitrary: body }) : fc.constant(undefined);
  const withIdsOf = (first: JsonModel, main: JsonModel): JsonModel => {
    if (first.kind !== 'object' || main.kind !== 'object') return first;
    const ids = main.members.filter((m) => integerKeys.includes(m.key));
    return { kind: 'object', members: [...first.members.filter((m) => !integerKeys.includes(m.key)), ...ids] };
  };

  const valid = fc.record({ model: body, layout, mediaType, auth: goodAuth, earlier }).map(({ model, layout: how, mediaType: type, auth, earlier: first }) => {
    // Spellings other than the plain ones are part of what a request is: a failure may hinge on them.
    const notes = [type === jsonTypes[0] ? '' : `Content-Type: ${type}`, auth.shown.includes(`${scheme ?? ''} <token>`) ? '' : auth.shown].filter(Boolean);
    const describe = (what: string): string => [what, ...notes].join('; ');
    const setup = first === undefined ? [] : [make('valid', describe(`the same ${integerKeys.join(', ')}, posted first with other values`), auth, type, text(withIdsOf(first, model), how))];
    return make('valid', describe(setup.length > 0 ? `a repeated ${integerKeys.join(', ')}` : 'a valid body'), auth, type, text(model, how), setup);
  });

  const mutation = invalidBodyMutation(schemas, shape, isObject, body);
  const invalidBody = mutation && fc.record({ model: body, layout, mediaType, auth: goodAuth, mutation }).map(({ model, layout: how, mediaType: type, auth, mutation: mutate }) => {
    const { result, variant } = mutate(model);
    return make('invalid-body', variant, auth, type, text(result, how));
  });

  const malformed = fc
    .record({ model: body, layout, mediaType, auth: goodAuth, how: fc.constantFrom(...MALFORMATIONS), pick: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }) })
    .map(({ model, layout: how, mediaType: type, auth, how: malformation, pick }) => {
      const { bytes, variant } = malform(model, how, malformation, pick, integerKeys);
      return make('malformed-json', variant, auth, type, bytes);
    });

  const otherTypes = OTHER_MEDIA_TYPES.filter((t) => !declaredEssences.has((t.split(';')[0] ?? '').trim()));
  const badMediaType = fc.record({ model: body, layout, auth: goodAuth, type: fc.constantFrom(...otherTypes) }).map(({ model, layout: how, auth, type }) => make('bad-media-type', `Content-Type: ${type}`, auth, type, text(model, how)));

  const badAuth =
    scheme === undefined
      ? undefined
      : fc.record({ model: body, layout, mediaType, auth: badCredentials(scheme, options.token, profile) }).map(({ model, layout: how, mediaType: type, auth }) => make('bad-auth', auth.shown, auth, type, text(model, how)));

  const byLabel: Record<CaseLabel, fc.Arbitrary<RequestCase> | undefined> = { valid, 'invalid-body': invalidBody, 'malformed-json': malformed, 'bad-media-type': badMediaType, 'bad-auth': badAuth };
  const weights = { ...DEFAULT_WEIGHTS, ...options.weights };
  const labels = options.labels ?? CASE_LABELS;
  const choices = labels.flatMap((label) => {
    const arbitrary = byLabel[label];
    return arbitrary === undefined || weights[label] <= 0 ? [] : [{ weight: weights[label], arbitrary }];
  });
  if (choices.length === 0) throw new Error(`${operation.operationId}: none of the labels ${labels.join(', ')} can be generated`);
  return fc.oneof(...choices);
}

type Mutation = (model: JsonModel) => { result: JsonModel; variant: string };

/** One schema violation at a time: a required property removed, one property of a wrong type or out of range, or a body that is not an object. */
function invalidBodyMutation(schemas: SchemaArbitraries, shape: ObjectShape, isObject: boolean, body: fc.Arbitrary<JsonModel>): fc.Arbitrary<Mutation> | undefined {
  const choices: fc.WeightedArbitrary<Mutation>[] = [];
  if (shape.required.size > 0) {
    choices.push({
      weight: 2,
      arbitrary: fc.constantFrom(...shape.required).map((key): Mutation => (model) => ({
        result: model.kind === 'object' ? { kind: 'object', members: model.members.filter((m) => m.key !== key) } : model,
        variant: `${key} is missing`,
      })),
    });
  }
  const replacements = [...shape.properties].flatMap(([key, schema]) => {
    const invalid = schemas.invalid(schema);
    return invalid ? [invalid.map((value): [string, InvalidValue] => [key, value])] : [];
  });
  if (replacements.length > 0) {
    choices.push({
      weight: 5,
      arbitrary: fc.oneof(...replacements).map(([key, value]): Mutation => (model) => {
        if (model.kind !== 'object') return { result: model, variant: `${key} ${value.description}` };
        const present = model.members.some((m) => m.key === key);
        const members = present ? model.members.map((m) => (m.key === key ? { ...m, value: value.model } : m)) : [...model.members, { key, keyStyle: 'plain' as const, value: value.model }];
        return { result: { kind: 'object', members }, variant: `${key} ${value.description}` };
      }),
    });
  }
  if (isObject) {
    const nonObjects: fc.Arbitrary<Mutation> = fc.oneof(
      fc.constantFrom<[JsonModel, string]>(
        [{ kind: 'literal', text: 'null' }, 'the body is null'],
        [{ kind: 'literal', text: 'true' }, 'the body is true'],
        [{ kind: 'number', text: '1' }, 'the body is a number'],
        [{ kind: 'string', value: 'Monstera', style: 'plain' }, 'the body is a string'],
        [{ kind: 'array', items: [] }, 'the body is an empty array'],
      ).map(([result, variant]): Mutation => () => ({ result, variant })),
      body.map((inner): Mutation => () => ({ result: { kind: 'array', items: [inner] }, variant: 'the body is an array holding a valid object' })),
    );
    choices.push({ weight: 1, arbitrary: nonObjects });
  }
  return choices.length === 0 ? undefined : fc.oneof(...choices);
}

/**
 * Requests for the contract's operations (POST /plants), labelled with what they are. The
 * default mix: 40% valid, 25% schema violations, 10% malformed JSON, 10% wrong media types,
 * 15% bad credentials. Shrinks towards small, plain, valid-looking requests.
 */
export function requestArbitrary(contract: Contract = loadContract(), options: GeneratorOptions): fc.Arbitrary<RequestCase> {
  const operations = options.operation ? [options.operation] : contract.operations.filter((o) => o.requestBody !== undefined);
  if (operations.length === 0) throw new Error('the contract declares no operation with a JSON request body');
  const arbitraries = operations.map((operation) => operationArbitrary(contract, operation, options));
  return arbitraries.length === 1 ? (arbitraries[0] as fc.Arbitrary<RequestCase>) : fc.oneof(...arbitraries);
}

/** Valid request bodies (as JSON models) for an operation: what `valid` requests carry. */
export function validBodyArbitrary(contract: Contract, operation: OperationContract): fc.Arbitrary<JsonModel> {
  if (!operation.requestBody) throw new Error(`${operation.operationId} takes no body`);
  return new SchemaArbitraries(contract).valid(operation.requestBody.schema);
}
