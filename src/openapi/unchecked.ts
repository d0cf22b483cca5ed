/**
 * What a contract declares that the kit loads but does not exercise or check, named once in the
 * banners instead of refusing the document: callbacks and webhooks (the kit sends no requests of
 * its own), formats nobody defined, and OpenAPI 3.2's additions the kit does not serve.
 */
import { asRecord, encodePointerSegment, type RefuseFeature, type Schema } from './types.js';
import { eachObject } from './walk.js';

const NOT_EXERCISED = 'not exercised: the kit sends no requests of its own';

/** Every `format` of the document that `known` does not know, each with where it stands. */
export function unknownFormats(document: Schema, known: (format: string) => boolean): { format: string; pointer: string }[] {
  const found: { format: string; pointer: string }[] = [];
  eachObject(document, (node, pointer) => {
    if (typeof node.format === 'string' && !known(node.format) && !inExtension(pointer)) found.push({ format: node.format, pointer: `${pointer}/format` });
  });
  return found;
}

/** Names a schema keyword's place holds where a `x-` key is a name, not an extension: properties, definitions. */
const NAMING = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'schemas', 'dependentSchemas']);

/**
 * Whether a pointer runs through a specification extension (`x-origin`, OpenAPI 3.1 section 4.9):
 * what is under one is the vendor's, not a schema (APIs.guru's `x-origin` holds `format: swagger`).
 */
function inExtension(pointer: string): boolean {
  const segments = pointer.split('/');
  return segments.some((segment, i) => segment.startsWith('x-') && !NAMING.has(segments[i - 1] ?? ''));
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace', 'query'] as const;

/** Tells `note` each callback, webhook and OpenAPI 3.2 addition the kit loads but does not serve. */
export function namedUnchecked(document: Schema, note: RefuseFeature): void {
  for (const name of Object.keys(asRecord(document.webhooks))) note(`webhooks (${NOT_EXERCISED})`, `/webhooks/${encodePointerSegment(name)}`);
  const v32 = typeof document.openapi === 'string' && document.openapi.startsWith('3.2.');
  if (v32 && typeof document.$self === 'string') note('$self (OpenAPI 3.2; the kit resolves $refs against the file the contract is read from)', '/$self');
  for (const [path, rawItem] of Object.entries(asRecord(document.paths))) {
    const item = asRecord(rawItem);
    const at = `/paths/${encodePointerSegment(path)}`;
    for (const method of METHODS) {
      const operation = asRecord(item[method]);
      for (const name of Object.keys(asRecord(operation.callbacks))) note(`callbacks (${NOT_EXERCISED})`, `${at}/${method}/callbacks/${encodePointerSegment(name)}`);
      // OpenAPI 3.1 makes `responses` optional: an operation without promises no status and no body.
      if (method !== 'query' && Object.keys(operation).length > 0 && Object.keys(asRecord(operation.responses)).length === 0) note('an operation that declares no responses (answered 200 with no content; its answers are not checked)', `${at}/${method}`);
    }
    if (!v32) continue;
    // OpenAPI 3.2, section 4.8.9: the QUERY method and other methods in additionalOperations.
    if (item.query !== undefined) note('the QUERY method (OpenAPI 3.2; not served)', `${at}/query`);
    for (const method of Object.keys(asRecord(item.additionalOperations))) note(`the method ${method} in additionalOperations (OpenAPI 3.2; not served)`, `${at}/additionalOperations/${encodePointerSegment(method)}`);
  }
  if (v32) noteItemSchemas(document, note);
}

/** OpenAPI 3.2's `itemSchema` (sequential media types, such as JSON Lines and server-sent events), in a media type object. */
function noteItemSchemas(document: Schema, note: RefuseFeature): void {
  eachObject(document, (node, pointer) => {
    if (node.itemSchema !== undefined && /\/content\/[^/]+$/.test(pointer)) note('itemSchema (OpenAPI 3.2 sequential media types; the items are not checked)', `${pointer}/itemSchema`);
  });
}
