/**
 * How much of the contract a partner's client uses, read from its cassettes:
 * the operations it called (of the contract's 125), the documented request
 * fields it sent and those it left out, and the flows it completed (a write
 * followed by a read of its batch status; paging a list to its end). A
 * certificate that speaks for a client says what the client was seen doing,
 * and what it was not.
 */
import type { LocatedExchange } from '../recorder/cassette-format.ts';
import { operations } from '../specs/contract.ts';
import { forEachCassetteExchange, jsonValueOf } from './cassettes.ts';
import { documentedPaths } from './schema-walk.ts';

/** The operation that reads a write's batch status (spec 1: "the integration status of a batch … is read through the bookings status endpoints"). */
export const BATCH_STATUS_OPERATION = 'getBatchRequestsStatus';
/** The one operation the spec shows paging for (spec 4.2: `limit` and `page`). */
export const PAGED_OPERATION = 'listInvoices';

export interface FlowUsage {
  /** `write-then-batch-status` or `paging-to-the-end`. */
  flow: 'write-then-batch-status' | 'paging-to-the-end';
  /** Flows begun: writes that answered a batchId; paged listings started (a first `page` asked for). */
  started: number;
  /** Of those, completed: the batch status read after the write; a page that was the last one. */
  completed: number;
  /** What was begun and not completed, a few examples ("batch b-7 of PUT /offers/x"). */
  missing: string[];
}

export interface ClientUsage {
  /** Exchanges read from the cassettes (webhook deliveries apart). */
  exchanges: number;
  /** Operations of the contract the client called, sorted. */
  operationsUsed: string[];
  /** Operations it did not call, sorted. */
  operationsNotUsed: string[];
  /** The contract's operation count (125). */
  operationsTotal: number;
  /** Requests that match no operation of the contract ("POST /offerz"). */
  unknownRequests: string[];
  /** Documented request fields of the operations it used with a documented body: sent, and left out (never drift). */
  requestFields: { sent: string[]; notSent: string[] };
  flows: FlowUsage[];
}

const EXAMPLES = 5;

function countRequestFields(x: LocatedExchange, schemaOf: Map<string, string[]>, sent: Map<string, Set<string>>): void {
  const op = operations().find((o) => o.operationId === x.operationId);
  if (!op?.requestSchema || !x.request.body) return;
  const documented = schemaOf.get(op.operationId) ?? documentedPaths(op.requestSchema);
  schemaOf.set(op.operationId, documented);
  const body = jsonValueOf(x.request.body);
  const seen = sent.get(op.operationId) ?? new Set<string>();
  const walk = (v: unknown, path: string, depth: number) => {
    if (depth > 8 || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const item of v.slice(0, 50)) walk(item, `${path}/*`, depth + 1);
      return;
    }
    for (const [k, child] of Object.entries(v)) {
      const p = `${path}/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`;
      seen.add(p);
      walk(child, p, depth + 1);
    }
  };
  walk(body, '', 0);
  sent.set(op.operationId, seen);
}

function batchIdOf(x: LocatedExchange): string | undefined {
  const body = jsonValueOf(x.response.body) as { batchId?: unknown } | undefined;
  return body && typeof body === 'object' && typeof body.batchId === 'string' ? body.batchId : undefined;
}

function lastSegment(path: string): string {
  const raw = path.split('?')[0]?.split('/').pop() ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function queryValue(x: LocatedExchange, name: string): string | undefined {
  const v = x.request.query[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Paging ends on a page shorter than the limit asked for, or on an empty page. */
function isLastPage(x: LocatedExchange): boolean {
  const items = jsonValueOf(x.response.body);
  if (!Array.isArray(items)) return false;
  const limit = Number(queryValue(x, 'limit'));
  return items.length === 0 || (Number.isInteger(limit) && limit > 0 && items.length < limit);
}

/** Usage of one or more cassettes of the same client, read in file order. */
export function clientUsage(files: readonly string[]): ClientUsage {
  const used = new Set<string>();
  const unknown = new Set<string>();
  const schemaOf = new Map<string, string[]>();
  const sent = new Map<string, Set<string>>();
  const pendingBatches = new Map<string, string>();
  let batchesStarted = 0;
  let batchesRead = 0;
  let pagingStarted = 0;
  let pagingEnded = 0;
  let paging = false;
  let exchanges = 0;
  for (const file of files)
    forEachCassetteExchange(file, (x) => {
      if (x.operationId?.startsWith('webhook')) return;
      exchanges += 1;
      if (!x.operationId) {
        unknown.add(`${x.request.method} ${x.request.path}`);
        return;
      }
      used.add(x.operationId);
      countRequestFields(x, schemaOf, sent);
      const ok = x.response.status >= 200 && x.response.status <= 299;
      const batch = ok && x.request.method !== 'GET' ? batchIdOf(x) : undefined;
      if (batch !== undefined && !pendingBatches.has(batch)) {
        batchesStarted += 1;
        pendingBatches.set(batch, `batch ${batch} of ${x.request.method} ${x.request.path}`);
      }
      if (x.operationId === BATCH_STATUS_OPERATION) {
        const id = lastSegment(x.request.path);
        if (pendingBatches.delete(id)) batchesRead += 1;
      }
      if (x.operationId === PAGED_OPERATION && ok && queryValue(x, 'page') !== undefined) {
        if (!paging) pagingStarted += 1;
        paging = true;
        if (isLastPage(x)) {
          pagingEnded += 1;
          paging = false;
        }
      }
    });
  const all = operations().map((o) => o.operationId);
  const sentList = [...sent].flatMap(([op, paths]) => [...paths].map((p) => `${op} ${p}`)).sort();
  const notSent = [...schemaOf]
    .flatMap(([op, documented]) => documented.filter((p) => !sent.get(op)?.has(p)).map((p) => `${op} ${p}`))
    .sort();
  const documentedSent = sentList.filter((s) => {
    const [op, path] = s.split(' ') as [string, string];
    return schemaOf.get(op)?.includes(path);
  });
  return {
    exchanges,
    operationsUsed: [...used].sort(),
    operationsNotUsed: all.filter((o) => !used.has(o)).sort(),
    operationsTotal: all.length,
    unknownRequests: [...unknown].sort(),
    requestFields: { sent: documentedSent, notSent },
    flows: [
      {
        flow: 'write-then-batch-status',
        started: batchesStarted,
        completed: batchesRead,
        missing: [...pendingBatches.values()].slice(0, EXAMPLES),
      },
      {
        flow: 'paging-to-the-end',
        started: pagingStarted,
        completed: pagingEnded,
        missing: paging ? [`${PAGED_OPERATION}: paged without reaching a last page`] : [],
      },
    ],
  };
}
