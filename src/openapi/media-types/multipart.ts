/**
 * The multipart codec, `multipart/form-data` (RFC 7578; the body's grammar is RFC 2046, section
 * 5.1.1). The boundary is the Content-Type's parameter; each part names its field in
 * `Content-Disposition: form-data; name="…"` (and may give a `filename`) and may give its own
 * Content-Type (RFC 7578, section 4.4: text/plain when it does not). A body is an object of
 * fields (form-fields.ts): a text part typed by its property's schema, a part whose property is
 * binary (`format: binary`, or `contentMediaType` in 3.1) kept as its bytes - a string of one
 * character per byte, U+0000 to U+00FF, as the bytes codec keeps a body - a part whose
 * encoding's `contentType` or own Content-Type is JSON parsed as JSON, a repeated name a list.
 *
 * One pass: each delimiter is found with one indexOf from where the last part ended.
 */
import { stringifyJson, type JsonValue } from '../json.js';
import { bytesAsText, isByteString, Malformed, type BodyContext, type FormFields, type MediaTypeCodec } from './codec.js';
import { mediaTypeEssence } from './essence.js';
import { fieldText, formObject, isJsonMediaType, UNDECLARED_FIELD } from './form-fields.js';

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const ENCODER = new TextEncoder();
const CRLF = '\r\n';

/** RFC 2046, section 5.1.1: 1 to 70 of bchars, not ending in a space. */
const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;

/** A parameter of a header field's value (`name="x"`, `boundary=abc`), unquoted; undefined when absent. */
export function headerParameter(value: string, parameter: string): string | undefined {
  // A quoted-string (backslash escapes) or a token, after `;` and the parameter's name, any case.
  const pattern = new RegExp(`;\\s*${parameter}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]+))`, 'i');
  const match = pattern.exec(value);
  if (match === null) return undefined;
  return match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : match[2];
}

/** UTF-8 if the bytes are (browsers send names so), else the bytes as they are. */
function headerText(bytes: string): string {
  try {
    return UTF8.decode(Uint8Array.from(bytes, (c) => c.charCodeAt(0)));
  } catch {
    return bytes;
  }
}

interface Part {
  readonly name: string;
  readonly contentType: string | undefined;
  readonly filename: string | undefined;
  /** Its content, one character per byte. */
  readonly content: string;
}

/** One part: its header fields up to the empty line, then its content. */
function readPart(raw: string, index: number): Part | Malformed {
  const end = raw.startsWith(CRLF) ? 0 : raw.indexOf(`${CRLF}${CRLF}`);
  if (end === -1) return new Malformed(`malformed multipart: part ${index + 1} has no empty line after its header fields`);
  const headers = new Map<string, string>();
  for (const line of (end === 0 ? '' : raw.slice(0, end)).split(CRLF)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const disposition = headers.get('content-disposition');
  if (disposition === undefined || mediaTypeEssence(disposition) !== 'form-data') return new Malformed(`malformed multipart: part ${index + 1} has no Content-Disposition: form-data (RFC 7578, section 4.2)`);
  const name = headerParameter(disposition, 'name');
  if (name === undefined) return new Malformed(`malformed multipart: part ${index + 1} has no name in its Content-Disposition (RFC 7578, section 4.2)`);
  const filename = headerParameter(disposition, 'filename');
  return { name: headerText(name), contentType: headers.get('content-type'), filename: filename === undefined ? undefined : headerText(filename), content: raw.slice(end === 0 ? 2 : end + 4) };
}

/** The parts of a body (one character per byte) between the boundary's delimiters, or what is malformed. */
export function parseParts(text: string, boundary: string): Part[] | Malformed {
  const dashBoundary = `--${boundary}`;
  const delimiter = `${CRLF}${dashBoundary}`;
  // A preamble may precede the first boundary (section 5.1.1); it is ignored.
  let at = text.startsWith(dashBoundary) ? 0 : text.indexOf(delimiter);
  if (at === -1) return new Malformed(`malformed multipart: no boundary delimiter --${boundary} in the body`);
  at += text.startsWith(dashBoundary, at) ? dashBoundary.length : delimiter.length;
  const parts: Part[] = [];
  for (;;) {
    if (text.startsWith('--', at)) return parts;
    // Transport padding (linear white space) may follow a boundary before its CRLF.
    while (text[at] === ' ' || text[at] === '\t') at++;
    if (!text.startsWith(CRLF, at)) return new Malformed(`malformed multipart: the boundary delimiter before part ${parts.length + 1} is not followed by CRLF`);
    const start = at + 2;
    const next = text.indexOf(delimiter, start);
    if (next === -1) return new Malformed(`malformed multipart: no closing delimiter --${boundary}-- after part ${parts.length + 1}`);
    const part = readPart(text.slice(start, next), parts.length);
    if (part instanceof Malformed) return part;
    parts.push(part);
    at = next + delimiter.length;
  }
}

/** A part's content as its field's text: bytes kept for a binary field, UTF-8 text otherwise. */
function partText(part: Part, fields: FormFields | undefined): string | Malformed {
  const field = fields?.get(part.name);
  // A binary field, or an undeclared file part of a type that is not text: its bytes as they are.
  if (field?.kind === 'binary') return part.content;
  if (field === undefined && part.filename !== undefined && !mediaTypeEssence(part.contentType ?? 'text/plain').startsWith('text/') && !isJsonMediaType(part.contentType)) return part.content;
  try {
    return UTF8.decode(Uint8Array.from(part.content, (c) => c.charCodeAt(0)));
  } catch {
    return new Malformed(`malformed multipart: part ${part.name} is not UTF-8 text (declare its property format: binary to send bytes)`);
  }
}

function parseMultipart(text: string, context: BodyContext | undefined): JsonValue | Malformed {
  const contentType = context?.contentType ?? '';
  const boundary = headerParameter(contentType, 'boundary');
  if (boundary === undefined) return new Malformed('malformed multipart: the Content-Type has no boundary parameter (RFC 2046, section 5.1.1)');
  if (!BOUNDARY.test(boundary)) return new Malformed(`malformed multipart: the boundary ${JSON.stringify(boundary.slice(0, 80))} is not 1 to 70 of the characters RFC 2046 allows (section 5.1.1)`);
  const parts = parseParts(text, boundary);
  if (parts instanceof Malformed) return parts;
  const fields = context?.fields;
  const texts = new Map<string, string[]>();
  // A part sent as JSON is read as JSON where its property does not say otherwise.
  const asJson = new Set<string>();
  for (const part of parts) {
    const value = partText(part, fields);
    if (value instanceof Malformed) return value;
    const list = texts.get(part.name);
    if (list === undefined) texts.set(part.name, [value]);
    else list.push(value);
    if (isJsonMediaType(part.contentType) && fields?.get(part.name) === undefined) asJson.add(part.name);
  }
  return formObject(texts, withJson(fields, asJson), context?.maxDepth);
}

/** The fields, with the undeclared ones sent as JSON read as JSON. */
function withJson(fields: FormFields | undefined, asJson: ReadonlySet<string>): FormFields | undefined {
  if (asJson.size === 0) return fields;
  const all = new Map(fields ?? []);
  for (const name of asJson) all.set(name, { ...UNDECLARED_FIELD, kind: 'json' });
  return all;
}

/** A random boundary, as browsers make one: 24 hex digits after a prefix no part is likely to hold. */
function newBoundary(): string {
  const random = new Uint8Array(12);
  globalThis.crypto.getRandomValues(random);
  return `plant-store-kit-${Array.from(random, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/** One part of a value: a binary field's string written byte for byte, JSON as JSON, the rest as UTF-8 text. */
function partOf(name: string, value: unknown, fields: FormFields | undefined): string {
  const field = fields?.get(name);
  const quoted = name.replace(/[\r\n"]/g, (c) => encodeURIComponent(c));
  if (field?.kind === 'binary' && typeof value === 'string') {
    // The encoding may list several types (`image/png, image/jpeg`): a part is sent as the first.
    const type = field.contentType?.split(',')[0]?.trim() ?? 'application/octet-stream';
    // A string of bytes is written byte for byte; other text as its UTF-8.
    const bytes = isByteString(value) ? value : bytesAsText(ENCODER.encode(value));
    return `Content-Disposition: form-data; name="${quoted}"; filename="${quoted}"${CRLF}Content-Type: ${type}${CRLF}${CRLF}${bytes}`;
  }
  const json = field?.kind === 'json' || (typeof value === 'object' && value !== null && field === undefined);
  const content = bytesAsText(ENCODER.encode(json ? stringifyJson(value) : fieldText(value, stringifyJson)));
  const type = json ? `${CRLF}Content-Type: ${field?.contentType ?? 'application/json'}` : '';
  return `Content-Disposition: form-data; name="${quoted}"${type}${CRLF}${CRLF}${content}`;
}

function encodeMultipart(value: unknown, context: BodyContext | undefined): Uint8Array {
  const boundary = headerParameter(context?.contentType ?? '', 'boundary') ?? newBoundary();
  const entries = typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.entries(value) : [];
  const parts = entries.flatMap(([name, member]) => {
    if (member === undefined) return [];
    const field = context?.fields?.get(name);
    // A list is one part per item, unless the property is JSON as a whole.
    const items = Array.isArray(member) && field?.kind !== 'json' ? member : [member];
    return items.map((item) => partOf(name, item, context?.fields));
  });
  const text = parts.map((part) => `--${boundary}${CRLF}${part}${CRLF}`).join('') + `--${boundary}--${CRLF}`;
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

export const multipartCodec: MediaTypeCodec = {
  name: 'multipart',
  essences: ['multipart/form-data'],
  suffix: undefined,
  validation: 'schema',
  fields: true,
  // One character per byte: a binary part is kept byte for byte, a text part decoded as UTF-8 (partText).
  text: bytesAsText,
  parse: parseMultipart,
  encode: encodeMultipart,
  withParameters: (mediaType) => `${mediaType}; boundary=${newBoundary()}`,
};
