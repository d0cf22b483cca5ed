/**
 * `json-charset`: a JSON answer labels no charset but UTF-8. JSON exchanged between systems is
 * UTF-8 (RFC 8259, section 8.1), and application/json defines no charset parameter (section 11:
 * adding one "really has no effect on compliant recipients"), so `charset=utf-8` is harmless.
 * Another charset is a failure when the body is indeed not UTF-8 (it is then not JSON as RFC 8259
 * has it), and a warning when the body is UTF-8 and only the label is wrong: compliant parsers
 * ignore it, but clients that honour the label (Python's requests, .NET's ReadAsStringAsync, any
 * text/* machinery) decode the body with it and misread every non-ASCII character.
 */
import { exchangeCheck, failure, warning } from '../check.js';
import { bodyUnreadable } from '../answer-facts.js';
import { isJsonMediaType, mediaTypeParameter } from '../media-types.js';
import { describeRequest } from '../messages.js';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** Whether a charset label names UTF-8 (the WHATWG Encoding Standard's labels: `utf-8`, `utf8`, `unicode-1-1-utf-8`, …). */
export function isUtf8Label(label: string): boolean {
  try {
    return new TextDecoder(label.trim()).encoding === 'utf-8';
  } catch {
    return false;
  }
}

function isUtf8(bytes: Uint8Array): boolean {
  try {
    strictUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

export const jsonCharset = exchangeCheck({
  name: 'json-charset',
  description: 'a JSON answer declares no charset but UTF-8 (RFC 8259, sections 8.1 and 11): another one is a failure when the body is not UTF-8, a warning when only the label is wrong',
  applies: (_request, outcome) => outcome.kind === 'response' && !bodyUnreadable(outcome) && isJsonMediaType(outcome.headers['content-type']),
  judge: (request, outcome) => {
    if (outcome.kind !== 'response') return [];
    const type = outcome.headers['content-type'];
    const charset = mediaTypeParameter(type, 'charset');
    if (charset === undefined || isUtf8Label(charset)) return [];
    const label = `Content-Type "${type ?? ''}" declares the charset ${charset}`;
    if (!isUtf8(outcome.body)) {
      return [failure(`${label} and the body is not UTF-8: JSON exchanged between systems MUST be UTF-8 (RFC 8259, section 8.1); status ${outcome.status}; ${describeRequest(request)}`)];
    }
    const nonAscii = outcome.body.some((b) => b >= 0x80);
    return [
      warning(
        `${label}, but the body is UTF-8, as JSON must be (RFC 8259, section 8.1; application/json has no charset parameter, section 11): a client that honours the label ${nonAscii ? "misreads this answer's non-ASCII characters" : 'misreads any non-ASCII character'}; status ${outcome.status}; ${describeRequest(request)}`,
      ),
    ];
  },
});
