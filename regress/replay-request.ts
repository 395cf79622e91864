/**
 * A recorded request as the replay sends it: its path segments decoded into the ids they carry and mapped to the
 * target's (regress/ids.ts), the ids a partner chose for a record it creates tagged with the run id, and how a
 * request is named in the report and told apart from the one before it.
 */
import { jsonValue } from '../recorder/body.ts';
import type { LocatedExchange, QueryMap, RecordedRequest, RecordedResponse } from '../recorder/cassette-format.ts';
import type { Operation } from '../specs/contract.ts';
import { type IdMap, mapStrings, stringsIn } from './ids.ts';
import type { OutgoingRequest } from './send.ts';

/** A path segment's id, or undefined when its percent-encoding is malformed (a client that never encoded it). */
function decodedSegment(seg: string): string | undefined {
  try {
    return decodeURIComponent(seg);
  } catch {
    return undefined;
  }
}

/** A request as the report names it: method, path and query. */
export function describe(r: RecordedRequest): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(r.query)) for (const x of [v].flat()) qs.append(k, x);
  const s = qs.toString();
  return `${r.method} ${r.path}${s ? `?${s}` : ''}`;
}

/** Two reads of one run of polls: the same request, body and all. */
export function requestKey(e: LocatedExchange): string {
  return `${describe(e.request)}\n${JSON.stringify(e.request.body?.value ?? null)}`;
}

/** A recorded body's JSON value, or undefined when it holds none. */
export function bodyValue(body: RecordedResponse['body']): unknown {
  const v = jsonValue(body);
  return v.ok ? v.value : undefined;
}

export function header(h: Record<string, string | string[]>, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
}

function templateSegments(op: Operation | undefined): string[] {
  return op ? op.path.split('/') : [];
}

export interface Prepared {
  out: OutgoingRequest;
  /** The target's path, for undo steps. */
  path: string;
  template: string | undefined;
  /** Recorded ids the request uses. */
  used: string[];
}

/** The request with the target's ids: ids the partner chose for a record it creates are tagged with the run id. */
export function prepareRequest(e: LocatedExchange, op: Operation | undefined, ids: IdMap): Prepared {
  const r = e.request;
  const used: string[] = [];
  const tpl = templateSegments(op);
  const segs = r.path.split('/');
  const creates = r.method === 'PUT' && tpl.length > 0 && /^\{\w+\}$/.test(tpl.at(-1) ?? '');
  const path = segs
    .map((seg, i) => {
      if (!/^\{\w+\}$/.test(tpl[i] ?? '')) return seg;
      const decoded = decodedSegment(seg);
      const id = decoded ?? seg;
      used.push(id);
      const now = creates && i === segs.length - 1 && !ids.known(id) ? ids.tag(id) : ids.forward(id);
      // An id that is not mapped goes out as the partner encoded it; one with a bare % was never encoded by the
      // partner, so the target's id goes out unencoded too.
      if (now === id) return seg;
      return decoded === undefined ? now : encodeURIComponent(now);
    })
    .join('/');
  const query: [string, string][] = [];
  for (const [k, v] of Object.entries(r.query as QueryMap))
    for (const x of [v].flat()) {
      used.push(x);
      query.push([k, ids.forward(x)]);
    }
  let body: string | undefined;
  const json = jsonValue(r.body);
  if (json.ok) {
    let value = json.value;
    used.push(...stringsIn(value));
    // The items of a bulk write carry the ids the partner chose (spec 2.3).
    if (r.method === 'POST' && op?.path.endsWith('/bulk') && Array.isArray(value))
      value = value.map((item) =>
        item && typeof item === 'object' && typeof (item as { id?: unknown }).id === 'string'
          ? {
              ...item,
              id: ids.known((item as { id: string }).id)
                ? (item as { id: string }).id
                : ids.tag((item as { id: string }).id),
            }
          : item,
      );
    body = JSON.stringify(mapStrings(value, (s) => ids.forward(s)));
  } else if (r.body) {
    body =
      r.body.encoding === 'base64'
        ? Buffer.from(String(r.body.value), 'base64').toString('latin1')
        : String(r.body.value);
  }
  const ct = header(r.headers, 'content-type');
  return {
    out: {
      method: r.method,
      path,
      query,
      body,
      contentType: ct || undefined,
    },
    path,
    template: op?.path,
    used,
  };
}
