/**
 * What traffic looked like, summarised per operation: status codes seen, and
 * for every JSON path of the 2xx bodies (request and response) how often it
 * occurred, with which types, string formats and values, and one example.
 * The drift report compares this with the contract and infers schemas for the
 * records whose fields the spec does not show (reporting/drift.ts). A summary,
 * not the bodies: a run sends thousands of requests, and only the shape matters.
 *
 * Paths are JSON pointers with `*` standing for every array index (the
 * quantity of each offer in a list is one path, "/", "*", "/quantity"). Object and array nodes are counted
 * too, so "seen in every parent" (a required field) can be told from "sometimes".
 */
export type Direction = 'request' | 'response';

export interface PathStats {
  /** How many times a value was present at this path. */
  count: number;
  /** JSON type → occurrences: object, array, string, integer, number, boolean, null. */
  types: Record<string, number>;
  /** String format → occurrences (date-time, date), for schema inference. */
  formats?: Record<string, number>;
  /** String value → occurrences, for the first MAX_VALUES distinct values (enum drift). */
  values?: Record<string, number>;
  /** One value seen here (scalars only, clipped). */
  example?: unknown;
}

export interface BodyStats {
  /** Bodies walked. */
  bodies: number;
  paths: Record<string, PathStats>;
}

export interface OperationStats {
  /** Status code → occurrences, over every response seen (not only walked ones). */
  statuses: Record<string, number>;
  request: BodyStats;
  response: BodyStats;
}

export interface Observations {
  /** Where the traffic came from: "run flis-…", "cassette FILE". */
  sources: string[];
  operations: Record<string, OperationStats>;
}

/** Bodies walked per operation and direction: enough for shape, bounded in cost (listings grow during a run). */
export const MAX_BODIES = 200;
/** Items walked per array. */
export const MAX_ITEMS = 50;
const MAX_VALUES = 20;
const MAX_DEPTH = 12;
const EXAMPLE_CHARS = 120;

export function emptyObservations(): Observations {
  return { sources: [], operations: {} };
}

function emptyOperation(): OperationStats {
  return { statuses: {}, request: { bodies: 0, paths: {} }, response: { bodies: 0, paths: {} } };
}

function operation(obs: Observations, operationId: string): OperationStats {
  obs.operations[operationId] ??= emptyOperation();
  return obs.operations[operationId];
}

export function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function formatOf(s: string): string | undefined {
  if (DATE_TIME.test(s)) return 'date-time';
  if (DATE.test(s)) return 'date';
  return undefined;
}

function bump(map: Record<string, number>, key: string, by = 1): void {
  map[key] = (map[key] ?? 0) + by;
}

function clipExample(v: unknown): unknown {
  return typeof v === 'string' && v.length > EXAMPLE_CHARS ? `${v.slice(0, EXAMPLE_CHARS)}…` : v;
}

function note(paths: Record<string, PathStats>, path: string, v: unknown): void {
  const s = (paths[path] ??= { count: 0, types: {} });
  s.count += 1;
  bump(s.types, jsonType(v));
  if (typeof v === 'string') {
    const f = formatOf(v);
    if (f) bump((s.formats ??= {}), f);
    const values = (s.values ??= {});
    if (v in values || Object.keys(values).length < MAX_VALUES) bump(values, v);
  }
  if (s.example === undefined && v !== null && typeof v !== 'object') s.example = clipExample(v);
}

function walk(paths: Record<string, PathStats>, path: string, v: unknown, depth: number): void {
  note(paths, path, v);
  if (depth >= MAX_DEPTH || v === null || typeof v !== 'object') return;
  if (Array.isArray(v)) {
    for (const item of v.slice(0, MAX_ITEMS)) walk(paths, `${path}/*`, item, depth + 1);
    return;
  }
  for (const [k, child] of Object.entries(v))
    walk(paths, `${path}/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`, child, depth + 1);
}

export interface ObservedExchange {
  operationId: string;
  status: number;
  /** Parsed JSON bodies; undefined when there was none or it was not JSON. */
  requestBody?: unknown;
  responseBody?: unknown;
}

/** Adds one exchange. Only 2xx bodies are walked: an error body is not the contract's shape (spec 7: not shown). */
export function observe(obs: Observations, x: ObservedExchange): void {
  const op = operation(obs, x.operationId);
  bump(op.statuses, String(x.status));
  if (x.status < 200 || x.status > 299) return;
  if (x.requestBody !== undefined && op.request.bodies < MAX_BODIES) {
    op.request.bodies += 1;
    walk(op.request.paths, '', x.requestBody, 0);
  }
  if (x.responseBody !== undefined && op.response.bodies < MAX_BODIES) {
    op.response.bodies += 1;
    walk(op.response.paths, '', x.responseBody, 0);
  }
}

function mergeCounts(into: Record<string, number>, from: Record<string, number> | undefined, cap?: number): void {
  for (const [k, n] of Object.entries(from ?? {})) {
    if (cap === undefined || k in into || Object.keys(into).length < cap) bump(into, k, n);
  }
}

function mergeBody(into: BodyStats, from: BodyStats): void {
  into.bodies += from.bodies;
  for (const [path, s] of Object.entries(from.paths)) {
    const t = (into.paths[path] ??= { count: 0, types: {} });
    t.count += s.count;
    mergeCounts(t.types, s.types);
    if (s.formats) mergeCounts((t.formats ??= {}), s.formats);
    if (s.values) mergeCounts((t.values ??= {}), s.values, MAX_VALUES);
    if (t.example === undefined && s.example !== undefined) t.example = s.example;
  }
}

/** Several summaries as one (the workers of a run, the shards of a CI job, cassettes). */
export function mergeObservations(list: readonly Observations[]): Observations {
  const out = emptyObservations();
  for (const o of list) {
    out.sources.push(...o.sources.filter((s) => !out.sources.includes(s)));
    for (const [id, s] of Object.entries(o.operations)) {
      const op = operation(out, id);
      mergeCounts(op.statuses, s.statuses);
      mergeBody(op.request, s.request);
      mergeBody(op.response, s.response);
    }
  }
  return out;
}
