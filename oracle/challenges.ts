/** The challenges a `WWW-Authenticate` value lists, by scheme (RFC 9110, section 11.6.1). */


/** A `WWW-Authenticate` value with a challenge for `scheme` (RFC 9110, section 11.6.1; several challenges may be listed). */
export function challenges(header: string | undefined, scheme: string): boolean {
  return header !== undefined && challengeSchemes(header).some((s) => s.toLowerCase() === scheme.toLowerCase());
}

/**
 * The schemes of the challenges a `WWW-Authenticate` value lists, in order (RFC 9110, section
 * 11.6.1: `#challenge`, each `auth-scheme [ 1*SP ( token68 / #auth-param ) ]`). The list is split
 * at commas outside quoted strings; an element that starts with `name=` is a parameter of the
 * challenge before it, any other starts a challenge with its first word. Repeated header lines
 * arrive joined with `, ` (RFC 9110, section 5.3), so they read as one list.
 */
export function challengeSchemes(header: string): string[] {
  const elements: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < header.length; i++) {
    const c = header.charAt(i);
    if (quoted && c === '\\') {
      current += c + header.charAt(i + 1);
      i++;
    } else if (c === '"') {
      quoted = !quoted;
      current += c;
    } else if (c === ',' && !quoted) {
      elements.push(current);
      current = '';
    } else current += c;
  }
  elements.push(current);
  return elements.flatMap((element) => {
    const text = element.trim();
    if (text === '' || /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+[ \t]*=/.test(text)) return [];
    const scheme = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+(?=[ \t]|$)/.exec(text)?.[0];
    return scheme === undefined ? [] : [scheme];
  });
}
