/**
 * An offer as the views of spec 4.1 show it, for checks that compare two views or two offers: the element of an Offer
 * array that is the offer (GET /offers/{offerId} answers an array, spec 4.1; the last element with its id is its
 * latest version), and its documented fields (spec 2.2). Undocumented fields are the server's (a time of retrieval, a
 * revision) and are never compared.
 */
import { readSchemaFile } from '../../../schemas/registry.ts';

type Json = Record<string, unknown>;

/** The documented fields of the Offer (spec 2.2), but its id. */
const OFFER_FIELDS = Object.keys((readSchemaFile('offer').properties ?? {}) as Json).filter((k) => k !== 'id');

/** The element of an Offer array that is this offer (the last of its versions, spec 4.1). */
export function offerIn(body: unknown, id: string): Json | undefined {
  if (!Array.isArray(body)) return undefined;
  return body.filter((o): o is Json => typeof o === 'object' && o !== null && (o as Json).id === id).at(-1);
}

/** The documented fields of the offer; `reference`, when given, written as `<reference>` so two offers compare alike. */
export function documentedOffer(offer: Json, reference?: string): Json {
  const out: Json = {};
  for (const k of OFFER_FIELDS) {
    if (!(k in offer)) continue;
    const v = offer[k];
    out[k] =
      reference !== undefined && k === 'references' && Array.isArray(v)
        ? v.map((r) => (r === reference ? '<reference>' : r))
        : v;
  }
  return out;
}

/** The fields in which two shows of one offer differ, with each value. */
export function fieldsThatDiffer(a: Json, b: Json): { field: string; a: unknown; b: unknown }[] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]))
    .map((field) => ({ field, a: a[field], b: b[field] }));
}
