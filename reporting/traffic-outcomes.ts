/**
 * Client traffic as certificate outcomes (flis certify --cassette FILE): every
 * request a partner's client sent and every response it got, checked against
 * the contract with the recorder's checks (each citing its clause). One
 * outcome per cassette, operation and check, so the matrix shows client
 * traffic beside the suites' checks, under columns named `traffic:<check>`.
 */
import { checkExchange } from '../recorder/contract-check.ts';
import type { HeaderMap, LocatedExchange, Violation } from '../recorder/cassette-format.ts';
import type { FailureRecord } from '../core/check-failure.ts';
import type { Exchange } from '../core/exchange.ts';
import { type TrafficCheckId, trafficClause } from '../specs/check-ids.ts';
import type { Operation } from '../specs/contract.ts';
import { forEachCassetteExchange, jsonValueOf } from './cassettes.ts';
import type { CheckOutcome } from './outcomes.ts';

export const TRAFFIC_PREFIX = 'traffic:';

/** The checks checkExchange applies to one exchange (it reports only violations; a pass is an applicable check without one). */
function applicableChecks(x: LocatedExchange, op: Operation | undefined): TrafficCheckId[] {
  const hasRequestBody = x.request.body !== null && x.request.body.size > 0;
  const hasResponseBody = x.response.body !== null && x.response.body.size > 0;
  const ok = x.response.status >= 200 && x.response.status <= 299;
  return [
    'known-operation',
    'auth-header',
    ...(hasRequestBody ? (['write-content-type'] as const) : []),
    ...(op?.requestSchema && hasRequestBody ? (['request-schema'] as const) : []),
    ...(x.failure ? [] : (['no-5xx'] as const)),
    ...(!x.failure && hasResponseBody ? (['json-content-type'] as const) : []),
    ...(!x.failure && op?.responseSchema && ok ? (['response-schema'] as const) : []),
  ];
}

function flat(h: HeaderMap): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]));
}

function asText(v: unknown): string {
  return v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v);
}

function asExchange(x: LocatedExchange): Exchange {
  const query = new URLSearchParams(
    Object.entries(x.request.query).flatMap(([k, v]) => (Array.isArray(v) ? v.map((i) => [k, i]) : [[k, v]])),
  ).toString();
  const requestBody = x.request.body ? asText(jsonValueOf(x.request.body) ?? x.request.body.value) : undefined;
  const responseValue = x.response.body ? (jsonValueOf(x.response.body) ?? x.response.body.value) : undefined;
  return {
    ...(x.operationId ? { operationId: x.operationId } : {}),
    request: {
      method: x.request.method,
      url: `${x.request.path}${query ? `?${query}` : ''}`,
      headers: flat(x.request.headers),
      ...(requestBody !== undefined ? { body: requestBody } : {}),
    },
    response: {
      status: x.response.status,
      headers: flat(x.response.headers),
      body: responseValue,
      text: asText(responseValue),
      durationMs: x.response.timing.durationMs,
    },
  };
}

function recordOf(file: string, x: LocatedExchange, v: Violation): FailureRecord {
  return {
    check: `${TRAFFIC_PREFIX}${v.check}`,
    clause: v.clause,
    message: `${file}:${x.line}: exchange ${x.seq} (${v.direction}): ${v.message}`,
    exchanges: [asExchange(x)],
    curl: [],
    ...(v.operationId ? { operationId: v.operationId } : {}),
    method: x.request.method,
    path: x.request.path,
    ...(v.pointer !== undefined ? { pointer: v.pointer } : {}),
    ...(v.schemaPath ? { schemaPath: v.schemaPath } : {}),
  };
}

interface Tally {
  outcome: CheckOutcome;
  clause: string;
}

/** Outcomes of one cassette, keyed per operation and check; a violation fails its outcome and the first one is its record. */
export function trafficOutcomes(file: string): { outcomes: CheckOutcome[]; exchanges: number } {
  const tallies = new Map<string, Tally>();
  let checked = 0;
  forEachCassetteExchange(file, (x) => {
    if (x.operationId?.startsWith('webhook')) return;
    checked += 1;
    const authorization = flat(x.request.headers).authorization;
    const { operation, violations } = checkExchange({
      request: x.request,
      response: x.response,
      authorization,
      upstreamFailed: x.failure !== undefined,
    });
    for (const check of applicableChecks(x, operation)) {
      const key = `${operation?.operationId ?? '(unknown)'} ${check}`;
      const t = tallies.get(key) ?? {
        clause: trafficClause(check, operation),
        outcome: {
          id: `${TRAFFIC_PREFIX}${file}:${key}`,
          title: `${check} · client traffic · ${operation ? `${operation.method.toUpperCase()} ${operation.path}` : `${x.request.method} ${x.request.path}`}`,
          project: 'traffic',
          status: 'passed',
          blamed: [],
          exercised: operation ? [operation.operationId] : [],
          check: `${TRAFFIC_PREFIX}${check}`,
          clause: trafficClause(check, operation),
          // The client's own traffic is judged on the rules that bind the client: each is a contract rule.
          severity: 'contract',
          ...(operation ? { operation: operation.operationId } : {}),
        },
      };
      const v = violations.find((y) => y.check === check);
      if (v && t.outcome.status !== 'failed') {
        t.outcome = {
          ...t.outcome,
          status: 'failed',
          record: recordOf(file, x, v),
          blamed: operation ? [operation.operationId] : [],
          error: v.message,
        };
      }
      tallies.set(key, t);
    }
  });
  return {
    outcomes: [...tallies.values()].map((t) => t.outcome).sort((a, b) => a.id.localeCompare(b.id)),
    exchanges: checked,
  };
}
