/**
 * The lenient variant's reading of an offer write (variant.ts `lenientInput`):
 * what a forgiving but conformant server does with input the spec does not let
 * a client send. Fields of the wrong type are dropped (the rest is stored), a
 * bulk item without a string id is given one by the route, no body counts as
 * {}. A body that is not an object (or, for bulk, not an array of objects)
 * still cannot be read as an offer, so it is refused with a 400.
 */
import type { SchemaName, SchemaViolation } from '../schemas/registry.ts';
import { invalidBody } from './errors.ts';
import { isObject } from './json.ts';
import { violationsOf } from './validation.ts';

/** Enough passes to peel nested wrong values; each pass removes at least one. */
const MAX_PASSES = 20;

function removeAt(root: unknown, pointer: string): void {
  const keys = pointer
    .split('/')
    .slice(1)
    .map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
  const last = keys.pop();
  let node: unknown = root;
  for (const k of keys) node = isObject(node) || Array.isArray(node) ? (node as Record<string, unknown>)[k] : undefined;
  if (last === undefined) return;
  if (Array.isArray(node)) node.splice(Number(last), 1);
  else if (isObject(node)) delete node[last];
}

/** A missing required field is not a wrong value: nothing to drop (the bulk route assigns a missing id). */
function droppable(v: SchemaViolation): boolean {
  return v.pointer !== '' && !v.schemaPath.endsWith('/required');
}

function shapeOk(schema: SchemaName, body: unknown): boolean {
  if (schema === 'offer-bulk') return Array.isArray(body) && body.every(isObject);
  return isObject(body);
}

/** The body with every wrongly typed field dropped; a 400 when it is not even the right kind of JSON value. */
export function leniently(schema: SchemaName, body: unknown, extra: (b: unknown) => SchemaViolation[]): unknown {
  const copy = structuredClone(body ?? {});
  if (!shapeOk(schema, copy)) throw invalidBody(`the body cannot be read as ${schema}`);
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const wrong = [...violationsOf(schema, copy), ...extra(copy)].filter(droppable);
    if (wrong.length === 0) break;
    // Deepest first, and array items from the end, so one removal never shifts another's pointer.
    for (const pointer of [...new Set(wrong.map((v) => v.pointer))].sort().reverse()) removeAt(copy, pointer);
  }
  if (schema === 'offer-bulk')
    for (const item of copy as Record<string, unknown>[]) if (typeof item.id !== 'string') delete item.id;
  return copy;
}
