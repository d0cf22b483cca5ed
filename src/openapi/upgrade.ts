/**
 * Contracts written in Swagger 2.0 or OpenAPI 3.0, read as OpenAPI 3.1: upgraded in memory by
 * Scalar's upgrader (@scalar/openapi-upgrader), imported only when a contract needs it so that
 * the bundled 3.1 contract starts as fast as before. The kit writes no converter of its own;
 * the few fix-ups below are what the upgrader leaves out, each named and tested
 * (test/openapi/upgrade.test.ts).
 */
import { asRecord, type Schema } from './types.js';
import { eachObject } from './walk.js';

/** The version a document was written in, as a person names it: `OpenAPI 3.0.3`, `Swagger 2.0`. */
export function writtenIn(document: Schema): string {
  if (typeof document.swagger === 'string') return `Swagger ${document.swagger}`;
  return typeof document.openapi === 'string' ? `OpenAPI ${document.openapi}` : 'an unknown version';
}

/** True for Swagger 2.0 and OpenAPI 3.0.x: the versions the upgrader reads as 3.1. */
export function needsUpgrade(document: Schema): boolean {
  return (typeof document.swagger === 'string' && document.swagger.startsWith('2.')) || (typeof document.openapi === 'string' && document.openapi.startsWith('3.0.'));
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'] as const;

/**
 * Fix-up 1, Swagger 2.0's `x-nullable` (a vendor extension almost every 2.0 generator writes,
 * and the upgrader ignores): it means what 3.0's `nullable` means, which the upgrader turns into
 * `type: [T, "null"]`.
 */
function nullableFromExtension(document: Schema): void {
  eachObject(document, (node) => {
    if (typeof node['x-nullable'] !== 'boolean') return;
    node.nullable = node['x-nullable'];
    delete node['x-nullable'];
  });
}

/**
 * Fix-up 2, an operation's own `produces` (Swagger 2.0): it replaces the document's, but the
 * upgrader prefers the document's (`document.produces ?? operation.produces`). The media types
 * each operation declares are remembered before the upgrade and its responses' content re-keyed
 * after it.
 */
function operationProduces(document: Schema): Map<string, string[]> {
  const produces = new Map<string, string[]>();
  if (!Array.isArray(document.produces)) return produces;
  for (const [path, item] of Object.entries(asRecord(document.paths))) {
    for (const method of HTTP_METHODS) {
      const own = asRecord(asRecord(item)[method]).produces;
      if (Array.isArray(own)) produces.set(`${path} ${method}`, own.filter((type): type is string => typeof type === 'string'));
    }
  }
  return produces;
}

function rekeyResponses(upgraded: Schema, produces: Map<string, string[]>): void {
  for (const [key, types] of produces) {
    const [path = '', method = ''] = key.split(' ');
    for (const response of Object.values(asRecord(asRecord(asRecord(asRecord(upgraded.paths)[path])[method]).responses))) {
      const holder = asRecord(response);
      const [first] = Object.values(asRecord(holder.content));
      if (first === undefined || '$ref' in holder) continue;
      holder.content = Object.fromEntries(types.map((type) => [type, structuredClone(first)]));
    }
  }
}

/**
 * Fix-up 3, `nullable` left behind: OpenAPI 3.0 gives `nullable` a meaning only beside `type`
 * (3.0.3, section 4.7.24.1), and the upgrader converts only that case. ajv knows `nullable` as
 * its own extension and throws on one without `type`; 3.1 has no such keyword, so what is left of
 * it is dropped.
 */
function dropLeftoverNullable(document: Schema): void {
  eachObject(document, (node) => {
    if ('nullable' in node && typeof node.nullable === 'boolean') delete node.nullable;
  });
}

/** Scalar's `upgrade`, as the fix-ups below call it. */
export type Upgrader = (document: Schema, version: '3.1') => unknown;

/**
 * The document as OpenAPI 3.1, upgraded by the `upgrade` given (Scalar's): synchronous, for a
 * caller that has the upgrader loaded already (the MSW handlers import it; it is browser-safe).
 * Other versions are returned as they are. The document given is changed.
 */
export function upgradeDocumentWith(upgrade: Upgrader, document: Schema): Schema {
  if (!needsUpgrade(document)) return document;
  const swagger = typeof document.swagger === 'string';
  const produces = swagger ? operationProduces(document) : new Map<string, string[]>();
  if (swagger) nullableFromExtension(document);
  const upgraded = asRecord(upgrade(document, '3.1'));
  rekeyResponses(upgraded, produces);
  dropLeftoverNullable(upgraded);
  return upgraded;
}

/**
 * The document as OpenAPI 3.1: Swagger 2.0 and OpenAPI 3.0 upgraded by @scalar/openapi-upgrader
 * (loaded on the first call), other versions returned as they are. The document given is changed.
 */
export async function upgradeDocument(document: Schema): Promise<Schema> {
  if (!needsUpgrade(document)) return document;
  const { upgrade } = await import('@scalar/openapi-upgrader');
  return upgradeDocumentWith((given, version) => upgrade(given as Parameters<typeof upgrade>[0], version), document);
}
