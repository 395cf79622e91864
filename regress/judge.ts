/**
 * One replayed exchange judged against its recording, by the contract. What
 * the contract leaves open is `flis diff`'s rule set (reporting/shape-diff.ts:
 * status class, a documented field present in one and absent from the other,
 * a documented field of another type), used here per exchange, plus the
 * contract check of the new answer (recorder/contract-check.ts, the checks the
 * recorder runs live). On top of those, what a partner may have come to
 * depend on is shown as a risk, never as broken: the exact status, an
 * undocumented field, an id format, an error body, a value.
 *
 * Broken: the new answer breaks the contract (schema, 5xx), a 2xx became a
 * 4xx or 5xx, or a documented field the recorded answer had is gone.
 * Never counted: ids the target minted (read back as the recorded ones),
 * `batchId`s, timestamps (date-times that differ), the order of a list.
 */
import type { RecordedRequest, RecordedResponse } from '../recorder/cassette-format.ts';
import { checkExchange } from '../recorder/contract-check.ts';
import { lookup } from '../reporting/schema-walk.ts';
import { compareOperation } from '../reporting/shape-diff.ts';
import type { Operation } from '../specs/contract.ts';
import { isIdKey } from './ids.ts';

export type Verdict = 'unchanged' | 'changed' | 'broken';

export type FindingKind =
  | 'contract'
  | 'status'
  | 'status-code'
  | 'documented-field-missing'
  | 'documented-field-added'
  | 'field-type'
  | 'field-added'
  | 'field-removed'
  | 'id-format'
  | 'error-body'
  | 'value'
  | 'item-added'
  | 'item-removed';

export interface Finding {
  verdict: 'changed' | 'broken';
  kind: FindingKind;
  /** JSON pointer into the answer's body (`*` for every item of an array), when the finding has one. */
  pointer?: string | undefined;
  recorded: string;
  now: string;
  /** The spec clause or check behind a broken finding. */
  rule?: string | undefined;
}

/** Kinds a slow write can cause (it has not shown yet): a GET that meets them is polled until the deadline. */
export const SETTLING: ReadonlySet<FindingKind> = new Set([
  'contract',
  'status',
  'documented-field-missing',
  'value',
  'item-added',
  'item-removed',
  'field-removed',
]);

const MAX_VALUE_FINDINGS = 20;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

export interface Answer {
  status: number;
  /** The body as a JSON value (undefined when empty or not JSON). */
  body: unknown;
}

const is2xx = (s: number): boolean => s >= 200 && s < 300;

function show(v: unknown): string {
  if (v === undefined) return '(absent)';
  const s = JSON.stringify(v);
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}

function pointerSegment(key: string): string {
  return key.replaceAll('~', '~0').replaceAll('/', '~1');
}

/** The contract's word on a pointer of this operation's answer ('*' for array items). */
function documented(op: Operation | undefined, pointer: string): 'documented' | 'open' | 'undocumented' {
  if (!op?.responseSchema) return 'open';
  const generic = pointer.replace(/\/\d+(?=\/|$)/g, '/*');
  return lookup(op.responseSchema, generic).kind;
}

/** Arrays of objects that carry string ids are paired by id: the contract leaves a list's order open. */
function byId(list: unknown[]): Map<string, { index: number; item: unknown }> | undefined {
  const m = new Map<string, { index: number; item: unknown }>();
  for (const [index, item] of list.entries()) {
    const id = item && typeof item === 'object' ? (item as { id?: unknown }).id : undefined;
    if (typeof id !== 'string' || m.has(id)) return undefined;
    m.set(id, { index, item });
  }
  return m;
}

/** Leaf differences between the recorded body and the new one (already read back in the recorded ids). */
function valueDifferences(op: Operation | undefined, a: unknown, b: unknown, errorBody: boolean): Finding[] {
  const out: Finding[] = [];
  const push = (f: Omit<Finding, 'verdict'>) => {
    if (out.length < MAX_VALUE_FINDINGS) out.push({ verdict: 'changed', ...f });
  };
  const walk = (x: unknown, y: unknown, p: string, key: string | undefined) => {
    if (out.length >= MAX_VALUE_FINDINGS) return;
    // Ids are the id map's (regress/ids.ts): paired, read back, their format compared there.
    if (key !== undefined && isIdKey(key) && typeof x === 'string' && typeof y === 'string') return;
    if (typeof x === 'string' && typeof y === 'string' && DATE_TIME.test(x) && DATE_TIME.test(y)) return;
    if (Array.isArray(x) && Array.isArray(y)) {
      const [mx, my] = [byId(x), byId(y)];
      if (mx && my && (mx.size > 0 || my.size > 0)) {
        for (const [id, v] of mx) {
          const w = my.get(id);
          // Pointers name the item's place in the new answer.
          if (w) walk(v.item, w.item, `${p}/${w.index}`, undefined);
          else push({ kind: 'item-removed', pointer: p, recorded: `item ${id}`, now: '(absent)' });
        }
        for (const id of my.keys())
          if (!mx.has(id)) push({ kind: 'item-added', pointer: p, recorded: '(absent)', now: `item ${id}` });
        return;
      }
      const n = Math.max(x.length, y.length);
      for (let i = 0; i < n; i++) {
        if (i >= x.length) push({ kind: 'item-added', pointer: `${p}/${i}`, recorded: '(absent)', now: show(y[i]) });
        else if (i >= y.length)
          push({ kind: 'item-removed', pointer: `${p}/${i}`, recorded: show(x[i]), now: '(absent)' });
        else walk(x[i], y[i], `${p}/${i}`, undefined);
      }
      return;
    }
    const xo = x !== null && typeof x === 'object' && !Array.isArray(x);
    const yo = y !== null && typeof y === 'object' && !Array.isArray(y);
    if (xo && yo) {
      const xr = x as Record<string, unknown>;
      const yr = y as Record<string, unknown>;
      for (const k of new Set([...Object.keys(xr), ...Object.keys(yr)])) {
        const q = `${p}/${pointerSegment(k)}`;
        if (!(k in yr)) {
          // A documented field gone is the shape rule's (broken); an undocumented one, or one the contract leaves open, a risk.
          if (documented(op, q) !== 'documented' || errorBody)
            push({
              kind: errorBody ? 'error-body' : 'field-removed',
              pointer: q,
              recorded: show(xr[k]),
              now: '(absent)',
            });
        } else if (!(k in xr)) {
          if (documented(op, q) !== 'documented' || errorBody)
            push({
              kind: errorBody ? 'error-body' : 'field-added',
              pointer: q,
              recorded: '(absent)',
              now: show(yr[k]),
            });
        } else walk(xr[k], yr[k], q, k);
      }
      return;
    }
    if (JSON.stringify(x) !== JSON.stringify(y))
      push({ kind: errorBody ? 'error-body' : 'value', pointer: p, recorded: show(x), now: show(y) });
  };
  walk(a, b, '', undefined);
  return out;
}

export interface JudgeInput {
  operation: Operation | undefined;
  recorded: Answer;
  /** The new answer as the contract check reads it (status, headers, stored body). */
  response: RecordedResponse;
  /** The request as sent to the target. */
  request: RecordedRequest;
  /** The new body, read back in the recorded ids. */
  now: Answer;
  /** True when the recorded answer met the contract as it was recorded (no response violation in the cassette). */
  recordedClean: boolean;
}

export function judge(x: JudgeInput): Finding[] {
  const out: Finding[] = [];
  const { recorded, now, operation: op } = x;
  // The same answer as recorded (ids read back), which the recorder's contract check passed when it was recorded:
  // nothing to find, and most of a partner's replay is this.
  if (x.recordedClean && recorded.status === now.status && JSON.stringify(recorded.body) === JSON.stringify(now.body))
    return out;
  const contract = checkExchange({
    request: x.request,
    response: x.response,
    authorization: 'Bearer x',
    upstreamFailed: false,
  });
  for (const v of contract.violations.filter((v) => v.direction === 'response'))
    out.push({
      verdict: 'broken',
      kind: 'contract',
      pointer: v.pointer,
      recorded: String(recorded.status),
      now: v.message,
      rule: `${v.check}, ${v.clause}`,
    });
  const opId = op?.operationId ?? '(no operation)';
  const shape = compareOperation(opId, op?.responseSchema, [
    {
      operationId: opId,
      request: '',
      a: { status: recorded.status, body: recorded.body },
      b: { status: now.status, body: now.body },
    },
  ]);
  for (const d of shape) {
    if (d.kind === 'status') {
      const broken = is2xx(recorded.status) && now.status >= 400;
      // A 5xx is already the contract check's (no-5xx): one fault, one finding.
      if (now.status >= 500 && out.some((f) => f.rule?.startsWith('no-5xx'))) continue;
      out.push({
        verdict: broken ? 'broken' : 'changed',
        kind: 'status',
        recorded: d.a,
        now: d.b,
        rule: broken ? 'a success became a refusal' : undefined,
      });
    } else if (d.kind === 'field-presence') {
      const gone = d.a === 'present';
      out.push({
        verdict: gone ? 'broken' : 'changed',
        kind: gone ? 'documented-field-missing' : 'documented-field-added',
        pointer: d.path,
        recorded: d.a,
        now: d.b,
        rule: gone ? `${op?.clause ?? 'spec'}: a documented field the partner received is gone` : undefined,
      });
    } else {
      out.push({
        verdict: 'broken',
        kind: 'field-type',
        pointer: d.path,
        recorded: d.a,
        now: d.b,
        rule: `${op?.clause ?? 'spec'}: a documented field changed type`,
      });
    }
  }
  if (recorded.status !== now.status && !shape.some((d) => d.kind === 'status'))
    out.push({ verdict: 'changed', kind: 'status-code', recorded: String(recorded.status), now: String(now.status) });
  if (Math.floor(recorded.status / 100) === Math.floor(now.status / 100))
    out.push(...valueDifferences(op, recorded.body, now.body, recorded.status >= 400));
  return out;
}

export function verdictOf(findings: readonly Finding[]): Verdict {
  if (findings.some((f) => f.verdict === 'broken')) return 'broken';
  return findings.length ? 'changed' : 'unchanged';
}
