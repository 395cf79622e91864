/**
 * Proposes a JSON Schema from observed traffic, for the records whose fields
 * the spec does not show (spec 2.7: bookings, drivers, fuel records, …), so
 * the contract can grow from real data. A proposal, never a rule: types seen,
 * string formats seen on every value, fields present in every instance as
 * required, and one example each.
 */
import type { BodyStats, PathStats } from '../core/observations.ts';

export type JsonSchema = Record<string, unknown>;

function childrenIndex(paths: Record<string, PathStats>): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const p of Object.keys(paths)) {
    if (p === '') continue;
    const parent = p.slice(0, p.lastIndexOf('/'));
    const list = out.get(parent) ?? [];
    list.push(p);
    out.set(parent, list);
  }
  return out;
}

function typeOf(s: PathStats): string | string[] {
  const types = new Set(Object.keys(s.types));
  // An integer is a number: a field seen as both is a number.
  if (types.has('integer') && types.has('number')) types.delete('integer');
  const list = [...types].sort();
  return list.length === 1 ? (list[0] as string) : list;
}

function lastSegment(path: string): string {
  return path
    .slice(path.lastIndexOf('/') + 1)
    .replaceAll('~1', '/')
    .replaceAll('~0', '~');
}

function inferAt(paths: Record<string, PathStats>, index: Map<string, string[]>, path: string): JsonSchema {
  const s = paths[path];
  if (!s) return {};
  const schema: JsonSchema = { type: typeOf(s) };
  const strings = s.types.string ?? 0;
  const format = Object.entries(s.formats ?? {}).find(([, n]) => strings > 0 && n === strings)?.[0];
  if (format) schema.format = format;
  if (s.example !== undefined) schema.examples = [s.example];
  const objects = s.types.object ?? 0;
  const children = (index.get(path) ?? []).filter((c) => !c.endsWith('/*'));
  if (objects > 0) {
    schema.properties = Object.fromEntries(children.sort().map((c) => [lastSegment(c), inferAt(paths, index, c)]));
    const required = children
      .filter((c) => (paths[c]?.count ?? 0) >= objects)
      .map(lastSegment)
      .sort();
    if (required.length) schema.required = required;
  }
  if ((s.types.array ?? 0) > 0 && paths[`${path}/*`]) schema.items = inferAt(paths, index, `${path}/*`);
  return schema;
}

export function inferSchema(stats: BodyStats, title: string, description: string): JsonSchema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title,
    description,
    'x-flis-inferred-from-bodies': stats.bodies,
    ...inferAt(stats.paths, childrenIndex(stats.paths), ''),
  };
}
