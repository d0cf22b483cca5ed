/**
 * A parameter's text and the value it spells. A path, query or header parameter is text (RFC
 * 3986, sections 3.3 and 3.4: a path segment and a query are strings of characters; OpenAPI 3.1,
 * section 4.8.12.3: each style is an RFC 6570 expansion, whose variable values are strings,
 * RFC 6570 section 2.3), and servers read it with their framework's text reader, not a JSON parser: FastAPI
 * answers `5.0` for an integer with 422, Spring with 400, Express leaves it a string. So the valid
 * spelling of a value is its canonical text:
 *
 * - an integer: its decimal digits, `-` before a negative one (`0`, `42`, `-7`);
 * - a number: the same, with a fraction where it has one (`2.5`, `-0.125`), never an exponent;
 * - a boolean: `true` or `false`.
 *
 * Every other spelling of a value (`1.0`, `1e2`, `+1`, `007`, `-0`, `TRUE`) is a probe the
 * contract leaves to the server: a 2xx and a declared 4xx both keep it. The engine sends such
 * probes (fuzz/generation/tables/parameter-probes.ts); an observer classifies them open (classify.ts).
 */
import type { ParameterContract } from '../src/openapi/index.js';

/** A parameter's value as a request carries it: one text, or a list's items. */
type ParameterText = string | readonly string[];

/** Why a request with another spelling of a valid parameter value may be accepted or refused (RequestCase.open). */
export const PARAMETER_SPELLING_OPENNESS =
  'a parameter is text (RFC 3986, section 3.3; OpenAPI 3.1, section 4.8.12.3): the valid spelling of a number is its decimal digits with an optional - sign and fraction, of a boolean true or false; other spellings of the same value may be read or refused';

/** A numeral: an optional sign, digits (leading zeros allowed), a fraction, an exponent. */
const NUMERAL = /^([+-]?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;
/** Exponents beyond this are not expanded into digits (a probe such as 1e400 is judged by the contract as it is). */
const MAX_EXPONENT = 400;

/** The canonical decimal text of a numeral (`+1.50e1` → `15`), or undefined for text that is not one. */
export function canonicalNumeral(text: string): string | undefined {
  const match = NUMERAL.exec(text);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = match;
  const exponent = Number(exponentText);
  if (Math.abs(exponent) > MAX_EXPONENT) return undefined;
  // The digits without a point, and where the point goes: digits × 10^(point - digits.length).
  const digits = whole + fraction;
  const point = whole.length + exponent;
  const padded = point <= 0 ? '0'.repeat(1 - point) + digits : point > digits.length ? digits + '0'.repeat(point - digits.length) : digits;
  const at = Math.max(point, 1);
  const integer = padded.slice(0, at).replace(/^0+(?=\d)/, '');
  const decimals = padded.slice(at).replace(/0+$/, '');
  const magnitude = decimals === '' ? integer : `${integer}.${decimals}`;
  return sign === '-' && /[1-9]/.test(magnitude) ? `-${magnitude}` : magnitude;
}

/** The canonical text of the value `text` spells for a scalar type, or undefined where it spells none (a string's text is its own). */
export function canonicalSpelling(scalar: ParameterContract['scalar'], text: string): string | undefined {
  if (scalar === 'string') return text;
  if (scalar === 'boolean') return /^(true|false)$/i.test(text) ? text.toLowerCase() : undefined;
  return canonicalNumeral(text);
}

/** The parameter's text with every item in its canonical spelling (items that spell no value of the type unchanged). */
export function canonicalText(parameter: ParameterContract, text: ParameterText): ParameterText {
  const canonical = (item: string): string => canonicalSpelling(parameter.scalar, item) ?? item;
  return typeof text === 'string' ? canonical(text) : text.map(canonical);
}

/** Whether the text is a value's spelling other than its canonical one (`1.0`, `+1`, `-0`, `TRUE`). */
export function isOtherSpelling(parameter: ParameterContract, text: ParameterText): boolean {
  const items = typeof text === 'string' ? [text] : text;
  return items.some((item) => {
    const canonical = canonicalSpelling(parameter.scalar, item);
    return canonical !== undefined && canonical !== item;
  });
}
