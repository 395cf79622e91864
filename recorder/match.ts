/**
 * Request matching for replay. A request matches a recorded one on method,
 * path, query (order-insensitive) and body (JSON compared structurally), minus
 * the ignored fields; headers take part only when named (by default only the
 * redacted Authorization value, so "sent credentials" and "sent none" — the
 * suites' auth checks — are told apart). Identical requests replay in recorded
 * order and the last answer repeats. A miss comes with the closest recorded
 * request and a field-by-field difference.
 */
import type { LocatedExchange, QueryMap, RecordedRequest, StoredBody } from './cassette-format.ts';

export interface MatchOptions {
  /** Query parameter names left out of matching. */
  ignoreQuery: string[];
  /** JSON pointers (e.g. "/offer/transportTimestamp") left out of body matching. */
  ignoreBody: string[];
  /** Request headers that take part in matching, lower case. */
  headers: string[];
}

export const defaultMatchOptions: MatchOptions = { ignoreQuery: [], ignoreBody: [], headers: ['authorization'] };

export interface Difference {
  field: string;
  recorded: unknown;
  received: unknown;
}

const ABSENT = '(absent)';

/** Where a recorded exchange is in the cassette file, so replay reads it when it is asked for. */
export interface IndexEntry {
  seq: number;
  line: number;
  operationId: string | null;
  offset: number;
  length: number;
  /** The line of the document's `---`. */
  docLine: number;
  /**
   * Shared by the entries of one request whose documents serve the same bytes
   * (recorder/replay-store.ts finds them while indexing), so one of them read
   * and parsed serves them all; absent for an answer recorded once.
   */
  same?: object;
}

/** A recorded request as the miss answer shows it. */
export type RecordedHead = Pick<LocatedExchange, 'seq' | 'line' | 'operationId' | 'request'>;

export interface Closest {
  exchange: RecordedHead;
  differences: Difference[];
}

interface Slot {
  list: IndexEntry[];
  next: number;
}

/**
 * Recorded exchanges indexed by match key, each key replaying its exchanges
 * in order. Only the key and where each exchange is in the file are kept,
 * never responses or whole requests: memory grows with the number of
 * distinct requests and exchanges, not with the cassette's size. The key is
 * the canonical text of what matching reads, so the closest-match search
 * reads the recorded request back from it.
 */
export class Matcher {
  private readonly byKey = new Map<string, Slot>();
  private count = 0;

  constructor(private readonly options: MatchOptions = defaultMatchOptions) {}

  /** Index one recorded exchange; returns its entry and the one recorded before it for the same request, if any. */
  add(
    head: RecordedHead,
    at: { offset: number; length: number; line: number },
  ): { entry: IndexEntry; previous: IndexEntry | undefined } {
    const key = matchKey(head.request, this.options);
    const entry: IndexEntry = {
      seq: head.seq,
      line: head.line,
      operationId: head.operationId,
      offset: at.offset,
      length: at.length,
      docLine: at.line,
    };
    this.count += 1;
    const slot = this.byKey.get(key);
    const previous = slot?.list.at(-1);
    if (slot) slot.list.push(entry);
    else this.byKey.set(key, { list: [entry], next: 0 });
    return { entry, previous };
  }

  get size(): number {
    return this.count;
  }

  /** Where the next recorded answer for this request is, or undefined on a miss. */
  take(req: RecordedRequest): IndexEntry | undefined {
    return this.takeKey(matchKey(req, this.options));
  }

  /** The same, by a key matchKey made earlier with this matcher's options. */
  takeKey(key: string): IndexEntry | undefined {
    const slot = this.byKey.get(key);
    if (!slot) return undefined;
    const e = slot.list[Math.min(slot.next, slot.list.length - 1)];
    slot.next += 1;
    return e;
  }

  /** The recorded request that differs least from `req`, with the differences. */
  closest(req: RecordedRequest): Closest | undefined {
    let best: { score: number; c: Closest } | undefined;
    for (const [key, slot] of this.byKey) {
      const recorded = requestOfKey(key);
      const differences = diffRequests(recorded, req, this.options);
      const score = differences.reduce((s, d) => s + weight(d.field), 0);
      if (!best || score < best.score) {
        const { seq, line, operationId } = slot.list[0]!;
        best = { score, c: { exchange: { seq, line, operationId, request: recorded }, differences } };
      }
    }
    return best?.c;
  }
}

/** The request a match key was made from, as far as matching reads it (matchKey in reverse). */
function requestOfKey(key: string): RecordedRequest {
  const [method, path, query, body, headers] = JSON.parse(key) as [
    string,
    string,
    Array<[string, string[]]>,
    unknown,
    Array<[string, string]>,
  ];
  const stored: StoredBody | null =
    body === null
      ? null
      : Array.isArray(body) && body.length === 2 && (body[0] === 'text' || body[0] === 'base64')
        ? { encoding: body[0], value: body[1], size: 0, truncated: false }
        : { encoding: 'json', value: body, size: 0, truncated: false };
  return {
    method,
    path,
    query: Object.fromEntries(query.map(([k, v]) => [k, v.length === 1 ? v[0]! : v])),
    headers: Object.fromEntries(headers.filter(([, v]) => v !== ABSENT)),
    body: stored,
  };
}

function weight(field: string): number {
  if (field === 'method') return 8;
  if (field === 'path') return 6;
  return 1;
}

/** Canonical text of everything that takes part in matching. */
export function matchKey(req: RecordedRequest, o: MatchOptions): string {
  return JSON.stringify([
    req.method,
    canonicalPath(req.path),
    canonicalQuery(req.query, o),
    canonicalBody(req, o),
    matchedHeaders(req, o),
  ]);
}

function trimSlash(p: string): string {
  return p.length > 1 ? p.replace(/\/+$/, '') : p;
}

/** Characters a path segment may hold as they are (RFC 3986 pchar, ASCII): `%3A` and `:` name the same id. */
const PCHAR = /^[A-Za-z0-9\-._~!$&'()*+,;=:@]$/;

/**
 * A path as matching reads it (RFC 3986 6.2.2): without a trailing slash, each percent-encoding in upper case and
 * decoded where the character may stand in a segment as it is, so an id encoded by another client (one that leaves
 * `+`, `&`, `=` or `:` as they are, or writes `%c3%a4`) matches the recorded request. `%2F`, `%25`, `%3F` and `%23`
 * stay encoded: decoded, they would mean something else.
 */
function canonicalPath(p: string): string {
  return trimSlash(p).replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => {
    const c = String.fromCharCode(Number.parseInt(hex, 16));
    return PCHAR.test(c) ? c : `%${hex.toUpperCase()}`;
  });
}

function canonicalQuery(q: QueryMap, o: MatchOptions): Array<[string, string[]]> {
  return Object.entries(q)
    .filter(([k]) => !o.ignoreQuery.includes(k))
    .map(([k, v]): [string, string[]] => [k, (Array.isArray(v) ? [...v] : [v]).sort()])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function canonicalBody(req: RecordedRequest, o: MatchOptions): unknown {
  const b = req.body;
  if (!b) return null;
  if (b.encoding !== 'json') return [b.encoding, b.value];
  return sortDeep(withoutPointers(b.value, o.ignoreBody));
}

function matchedHeaders(req: RecordedRequest, o: MatchOptions): Array<[string, string]> {
  return o.headers.map((h): [string, string] => {
    const v = req.headers[h];
    return [h, v === undefined ? ABSENT : Array.isArray(v) ? v.join(', ') : v];
  });
}

/** Object keys sorted at every level, so key order never affects a match. */
function sortDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortDeep);
  if (v && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortDeep((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

function withoutPointers(value: unknown, pointers: string[]): unknown {
  if (pointers.length === 0) return value;
  const copy = structuredClone(value);
  for (const p of pointers) removePointer(copy, p);
  return copy;
}

function removePointer(root: unknown, pointer: string): void {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let node: unknown = root;
  for (const [i, part] of parts.entries()) {
    if (!node || typeof node !== 'object') return;
    const rec = node as Record<string, unknown>;
    if (i === parts.length - 1) delete rec[part];
    else node = rec[part];
  }
}

/** Field-by-field differences between a recorded and a received request, on the matched fields only. */
export function diffRequests(recorded: RecordedRequest, received: RecordedRequest, o: MatchOptions): Difference[] {
  const out: Difference[] = [];
  if (recorded.method !== received.method)
    out.push({ field: 'method', recorded: recorded.method, received: received.method });
  if (canonicalPath(recorded.path) !== canonicalPath(received.path))
    out.push({ field: 'path', recorded: recorded.path, received: received.path });
  const rq = new Map(canonicalQuery(recorded.query, o));
  const sq = new Map(canonicalQuery(received.query, o));
  for (const name of new Set([...rq.keys(), ...sq.keys()])) {
    const a = rq.get(name);
    const b = sq.get(name);
    if (JSON.stringify(a) !== JSON.stringify(b))
      out.push({ field: `query.${name}`, recorded: showQuery(a), received: showQuery(b) });
  }
  out.push(...diffBodies(canonicalBody(recorded, o), canonicalBody(received, o)));
  const rh = matchedHeaders(recorded, o);
  const sh = matchedHeaders(received, o);
  rh.forEach(([name, v], i) => {
    const w = sh[i]?.[1];
    if (v !== w) out.push({ field: `headers.${name}`, recorded: v, received: w });
  });
  return out;
}

function showQuery(v: string[] | undefined): unknown {
  if (!v) return ABSENT;
  return v.length === 1 ? v[0] : v;
}

const MAX_BODY_DIFFS = 20;

function diffBodies(a: unknown, b: unknown): Difference[] {
  const out: Difference[] = [];
  walkDiff(a, b, '', out);
  return out.slice(0, MAX_BODY_DIFFS);
}

function walkDiff(a: unknown, b: unknown, pointer: string, out: Difference[]): void {
  if (out.length >= MAX_BODY_DIFFS) return;
  const bothObjects = a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b);
  if (!bothObjects) {
    if (JSON.stringify(a) !== JSON.stringify(b))
      out.push({ field: `body${pointer}`, recorded: a ?? ABSENT, received: b ?? ABSENT });
    return;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  for (const k of new Set([...Object.keys(ra), ...Object.keys(rb)])) {
    const child = `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (!(k in ra)) out.push({ field: `body${child}`, recorded: ABSENT, received: rb[k] });
    else if (!(k in rb)) out.push({ field: `body${child}`, recorded: ra[k], received: ABSENT });
    else walkDiff(ra[k], rb[k], child, out);
  }
}
