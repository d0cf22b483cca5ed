/**
 * Contracts split over several files: every `$ref` to another file beside the contract is
 * bundled into the one document at load, by @apidevtools/json-schema-ref-parser (imported only
 * when a contract has such a `$ref`). A remote `$ref` (http, https) is refused with its URL and
 * never fetched: a contract that changes with someone else's server is not a single source of
 * truth, and loading must not reach the network.
 */
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
 * once, later `$ref`s to it made local). `$ref`s inside the files it refers to that point to a
 * URL are caught by a resolver that records them and answers an empty object: nothing is fetched.
 */
export async function bundleDocument(file: string, document: Schema): Promise<Bundled> {
  const remote = externalRefs(document).filter(({ ref }) => isRemoteRef(ref));
  if (remote.length > 0) return { refused: remote.map(({ ref, pointer }) => ({ feature: remoteRefFeature(ref), pointer })) };
  const { default: RefParser } = await import('@apidevtools/json-schema-ref-parser');
  const fetched: Unsupported[] = [];
  const bundled = await RefParser.bundle(file, document, {
    resolve: {
      http: false,
      remote: {
        order: 1,
        canRead: REMOTE,
        read: (info: { url: string }) => {
          // A $ref in a file beside the contract; its place in that file is not known here.
          fetched.push({ feature: `${remoteRefFeature(info.url)}, in a file the contract refers to`, pointer: '' });
          return '{}';
        },
      },
    },
  });
  return fetched.length > 0 ? { refused: fetched } : { document: bundled as Schema };
}
