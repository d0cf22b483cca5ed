/**
 * Contracts split over several files: every `$ref` to another file beside the contract is
 * bundled into the one document at load, by @apidevtools/json-schema-ref-parser (imported only
 * when a contract has such a `$ref`). A remote `$ref` (http, https) is refused with its URL and
 * never fetched: a contract that changes with someone else's server is not a single source of
 * truth, and loading must not reach the network.
 */
import { dirname, relative } from 'node:path';
import type { Schema, Unsupported } from './types.js';
import { eachObject } from './walk.js';

const REMOTE = /^https?:\/\//i;

/** A `$ref` of the document that leaves it (to another file or a URL), and where it stands. */
export interface ExternalRef {
  readonly ref: string;
  readonly pointer: string;
}

/** Every `$ref` that does not start with `#`, with the pointer of the object holding it. */
export function externalRefs(document: unknown): ExternalRef[] {
  const found: ExternalRef[] = [];
  eachObject(document, (node, pointer) => {
    if (typeof node.$ref === 'string' && !node.$ref.startsWith('#')) found.push({ ref: node.$ref, pointer });
  });
  return found;
}

export function isRemoteRef(ref: string): boolean {
  return REMOTE.test(ref);
}

/** The refusal of a remote `$ref`, naming its URL. */
export function remoteRefFeature(url: string): string {
  return `the remote $ref ${url} (the kit fetches nothing; save it beside the contract and refer to the file)`;
}

/** What bundling gives: the one document, or the remote `$ref`s that stopped it. */
export type Bundled = { readonly document: Schema } | { readonly refused: readonly Unsupported[] };

/**
 * The document of `file` with every `$ref` to another file bundled in (each file's part placed
 * once, later `$ref`s to it made local). The files are read first; a `$ref` to a URL in any of
 * them is refused, named with the file and the pointer where it stands. The resolver for URLs
 * records and answers an empty object: nothing is fetched.
 */
export async function bundleDocument(file: string, document: Schema): Promise<Bundled> {
  const remote = externalRefs(document).filter(({ ref }) => isRemoteRef(ref));
  if (remote.length > 0) return { refused: remote.map(({ ref, pointer }) => ({ feature: remoteRefFeature(ref), pointer })) };
  const { default: RefParser } = await import('@apidevtools/json-schema-ref-parser');
  const options = { resolve: { http: false as const, remote: { order: 1, canRead: REMOTE, read: () => '{}' } } };
  const files = (await RefParser.resolve(file, document, options)).values() as Record<string, unknown>;
  const refused = Object.entries(files).flatMap(([path, content]) =>
    isRemoteRef(path) ? [] : externalRefs(content).filter(({ ref }) => isRemoteRef(ref)).map(({ ref, pointer }) => ({ feature: remoteRefFeature(ref), pointer: `${relative(dirname(file), path)}#${pointer}` })),
  );
  if (refused.length > 0) return { refused };
  return { document: await RefParser.bundle<Schema>(file, document, options) };
}

/** How deep a copy follows `$ref`s into paths inside what it copies: past it, a `$ref` stays as written. */
const INLINE_DEPTH = 32;

/**
 * The bundled document with every local `$ref` into `#/paths/…` replaced by a copy of what it points
 * at. The bundler places a file's part where it is first met and points the later `$ref`s there -
 * often inside an operation (`#/paths/~1pets/post/responses/200/schema`); upgrading Swagger 2.0 or
 * OpenAPI 3.0 then moves that place (a 2.0 `schema` goes under `content`), and the `$ref` would
 * point at nothing. A copy travels with the upgrade. Refs to components and definitions stay refs.
 */
export function inlineRefsIntoPaths(document: Schema): Schema {
  const at = (pointer: string): unknown =>
    pointer
      .slice(2)
      .split('/')
      .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, segment) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[segment] : undefined), document);
  const copy = (node: unknown, depth: number): unknown => {
    if (Array.isArray(node)) return node.map((item) => copy(item, depth));
    if (node === null || typeof node !== 'object') return node;
    const record = node as Record<string, unknown>;
    if (typeof record.$ref === 'string' && record.$ref.startsWith('#/paths/') && depth < INLINE_DEPTH) {
      const target = at(record.$ref);
      if (target !== undefined) return copy(target, depth + 1);
    }
    return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, copy(value, depth)]));
  };
  return copy(document, 0) as Schema;
}
