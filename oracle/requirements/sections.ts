/**
 * The sections of the RFCs that hold requirements on a server or on its answers: the map must
 * have a row (tested, or untestable and why) for each (test/requirements/map.test.ts). A section
 * is covered by a row of that section or of one below it (a row of 9.3.2 covers 9.3). `owner` is
 * the file of rows (requirements/*.ts) that answers for it; a section two sides of the exchange
 * share is owned by one and may hold rows of both.
 */
import type { Rfc } from './requirement.js';

/** The files of rows, one per side of the exchange (index.ts). */
export type RowFile = 'answers' | 'targets' | 'messages' | 'json-texts' | 'challenges' | 'time';

export interface MapSection {
  readonly rfc: Rfc;
  readonly section: string;
  /** What the section demands of a server, for people. */
  readonly about: string;
  readonly owner: RowFile;
}

const rfc9110 = (section: string, about: string, owner: RowFile): MapSection => ({ rfc: 'RFC 9110', section, about, owner });
const rfc9112 = (section: string, about: string, owner: RowFile): MapSection => ({ rfc: 'RFC 9112', section, about, owner });

export const MAP_SECTIONS: readonly MapSection[] = [
  rfc9110('5', 'field names, values and their syntax', 'messages'),
  rfc9110('5.5', 'field values: no CR, LF, NUL or other CTL', 'answers'),
  rfc9110('5.6.7', 'dates: a sender generates IMF-fixdate', 'answers'),
  rfc9110('6.6.1', 'Date: an origin server with a clock sends it', 'answers'),
  rfc9110('8.3.1', 'Content-Type: the media-type grammar', 'answers'),
  rfc9110('8.6', 'Content-Length: one number, none on 1xx and 204', 'answers'),
  rfc9110('9.1', 'methods: GET and HEAD supported, unknown methods', 'targets'),
  rfc9110('9.2', 'safe and idempotent methods', 'targets'),
  rfc9110('9.3', 'the methods, HEAD and OPTIONS among them', 'targets'),
  rfc9110('10.1.1', 'Expect', 'messages'),
  rfc9110('10.2.1', 'Allow: a list of methods', 'answers'),
  rfc9110('10.2.2', 'Location: a URI-reference', 'answers'),
  rfc9110('11.6.1', 'WWW-Authenticate', 'challenges'),
  rfc9110('15.2', '1xx: interim answers before the final one', 'answers'),
  rfc9110('15.3.5', '204: no content', 'answers'),
  rfc9110('15.4.5', '304: no content', 'answers'),
  rfc9110('15.5.2', '401: a challenge', 'challenges'),
  rfc9110('15.5.6', '405: an Allow field', 'targets'),
  rfc9112('2.2', 'message parsing: CRLF, bare CR, whitespace before the first line', 'messages'),
  rfc9112('2.3', 'the HTTP version', 'messages'),
  rfc9112('3', 'the request line', 'messages'),
  rfc9112('3.2', 'the request target and Host', 'targets'),
  rfc9112('4', 'the status line', 'answers'),
  rfc9112('5.1', 'field line parsing: no whitespace before the colon', 'messages'),
  rfc9112('5.2', 'obsolete line folding', 'messages'),
  rfc9112('6.1', 'Transfer-Encoding', 'messages'),
  rfc9112('6.3', 'the length of a message body', 'messages'),
  rfc9112('7.1', 'the chunked coding, its extensions and trailers', 'messages'),
  rfc9112('9.3', 'persistence and pipelining', 'messages'),
  rfc9112('9.6', 'closing: Connection: close', 'messages'),
  { rfc: 'RFC 3986', section: '2.1', about: 'percent-encoding', owner: 'targets' },
  { rfc: 'RFC 3986', section: '6.2.2', about: 'syntax-based equivalence of targets', owner: 'targets' },
  ...['2', '3', '4', '5', '6', '7', '8'].map((section): MapSection => ({ rfc: 'RFC 8259', section, about: 'JSON texts', owner: 'json-texts' })),
  { rfc: 'RFC 6750', section: '3', about: 'the WWW-Authenticate challenge of bearer authentication', owner: 'challenges' },
];

/** Whether a row of `section` covers `wanted`: the same section, or one below it. */
export function coversSection(section: string, wanted: string): boolean {
  return section === wanted || section.startsWith(`${wanted}.`);
}
