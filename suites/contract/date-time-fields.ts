/**
 * The timestamps of a response: the values at the places its schema marks
 * `format: date-time`, read from the schema files (so a shape of section 2
 * that gains a timestamp is judged without a change here), and whether each
 * is written in UTC (spec 2: "Timestamps are ISO 8601 date-times in UTC").
 */
import { readSchemaFile, type SchemaName } from '../../schemas/registry.ts';

type Json = Record<string, unknown>;

export interface Timestamp {
  pointer: string;
  value: string;
}

function refName(ref: unknown): SchemaName | undefined {
  const m = typeof ref === 'string' ? ref.match(/^([\w-]+)\.schema\.json$/) : null;
  return m ? (m[1] as SchemaName) : undefined;
}

function pointerToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function walk(schema: Json, value: unknown, pointer: string, out: Map<string, string>): void {
  const ref = refName(schema.$ref);
  if (ref) walk(readSchemaFile(ref), value, pointer, out);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const)
    for (const branch of (schema[key] as Json[] | undefined) ?? []) walk(branch, value, pointer, out);
  if (schema.format === 'date-time' && typeof value === 'string') out.set(pointer, value);
  if (Array.isArray(value) && typeof schema.items === 'object' && schema.items !== null)
    for (const [i, item] of value.entries()) walk(schema.items as Json, item, `${pointer}/${i}`, out);
  const props = schema.properties as Record<string, Json> | undefined;
  if (props && typeof value === 'object' && value !== null && !Array.isArray(value))
    for (const [key, sub] of Object.entries(props))
      if (key in value) walk(sub, (value as Json)[key], `${pointer}/${pointerToken(key)}`, out);
}

/** Every value the schema marks as a date-time, with its JSON pointer. */
export function timestampsOf(schema: SchemaName, body: unknown): Timestamp[] {
  const out = new Map<string, string>();
  walk(readSchemaFile(schema), body, '', out);
  return [...out].map(([pointer, value]) => ({ pointer, value }));
}

/** An RFC 3339 date-time (the schemas' `date-time`); its offset is the last group. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?([Zz]|[+-]\d{2}(?::?\d{2})?)$/;

/**
 * Why a timestamp is not in UTC, or undefined. `Z` and a zero offset in any
 * spelling (`+00:00`, `+0000`, `+00`) are UTC; so is `-00:00`, which RFC 3339
 * (section 4.3) defines as a time in UTC whose local offset is unknown: every
 * reading of it names a UTC time. A value that is not a date-time at all is not
 * judged here: that is response-schema's (its schema says `format: date-time`).
 */
export function notUtc(value: string): string | undefined {
  const offset = DATE_TIME.exec(value)?.[1];
  if (offset === undefined) return undefined;
  if (/^[Zz]$/.test(offset) || /^[+-]00(?::?00)?$/.test(offset)) return undefined;
  return `offset ${offset} is not UTC`;
}

/** Whether a schema, through its $refs, has any date-time at all. */
export function hasTimestamps(schema: SchemaName, seen = new Set<SchemaName>()): boolean {
  if (seen.has(schema)) return false;
  seen.add(schema);
  const text = JSON.stringify(readSchemaFile(schema));
  if (text.includes('"date-time"')) return true;
  return [...text.matchAll(/"\$ref":"([\w-]+)\.schema\.json"/g)].some((m) => hasTimestamps(m[1] as SchemaName, seen));
}
