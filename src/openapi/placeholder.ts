/**
 * The body of an answer in a media type the kit neither checks nor writes from a schema (XML,
 * HTML, an image) where the contract gives no example of it: one meaning for the reference and
 * the mock, so that the two answer alike. The contract declares content of that type, so the
 * answer is of that type: no bytes - or, for XML (RFC 7303), the smallest well-formed document,
 * an empty root element, since empty text is no XML document. Its content is not checked.
 */
import type { MediaVariant } from './content.js';
import type { Contract } from './contract.js';

/** Whether a media type is XML (RFC 7303: `application/xml`, `text/xml`, a `+xml` suffix). */
function isXml(essence: string): boolean {
  return essence === 'application/xml' || essence === 'text/xml' || essence.endsWith('+xml');
}

/** The root element of an XML answer: the schema's `xml.name`, else its component's name (OpenAPI's XML Object), else `root`. */
function xmlRoot(contract: Contract, schema: MediaVariant['schema']): string {
  const ref = typeof schema?.$ref === 'string' ? schema.$ref : undefined;
  const xml = schema === undefined ? undefined : contract.resolve(schema).xml;
  const named = typeof xml === 'object' && xml !== null && 'name' in xml && typeof xml.name === 'string' ? xml.name : ref?.slice(ref.lastIndexOf('/') + 1);
  return named !== undefined && /^[A-Za-z_][\w.-]*$/.test(named) ? named : 'root';
}

/** The placeholder body of an answer of `variant` (above). */
export function placeholderBody(contract: Contract, variant: MediaVariant): string {
  return isXml(variant.essence) ? `<?xml version="1.0" encoding="UTF-8"?>\n<${xmlRoot(contract, variant.schema)}/>\n` : '';
}
