/**
 * An answer's head read by the grammars of RFC 9112 and RFC 9110, line by line: the status line
 * (RFC 9112, section 4), each field line (section 5; RFC 9110, section 5), Content-Length (RFC
 * 9110, section 8.6), Transfer-Encoding (RFC 9112, section 6.1), a chunk's size line (section
 * 7.1.1) and the trailers (section 7.1.2; RFC 9110, section 6.5.1). What does not match its
 * grammar is a breach of RFC 9110, section 2.2 ("a sender MUST NOT generate protocol elements that
 * do not match the grammar"): each is noted with the section it breaks, and read on where a
 * recipient may read on (the same section lets a recipient be lenient); what no recipient can
 * read throws a WireError. What the grammar allows is never noted: an empty reason phrase,
 * obs-text in a value, 1xx answers before the final one, chunk extensions, trailers.
 */

/** Why a response could not be read: it is not HTTP/1.1 as RFC 9112 frames it, or it is too large. */
export class WireError extends Error {
  override name = 'WireError';
  constructor(
    readonly failure: 'malformed-response' | 'oversized-response',
    message: string,
  ) {
    super(message);
  }
}

/** What a sender MUST NOT generate, with the section it breaks. `warning`: a breach that costs a client nothing (see message-framing). */
export interface Breach {
  readonly message: string;
  readonly warning?: boolean;
}

export type Note = (breach: Breach) => void;

/** token = 1*tchar (RFC 9110, section 5.6.2). */
export const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const TCHARS = "[!#$%&'*+\\-.^_`|~0-9A-Za-z]+";
const QUOTED = '"(?:[\\t \\x21\\x23-\\x5b\\x5d-\\x7e\\x80-\\xff]|\\\\[\\t \\x21-\\x7e\\x80-\\xff])*"';
/** chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] ), chunk-ext-val = token / quoted-string (RFC 9112, section 7.1.1). */
const CHUNK_EXTENSIONS = new RegExp(`^(?:[ \\t]*;[ \\t]*${TCHARS}(?:[ \\t]*=[ \\t]*(?:${TCHARS}|${QUOTED}))?)*[ \\t]*$`);
/** status-line = HTTP-version SP status-code SP [ reason-phrase ] (RFC 9112, section 4). */
const STATUS_LINE = /^HTTP\/1\.([01]) ([0-9]{3}) ([\t\x20-\x7e\x80-\xff]*)$/;
/** What a lenient client still reads as a status line: other whitespace, no SP after the code. */
const LENIENT_STATUS_LINE = /^HTTP\/1\.([01])[ \t]+([0-9]{3})(?:[ \t]+(.*))?$/;
/** A CTL other than HTAB (RFC 5234, appendix B.1): not a field-vchar (RFC 9110, section 5.5). */
// eslint-disable-next-line no-control-regex -- the control characters are what it finds
const CTL = /[\x00-\x08\x0a-\x1f\x7f]/;
/** Fields a sender MUST NOT put in trailers: they frame, route or describe the content (RFC 9110, section 6.5.1). */
const NOT_IN_TRAILERS = new Set(['content-length', 'transfer-encoding', 'trailer', 'host', 'content-type', 'content-encoding', 'content-range']);

export interface StatusLine {
  readonly version: '1.0' | '1.1';
  readonly status: number;
}

/** The status line; a line no client reads as one throws. */
export function readStatusLine(line: string, note: Note): StatusLine {
  const strict = STATUS_LINE.exec(line);
  const read = strict ?? LENIENT_STATUS_LINE.exec(line);
  if (!read) throw new WireError('malformed-response', `not an HTTP/1.1 status line: ${JSON.stringify(line.slice(0, 80))}`);
  if (!strict) {
    const why = CTL.test(read[3] ?? '') ? 'a control character in the reason phrase' : 'not HTTP-version SP status-code SP [reason-phrase]';
    note({ message: `the status line ${JSON.stringify(line.slice(0, 80))} breaks its grammar: ${why} (RFC 9112, section 4)` });
  }
  const status = Number(read[2]);
  // Status codes are 100 to 599 (RFC 9110, section 15): a client reads another as x00 of its class at best.
  if (status < 100 || status > 599) note({ message: `status code ${read[2] ?? ''} is outside 100-599 (RFC 9110, section 15)` });
  return { version: read[1] === '0' ? '1.0' : '1.1', status };
}

/** A field line read by its grammar: its name in lower case and its value, or undefined for a line no recipient can take as a field. */
export function readFieldLine(line: string, where: 'header' | 'trailer', note: Note): { readonly name: string; readonly value: string } | undefined {
  const colon = line.indexOf(':');
  const rawName = colon === -1 ? line : line.slice(0, colon);
  // No whitespace between the field name and the colon (RFC 9112, section 5.1): a proxy MUST remove it, so a client may read the field.
  const name = rawName.replace(/[ \t]+$/, '');
  if (colon === -1 || !TOKEN.test(name)) {
    note({ message: `a ${where} line that is not a field line (field-name ":" OWS field-value OWS, the name a token): ${JSON.stringify(line.slice(0, 80))} (RFC 9112, section 5; RFC 9110, section 5.1)` });
    return undefined;
  }
  if (name !== rawName) note({ message: `whitespace between the field name ${name} and its colon (RFC 9112, section 5.1: no whitespace is allowed there)` });
  let value = line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, '');
  if (value.includes('\r')) {
    // A bare CR: a recipient MUST consider the element invalid or replace it with SP (RFC 9112, section 2.2).
    note({ message: `a bare CR in the ${name} field (RFC 9112, section 2.2: a sender MUST NOT generate one)` });
    value = value.replace(/\r/g, ' ');
  }
  if (CTL.test(value)) {
    // NUL is replaced by SP (RFC 9110, section 5.5: a recipient MUST reject it or replace it); other CTLs a recipient MAY retain.
    note({ message: `a control character in the ${name} field's value ${JSON.stringify(value.slice(0, 60))} (RFC 9110, section 5.5: field-vchar is VCHAR or obs-text)` });
    value = value.replace(/\0/g, ' ');
  }
  const lower = name.toLowerCase();
  if (where === 'trailer' && NOT_IN_TRAILERS.has(lower)) note({ message: `${name} in the trailers: a field that frames or describes the content MUST NOT be sent as a trailer (RFC 9110, section 6.5.1)` });
  return { name: lower, value };
}

/** A line of the head that starts with whitespace: obs-fold after a field, or whitespace before the first field. */
export function foldedLine(previous: string | undefined, note: Note): void {
  if (previous === undefined) note({ message: 'whitespace between the status line and the first field (RFC 9112, section 2.2: a sender MUST NOT send it; a recipient ignores the line)' });
  else note({ message: `the ${previous} field folded onto a line that starts with whitespace (obs-fold; RFC 9112, section 5.2: a sender MUST NOT)` });
}

/** A list's elements (RFC 9110, section 5.6.1), noting empty ones: a sender MUST NOT generate them. */
export function listElements(value: string, name: string, note: Note): string[] {
  const elements = value.split(',').map((e) => e.replace(/^[ \t]+|[ \t]+$/g, ''));
  if (elements.some((e) => e === '') && value.trim() !== '') note({ message: `an empty element in the ${name} list ${JSON.stringify(value)} (RFC 9110, section 5.6.1.1: a sender MUST NOT generate one)` });
  return elements.filter((e) => e !== '');
}

/** transfer-coding = token *( OWS ";" OWS transfer-parameter ) (RFC 9112, section 7.3). */
function isTransferCoding(element: string): boolean {
  const [coding = '', ...parameters] = element.split(';').map((p) => p.trim());
  return TOKEN.test(coding) && parameters.every((p) => /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+[ \t]*=[ \t]*(?:[!#$%&'*+\-.^_`|~0-9A-Za-z]+|"(?:[^"\\]|\\.)*")$/.test(p));
}

/** The transfer codings of Transfer-Encoding, in the order applied; `status` for the codes that MUST NOT carry it. */
export function readTransferEncoding(value: string | undefined, status: number, note: Note): string[] {
  if (value === undefined) return [];
  const codings = listElements(value, 'Transfer-Encoding', note);
  const bad = codings.filter((c) => !isTransferCoding(c));
  if (bad.length > 0) note({ message: `Transfer-Encoding: ${JSON.stringify(value)} is not a list of transfer codings (RFC 9112, section 6.1)` });
  const names = codings.map((c) => (c.split(';', 1)[0] ?? '').trim().toLowerCase());
  if (names.filter((c) => c === 'chunked').length > 1) note({ message: `Transfer-Encoding: ${value} applies chunked more than once (RFC 9112, section 6.1: a sender MUST NOT)` });
  if ((status >= 100 && status < 200) || status === 204) note({ message: `Transfer-Encoding in a ${status} (RFC 9112, section 6.1: a server MUST NOT send it in a 1xx or 204)` });
  return names;
}

/**
 * The values of Content-Length, read by Content-Length = 1*DIGIT (RFC 9110, section 8.6); a value
 * no recipient can frame a body by throws (RFC 9112, section 6.3, item 5).
 */
export function readContentLength(values: readonly string[], joined: string, status: number, note: Note): number | undefined {
  if (values.length === 0) return undefined;
  if ((status >= 100 && status < 200) || status === 204) {
    // RFC 9110, section 8.6: a server MUST NOT send Content-Length in a 1xx or 204. A zero costs a client nothing.
    const zero = values.every((v) => /^0+$/.test(v));
    note({ message: `Content-Length: ${joined} in a ${status} (RFC 9110, section 8.6: a server MUST NOT send Content-Length in a 1xx or 204)`, ...(zero ? { warning: true } : {}) });
    return undefined;
  }
  if (!values.every((v) => /^[0-9]{1,15}$/.test(v)) || new Set(values.map(Number)).size !== 1) throw new WireError('malformed-response', `an invalid Content-Length: ${JSON.stringify(joined)}`);
  // A repeated one is a sender's error even where the values agree; a recipient may read it (RFC 9112, section 6.3).
  if (values.length > 1) note({ message: `Content-Length repeated: ${JSON.stringify(joined)} (RFC 9110, section 8.6: its value is one number; RFC 9112, section 6.3 lets a recipient reject it)` });
  return Number(values[0]);
}

/**
 * chunk = chunk-size [ chunk-ext ] CRLF; chunk-ext = *( BWS ";" BWS chunk-ext-name [ BWS "=" BWS
 * chunk-ext-val ] ) (RFC 9112, section 7.1.1): the size, or undefined for a line that has none.
 * Extensions are read and ignored, as a recipient MUST ignore those it does not know.
 */
export function readChunkSizeLine(line: string, note: Note): number | undefined {
  const size = /^[0-9A-Fa-f]{1,16}/.exec(line)?.[0];
  if (size === undefined) return undefined;
  const extensions = line.slice(size.length);
  // Anything but whitespace or an extension after the size: the size itself is in doubt.
  if (!/^[ \t]*(;|$)/.test(extensions)) return undefined;
  if (/[ \t]/.test(extensions.replace(/"(?:[^"\\]|\\.)*"/g, '""'))) note({ message: `whitespace in the chunk line ${JSON.stringify(line.slice(0, 80))} (BWS; RFC 9110, section 5.6.3: a sender MUST NOT generate it)` });
  const wellFormed = CHUNK_EXTENSIONS.test(extensions);
  if (!wellFormed) note({ message: `the chunk line ${JSON.stringify(line.slice(0, 80))} is not chunk-size [ chunk-ext ] (RFC 9112, section 7.1.1)` });
  return Number.parseInt(size, 16);
}
