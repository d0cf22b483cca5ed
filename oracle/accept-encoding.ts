/**
 * Content codings as HTTP names them (RFC 9110, section 8.4) and which ones a request's
 * Accept-Encoding accepts (section 12.5.3): the grammar the `content-coding` check judges by and
 * the engine's client reads Content-Encoding with.
 */

/** A coding's name as compared: lower case, `x-gzip` as `gzip` (RFC 9110, section 8.4.1.3). */
export function codingName(coding: string): string {
  const name = coding.trim().toLowerCase();
  return name === 'x-gzip' ? 'gzip' : name;
}

/** The codings of a Content-Encoding or Transfer-Encoding value, in the order they were applied. */
export function codingList(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .split(',')
    .map(codingName)
    .filter((c) => c !== '');
}

interface Preference {
  readonly coding: string;
  readonly q: number;
}

/** `gzip;q=0.8, *;q=0` as codings and weights (RFC 9110, section 12.4.2: a weight is `q=` and a number from 0 to 1). */
function preferences(acceptEncoding: string): Preference[] {
  return acceptEncoding
    .split(',')
    .map((item) => item.split(';').map((part) => part.trim()))
    .filter(([coding]) => coding !== undefined && coding !== '')
    .map(([coding = '', ...parameters]) => {
      const weight = parameters.find((p) => /^q\s*=/i.test(p));
      const q = weight === undefined ? 1 : Number(weight.replace(/^q\s*=\s*/i, ''));
      return { coding: codingName(coding), q: Number.isFinite(q) ? q : 1 };
    });
}

/**
 * Whether a request with this Accept-Encoding accepts an answer in `coding` (RFC 9110, section
 * 12.5.3): without the field, any coding; an empty field, only `identity`; a coding listed with a
 * weight above 0; an unlisted one where `*` has a weight above 0; `identity` unless it is listed
 * with q=0, or `*;q=0` is listed and `identity` is not.
 */
export function acceptsCoding(acceptEncoding: string | undefined, coding: string): boolean {
  if (acceptEncoding === undefined) return true;
  const name = codingName(coding);
  const listed = preferences(acceptEncoding);
  const own = listed.find((p) => p.coding === name);
  if (own !== undefined) return own.q > 0;
  const any = listed.find((p) => p.coding === '*');
  if (name === 'identity') return any === undefined || any.q > 0;
  return any !== undefined && any.q > 0;
}
