/**
 * The answer to a request the cassette has no recording for, under the
 * `error` miss policy: never a bare 404 (which a suite could take for the
 * service's own answer) but a 501 whose JSON body names the cassette, the
 * request, the closest recorded request with a field-by-field difference, and
 * how to fix it.
 */
import type { RecordedRequest } from './cassette-format.ts';
import type { Difference, Matcher } from './match.ts';
import type { Mode } from './modes.ts';

/** 501 Not Implemented: this cassette does not implement the request. Distinct from the upstream-failure 502/504. */
export const MISS_STATUS = 501;

export interface MissAnswer {
  summary: string;
  body: Record<string, unknown>;
}

function describe(r: Pick<RecordedRequest, 'method' | 'path' | 'query'>): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(r.query)) for (const x of Array.isArray(v) ? v : [v]) qs.append(k, x);
  const s = qs.toString();
  return `${r.method} ${r.path}${s ? `?${s}` : ''}`;
}

export function missAnswer(
  cassette: string,
  request: RecordedRequest,
  matcher: Matcher | undefined,
  mode: Mode,
): MissAnswer {
  const closest = matcher?.closest(request);
  const diffText = (d: Difference[]): string =>
    d
      .map((x) => `${x.field}: recorded ${JSON.stringify(x.recorded)}, received ${JSON.stringify(x.received)}`)
      .join('; ');
  const summary =
    `${describe(request)} has no recording in ${cassette}` +
    (closest
      ? `; closest is seq ${closest.exchange.seq} (line ${closest.exchange.line}) ${describe(closest.exchange.request)}, differing in ${diffText(closest.differences)}`
      : '; the cassette has no exchanges');
  return {
    summary,
    body: {
      code: 'FLIS_ERR_CASSETTE_MISS',
      message: summary,
      cassette,
      policy: { mode, onMiss: 'error' },
      request: { method: request.method, path: request.path, query: request.query, body: request.body?.value ?? null },
      closest: closest
        ? {
            seq: closest.exchange.seq,
            line: closest.exchange.line,
            operationId: closest.exchange.operationId,
            request: {
              method: closest.exchange.request.method,
              path: closest.exchange.request.path,
              query: closest.exchange.request.query,
              body: closest.exchange.request.body?.value ?? null,
            },
            differences: closest.differences,
          }
        : null,
      fix: `record the missing request into the cassette with \`flis record --mode new --upstream NAME --cassette ${cassette}\`, or leave varying fields out of matching with --match-ignore-query NAME / --match-ignore-body /json/pointer`,
    },
  };
}
