/**
 * A media type's essence: `type/subtype` without its parameters, lower-cased (RFC 9110, section
 * 8.3.1: type, subtype and parameter names are case-insensitive; whitespace around the `;` is
 * optional). `Application/JSON ; charset=utf-8` → `application/json`; none → ``.
 */
export function mediaTypeEssence(contentType: string | undefined): string {
  if (contentType === undefined) return '';
  const end = contentType.indexOf(';');
  return (end === -1 ? contentType : contentType.slice(0, end)).trim().toLowerCase();
}

/** The structured syntax suffix of an essence (RFC 6838, section 4.2.8): `application/problem+json` → `json`; none → undefined. */
export function structuredSuffix(essence: string): string | undefined {
  const plus = essence.lastIndexOf('+');
  return plus === -1 || plus < essence.indexOf('/') ? undefined : essence.slice(plus + 1);
}
