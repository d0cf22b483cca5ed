/**
 * Media types as the checks read them (RFC 9110, section 8.3.1): a JSON type, a parameter. The
 * essence (the type without parameters) is the contract layer's `mediaTypeEssence`.
 */
import { mediaTypeEssence } from '../src/openapi/index.js';

/** A JSON media type: application/json or any `+json` suffix (RFC 6839, section 3.1). */
export function isJsonMediaType(contentType: string | undefined): boolean {
  const type = mediaTypeEssence(contentType);
  return type === 'application/json' || /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+\+json$/.test(type);
}

/** A parameter of a media type, its name case-insensitive, a quoted-string unquoted (RFC 9110, sections 5.6.6 and 8.3.1). */
export function mediaTypeParameter(contentType: string | undefined, name: string): string | undefined {
  const parameters = /;(.*)$/s.exec(contentType ?? '')?.[1] ?? '';
  const pattern = /\s*([!#$%&'*+\-.^_`|~0-9A-Za-z]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;\s]*)\s*(?:;|$)/g;
  for (const match of parameters.matchAll(pattern)) {
    const [, key = '', raw = ''] = match;
    if (key.toLowerCase() === name.toLowerCase()) return raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
  }
  return undefined;
}
