/**
 * What one schema node of the OpenAPI document says, as the contract diff compares it: the shared schema it refers
 * to, its allOf branches merged, its types and its enum, and how an enum change is classed in each direction.
 */
import type { ContractChange } from './contract-change.ts';
import type { Json, OpenApiDocument } from './openapi-document.ts';

const SCHEMA_REF = /^#\/components\/schemas\/([^/]+)$/;

/** The shared schema a node refers to ("Offer" of #/components/schemas/Offer), or undefined. */
export function componentOf(node: Json | undefined): string | undefined {
  const ref = node?.$ref;
  const m = typeof ref === 'string' ? SCHEMA_REF.exec(ref) : null;
  return m ? decodeURIComponent(m[1]!).replaceAll('~1', '/').replaceAll('~0', '~') : undefined;
}

/** allOf branches merged into one schema: properties and required of every branch (at most MAX_DEPTH deep). */
export function flatSchema(node: Json | undefined, doc: OpenApiDocument, depth = 0): Json | undefined {
  const n = doc.deref(node);
  if (!n || !Array.isArray(n.allOf)) return n;
  const parts = depth < MAX_DEPTH ? (n.allOf as Json[]).map((x) => flatSchema(x, doc, depth + 1) ?? {}) : [];
  const merged: Json = {
    ...n,
    properties: { ...(n.properties ?? {}) },
    required: [...((n.required as string[]) ?? [])],
  };
  delete merged.allOf;
  for (const p of parts) {
    Object.assign(merged.properties, p.properties ?? {});
    merged.required.push(...((p.required as string[]) ?? []));
    for (const k of ['type', 'enum', 'items', 'nullable'])
      if (merged[k] === undefined && p[k] !== undefined) merged[k] = p[k];
  }
  return merged;
}

export const MAX_DEPTH = 16;

export type Direction = 'request' | 'response';

export function typesOf(n: Json | undefined): string[] | undefined {
  if (!n) return undefined;
  const t = n.type;
  const list = Array.isArray(t) ? (t as string[]) : typeof t === 'string' ? [t] : undefined;
  if (!list) return undefined;
  const out = new Set(list.map((x) => (x === 'integer' ? 'number' : x)));
  if (n.nullable === true) out.add('null');
  return [...out].sort();
}

export function enumOf(n: Json | undefined): unknown[] | undefined {
  if (!n) return undefined;
  if (Array.isArray(n.enum)) return n.enum as unknown[];
  if (n.const !== undefined) return [n.const];
  return undefined;
}

export const show = (v: unknown[]): string => v.map((x) => JSON.stringify(x)).join(', ');

export type EnumChange = Pick<ContractChange, 'id' | 'class' | 'message' | 'allowed'>;

/** A reader breaks on a value it has not seen: an enum widened, or dropped, where one was pinned. */
export function responseEnumChange(
  eo: unknown[] | undefined,
  en: unknown[] | undefined,
  added: unknown[],
  removed: unknown[],
): EnumChange | undefined {
  if (!eo) return { id: 'response-enum-added', class: 'compatible', message: `now pinned to ${show(en ?? [])}` };
  if (!en || added.length)
    return { id: 'response-enum-widened', class: 'breaking', message: `may now be ${en ? show(added) : 'any value'}` };
  if (removed.length)
    return { id: 'response-enum-narrowed', class: 'compatible', message: `no longer ${show(removed)}` };
  return undefined;
}

/** A writer breaks on a value no longer accepted: an enum narrowed, or added where any value was. */
export function requestEnumChange(
  eo: unknown[] | undefined,
  en: unknown[] | undefined,
  added: unknown[],
  removed: unknown[],
): EnumChange | undefined {
  if (!en) return { id: 'request-enum-removed', class: 'compatible', message: 'takes any value now' };
  if (!eo || removed.length)
    return {
      id: 'request-enum-narrowed',
      class: 'breaking',
      allowed: en.map((v) => String(v)),
      message: `accepts only ${show(en)}${eo ? ` (no longer ${show(removed)})` : ''}`,
    };
  if (added.length) return { id: 'request-enum-widened', class: 'compatible', message: `also accepts ${show(added)}` };
  return undefined;
}
