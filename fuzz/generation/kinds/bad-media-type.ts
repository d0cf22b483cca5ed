/**
 * `bad-media-type`: a valid NewPlant labelled with a media type the operation does not declare,
 * with valid credentials: types that are clearly something else, and types that only share a
 * prefix with a declared one (`application/json-seq`, `application/jsonx`), which a server that
 * tests the header with `startsWith` takes for JSON.
 *
 * Left out on purpose: `text/json` and `application/*+json` (common frameworks accept them as
 * JSON, and the contract does not say they must not), and a missing Content-Type (some frameworks
 * parse such a body as JSON).
 */
import fc from 'fast-check';
import { tagsOf } from '../json-text.js';
import { variantTable, variantTag } from '../variants.js';
import type { KindContext } from '../tables/context.js';
import { requestKind } from './kind.js';

/** Media types that are clearly not the declared JSON. */
export const OTHER_MEDIA_TYPES: readonly string[] = [
  'text/plain',
  'text/plain; charset=utf-8',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=plant',
  'application/octet-stream',
  'text/html',
  'image/png',
];

/**
 * What is appended to a declared type to make another that starts with it: registered and
 * common types of their own (RFC 7464 JSON text sequences, JSON Lines, JSON5, IBM's JSONx), and
 * a suffix with no meaning.
 */
export const PREFIX_SUFFIXES: readonly string[] = ['-seq', 'l', '5', 'x', '-patch', 'whatever'];

/** Types that start with a declared media type without being it: `application/json-seq`. */
export function prefixTypes(declared: readonly string[]): string[] {
  return declared.flatMap((type) => PREFIX_SUFFIXES.map((suffix) => `${type}${suffix}`));
}

/** Every media type the kind sends for the operation: the clearly other ones, and the ones that share a prefix with a declared one. */
export function undeclaredTypes(context: KindContext): string[] {
  const declared = new Set(context.requestBody.mediaTypes.map((t) => t.toLowerCase()));
  const candidates = [...OTHER_MEDIA_TYPES, ...prefixTypes(context.requestBody.mediaTypes)];
  return [...new Set(candidates)].filter((t) => !declared.has((t.split(';')[0] ?? '').trim().toLowerCase()));
}

export const badMediaType = requestKind({
  name: 'bad-media-type',
  description: 'a valid NewPlant sent as text/plain, XML, a form, multipart, octet-stream, HTML, an image, or a type that only starts like application/json (application/json-seq, application/jsonx)',
  weight: 8,
  random: (context) =>
    fc
      .record({ model: context.body, layout: context.layout, auth: context.goodAuth, type: fc.constantFrom(...undeclaredTypes(context)) })
      .map(({ model, layout, auth, type }) =>
        context.make({ kind: 'bad-media-type', variant: `Content-Type: ${type}`, content: 'invalid', auth, contentType: type, body: context.text(model, layout), tags: [variantTag('media-type', type), ...tagsOf(model)] }),
      ),
  coverage: (context) =>
    undeclaredTypes(context).map((type, n) =>
      context.make({ kind: 'bad-media-type', variant: `Content-Type: ${type}`, content: 'invalid', auth: context.validAuth, contentType: type, body: context.text(context.plainBody(n)), tags: [variantTag('media-type', type)] }),
    ),
  variants: (context) => variantTable('media-type', undeclaredTypes(context)),
});
