/**
 * `bad-media-type`: a valid NewPlant labelled with a media type the operation does not declare,
 * with valid credentials.
 *
 * Left out on purpose: `text/json` and `application/*+json` (common frameworks accept them as
 * JSON, and the contract does not say they must not), and a missing Content-Type (some frameworks
 * parse such a body as JSON).
 */
import fc from 'fast-check';
import type { KindContext } from './context.js';
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

function otherTypes(context: KindContext): string[] {
  const declared = new Set(context.requestBody.mediaTypes.map((t) => t.toLowerCase()));
  return OTHER_MEDIA_TYPES.filter((t) => !declared.has((t.split(';')[0] ?? '').trim()));
}

export const badMediaType = requestKind({
  name: 'bad-media-type',
  description: 'a valid NewPlant sent as text/plain, XML, a form, multipart, octet-stream, HTML or an image',
  weight: 8,
  random: (context) =>
    fc
      .record({ model: context.body, layout: context.layout, auth: context.goodAuth, type: fc.constantFrom(...otherTypes(context)) })
      .map(({ model, layout, auth, type }) => context.make({ kind: 'bad-media-type', variant: `Content-Type: ${type}`, content: 'invalid', auth, contentType: type, body: context.text(model, layout) })),
  coverage: (context) => otherTypes(context).map((type, n) => context.make({ kind: 'bad-media-type', variant: `Content-Type: ${type}`, content: 'invalid', auth: context.validAuth, contentType: type, body: context.text(context.plainBody(n)) })),
});
