/**
 * How the conformant variants show section 4.3 records, whose bodies the spec does not show (spec 4.3): as written
 * (the default), or with only the ids and what the server itself says of the record (`catalogueBodies: 'ids'`);
 * by id bare or inside a wrapper (`catalogueWrapped`); lists as bare arrays or as pages with a sign of the next one
 * (`catalogueLists: 'paged'`; spec 8: the page size is not shown). A client may rely on none of these.
 */
import { isObject, type JsonObject } from './json.ts';
import type { MockVariant } from './variant.ts';

/** Where a stored record keeps the names of the fields its client wrote (`catalogueBodies: 'ids'` only). */
const WRITTEN = '_written';

/** A record as stored from a client's body: under `ids`, it remembers which of its fields the client wrote. */
export function storedFrom(variant: MockVariant, body: JsonObject, record: JsonObject): JsonObject {
  return variant.catalogueBodies === 'ids' ? { ...record, [WRITTEN]: Object.keys(body) } : record;
}

/** Records a page of a paged list holds. */
export const CATALOGUE_PAGE_SIZE = 5;

/** The record without the fields its client wrote (ids and what the server set stay), under `ids`. */
function shown(record: JsonObject, pathParams: readonly string[]): JsonObject {
  const written = record[WRITTEN];
  if (!Array.isArray(written)) return record;
  const hidden = new Set(
    written.filter((k): k is string => typeof k === 'string' && k !== 'id' && !pathParams.includes(k)),
  );
  return Object.fromEntries(Object.entries(record).filter(([k]) => k !== WRITTEN && !hidden.has(k)));
}

/** One record as a GET by id answers it. */
export function recordAnswer(variant: MockVariant, record: JsonObject, pathParams: readonly string[]): JsonObject {
  const body = shown(record, pathParams);
  return variant.catalogueWrapped ? { data: body } : body;
}

/** A list of records as a GET of a collection answers it. */
export function listAnswer(
  variant: MockVariant,
  records: readonly JsonObject[],
  pathParams: readonly string[],
): JsonObject[] | JsonObject {
  const items = records.map((r) => (isObject(r) ? shown(r, pathParams) : r));
  if (variant.catalogueLists !== 'paged') return items;
  const page = items.slice(0, CATALOGUE_PAGE_SIZE);
  return {
    items: page,
    total: items.length,
    next: items.length > CATALOGUE_PAGE_SIZE ? `cursor-${CATALOGUE_PAGE_SIZE}` : null,
  };
}

/** What a DELETE leaves when the variant keeps deleted records, saying so (`catalogueDelete: 'mark'`). */
export function markedDeleted(record: JsonObject): JsonObject {
  return { ...record, deleted: true, deletedAt: new Date().toISOString() };
}
