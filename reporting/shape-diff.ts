/**
 * Where two deployments' answers to the same requests differ beyond what the
 * contract leaves open. Open (never reported as a difference): the exact 2xx
 * or 4xx code (success and error codes are not shown), values, ordering,
 * undocumented extra fields, null against a value for a nullable field, and
 * anything in the bodies of the section 4.3 operations (not shown). Reported:
 * one deployment succeeding where the other refuses or fails (status class),
 * a documented field present in one answer's objects and absent from the
 * other's, and a documented field of a pinned type answered as another type.
 */
import type { SchemaName } from '../schemas/registry.ts';
import { operationById } from '../specs/contract.ts';
import { emptyObservations, observe, type BodyStats } from '../core/observations.ts';
import { lookup } from './schema-walk.ts';

export interface ObservedAnswer {
  status: number;
  body?: unknown;
}

export interface PairedAnswers {
  operationId: string;
  /** What was sent, for the report ("GET /offers?start=…"). */
  request: string;
  a: ObservedAnswer;
  b: ObservedAnswer;
}

export interface Difference {
  operationId: string;
  kind: 'status' | 'field-presence' | 'field-type';
  path?: string;
  a: string;
  b: string;
  /** One request that shows it. */
  request: string;
}

function statusClass(s: number): string {
  return `${Math.floor(s / 100)}xx`;
}

function bodyStats(answers: ObservedAnswer[]): BodyStats {
  const obs = emptyObservations();
  for (const x of answers)
    observe(obs, { operationId: 'x', status: x.status, ...(x.body !== undefined ? { responseBody: x.body } : {}) });
  return obs.operations.x?.response ?? { bodies: 0, paths: {} };
}

function parentOf(path: string): string {
  return path.slice(0, path.lastIndexOf('/'));
}

function typesOf(stats: BodyStats, path: string): string[] {
  const t = Object.keys(stats.paths[path]?.types ?? {})
    .filter((x) => x !== 'null')
    .map((x) => (x === 'integer' ? 'number' : x));
  return [...new Set(t)].sort();
}

function shapeDifferences(operationId: string, schema: SchemaName, pairs: PairedAnswers[]): Difference[] {
  const ok = pairs.filter((p) => p.a.status < 300 && p.a.status >= 200 && p.b.status < 300 && p.b.status >= 200);
  if (ok.length === 0) return [];
  const a = bodyStats(ok.map((p) => p.a));
  const b = bodyStats(ok.map((p) => p.b));
  const request = ok[0]?.request ?? '';
  const out: Difference[] = [];
  for (const path of [...new Set([...Object.keys(a.paths), ...Object.keys(b.paths)])].sort()) {
    const verdict = lookup(schema, path);
    if (verdict.kind !== 'documented' || path === '') continue;
    const parent = parentOf(path);
    const inA = path in a.paths;
    const inB = path in b.paths;
    const parentsBoth = (a.paths[parent]?.types.object ?? 0) > 0 && (b.paths[parent]?.types.object ?? 0) > 0;
    if (inA !== inB && parentsBoth) {
      out.push({
        operationId,
        kind: 'field-presence',
        path,
        a: inA ? 'present' : 'absent',
        b: inB ? 'present' : 'absent',
        request,
      });
      continue;
    }
    const [ta, tb] = [typesOf(a, path), typesOf(b, path)];
    if (inA && inB && verdict.node.type !== undefined && ta.length && tb.length && ta.join() !== tb.join()) {
      out.push({ operationId, kind: 'field-type', path, a: ta.join('|'), b: tb.join('|'), request });
    }
  }
  return out;
}

/** Differences per operation; `schema` is the documented response shape (none for section 4.3). */
export function compareOperation(
  operationId: string,
  schema: SchemaName | undefined,
  pairs: PairedAnswers[],
): Difference[] {
  const out: Difference[] = [];
  const status = pairs.find((p) => statusClass(p.a.status) !== statusClass(p.b.status));
  if (status)
    out.push({
      operationId,
      kind: 'status',
      a: String(status.a.status),
      b: String(status.b.status),
      request: status.request,
    });
  if (schema) out.push(...shapeDifferences(operationId, schema, pairs));
  return out;
}

/** Differences over answers of many operations: grouped per operation, each judged against its documented shape. */
export function differencesByOperation(pairs: PairedAnswers[]): Difference[] {
  const byOp = new Map<string, PairedAnswers[]>();
  for (const p of pairs) byOp.set(p.operationId, [...(byOp.get(p.operationId) ?? []), p]);
  return [...byOp].flatMap(([id, list]) => compareOperation(id, operationById(id).responseSchema, list));
}
