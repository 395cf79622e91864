/**
 * The same id with every letter in the other case. Identifiers are strings (spec 2), so it is another id: a GET of it
 * must not answer the record of the first, and a write to it must not change that record.
 */
export function caseTwinOf(id: string): string | undefined {
  const twin = [...id].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
  return twin === id ? undefined : twin;
}
