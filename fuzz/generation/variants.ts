/**
 * Variants: the named entries of the tables the random phase's generators pick from (an edge
 * string, an integer spelling, a malformation, a media type...). Each pick is uniform within its
 * table, and the value or request it makes carries a tag `<table>:<entry>`, so that a sample can
 * be counted against the tables themselves: every entry reached, none starved by a skewed choice
 * (test/fuzz/variants.test.ts). A table of a value inside the body has the value's path in its
 * name (`name/string-edge`, `id/integer-spelling`).
 */

/** A table a generator picks from uniformly: its name and the names of its entries. */
export interface VariantTable {
  readonly name: string;
  readonly entries: readonly string[];
}

/** The tag of one entry of a table. */
export function variantTag(table: string, entry: string): string {
  return `${table}:${entry}`;
}

/** Tables of a value at `path` (`name/`): each name prefixed with it. */
export function tablesAt(path: string, tables: readonly VariantTable[]): VariantTable[] {
  return tables.map((t) => ({ name: path + t.name, entries: t.entries }));
}

/** A table, or none when it would be empty (a schema that leaves nothing to pick). */
export function variantTable(name: string, entries: readonly string[]): VariantTable[] {
  return entries.length === 0 ? [] : [{ name, entries: [...new Set(entries)] }];
}
