/**
 * `flis cassette diff A B`: two recordings of the same traffic (the same
 * client before and after a release, or two regional deployments) compared
 * exchange by exchange. Exchanges are paired by request with replay's own
 * matching rules (recorder/match.ts): the n-th exchange of a request in A with
 * the n-th of the same request in B. Bodies and statuses are judged the way
 * `flis diff` judges two live deployments (reporting/shape-diff.ts): a status
 * class that differs, a documented field present in one and absent from the
 * other, a documented field of another type. Left open, as there: exact codes
 * within a class, values, ordering, id formats, undocumented extra fields.
 * Allow-listed response headers are compared too. B is indexed (requests only)
 * and read by offset; A is walked once, so neither file is held in memory.
 */
import type { LocatedExchange } from '../recorder/cassette-format.ts';
import { fileParts, parseExchange, parseRequestHead, walkCassette } from '../recorder/cassette-reader.ts';
import { defaultMatchOptions, type IndexEntry, matchKey } from '../recorder/match.ts';
import { ExchangeStore } from '../recorder/replay-store.ts';
import { matchOperation } from '../specs/contract.ts';
import { jsonValueOf } from './cassettes.ts';
import { differencesByOperation, type ObservedAnswer, type PairedAnswers } from './shape-diff.ts';
import { markdownText } from './escape-markdown.ts';

export interface CassetteDifference {
  kind: 'status' | 'field-presence' | 'field-type' | 'header' | 'unpaired';
  /** True when it breaks what the contract pins; false for what it leaves open but a reader may want to see. */
  matters: boolean;
  operationId: string | null;
  /** The header name or the JSON pointer (from the contract's schema walk), when there is one. */
  path?: string;
  a: string;
  b: string;
  /** One request that shows it, e.g. "GET /offers?start=…", with the line in each file. */
  request: string;
}

export interface CassetteDiff {
  a: string;
  b: string;
  paired: number;
  differences: CassetteDifference[];
}

/** Response headers compared by value (media type only for content-type); the others by presence. */
const VALUE_HEADERS = new Set(['content-type', 'allow', 'deprecation', 'sunset']);
const MAX_HEADER_DIFFERENCES = 50;

function describe(e: LocatedExchange): string {
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(e.request.query)) for (const x of Array.isArray(v) ? v : [v]) qs.append(k, x);
  const s = qs.toString();
  return `${e.request.method} ${e.request.path}${s ? `?${s}` : ''}`;
}

function one(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v.join(', ') : v;
}

function headerValue(name: string, v: string | string[] | undefined): string | undefined {
  const s = one(v);
  if (s === undefined) return undefined;
  if (name === 'content-type') return s.split(';')[0]!.trim().toLowerCase();
  if (name === 'allow')
    return s
      .split(',')
      .map((x) => x.trim().toUpperCase())
      .sort()
      .join(', ');
  return s;
}

const isJson = (ct: string | undefined): boolean => ct !== undefined && /[/+]json$/.test(ct);

function headerDifferences(a: LocatedExchange, b: LocatedExchange, operationId: string | null): CassetteDifference[] {
  const out: CassetteDifference[] = [];
  const names = new Set([...Object.keys(a.response.headers), ...Object.keys(b.response.headers)]);
  for (const name of [...names].sort()) {
    const va = headerValue(name, a.response.headers[name]);
    const vb = headerValue(name, b.response.headers[name]);
    const differs = VALUE_HEADERS.has(name) ? va !== vb : (va === undefined) !== (vb === undefined);
    if (!differs) continue;
    // A JSON body must carry a JSON content type (spec 4): losing it matters, any other header change is shown only.
    const matters = name === 'content-type' && isJson(va) !== isJson(vb) && (a.response.body?.size ?? 0) > 0;
    out.push({
      kind: 'header',
      matters,
      operationId,
      path: name,
      a: va ?? '(absent)',
      b: vb ?? '(absent)',
      request: `${describe(a)} (A line ${a.line}, B line ${b.line})`,
    });
  }
  return out;
}

/** The answer as the shape comparison reads it; held only while the two cassettes are compared, never written. */
function answer(e: LocatedExchange): ObservedAnswer {
  return { status: e.response.status, body: jsonValueOf(e.response.body) };
}

/** B's requests, by match key, in the order recorded. */
type RequestIndex = Map<string, { list: IndexEntry[]; next: number }>;

/** B indexed by its requests only (offsets, not bodies), so a large cassette is not held in memory. */
function indexRequests(file: string): RequestIndex {
  const index: RequestIndex = new Map();
  walkCassette(file, fileParts(file), { allowTorn: true }, (doc) => {
    const head = parseRequestHead(file, doc);
    const key = matchKey(head.request, defaultMatchOptions);
    const entry: IndexEntry = {
      seq: head.seq,
      line: head.line,
      operationId: head.operationId,
      offset: doc.offset,
      length: doc.length,
      docLine: doc.line,
    };
    const slot = index.get(key);
    if (slot) slot.list.push(entry);
    else index.set(key, { list: [entry], next: 0 });
  });
  return index;
}

/** The next exchange of B with this request not yet paired: the n-th in A pairs with the n-th in B. */
function takeNext(index: RequestIndex, key: string): IndexEntry | undefined {
  const slot = index.get(key);
  return slot && slot.next < slot.list.length ? slot.list[slot.next++] : undefined;
}

/** What B recorded that A never asked, once A has been walked. */
function unpairedInB(index: RequestIndex): CassetteDifference[] {
  return [...index.values()].flatMap((slot) =>
    slot.list.slice(slot.next).map(
      (e): CassetteDifference => ({
        kind: 'unpaired',
        matters: true,
        operationId: null,
        a: '(not recorded)',
        b: `line ${e.line}`,
        request: `seq ${e.seq} of B`,
      }),
    ),
  );
}

/** Bodies and statuses judged per operation, as `flis diff` judges two deployments (reporting/shape-diff.ts). */
function shapeDifferences(pairs: PairedAnswers[]): CassetteDifference[] {
  return differencesByOperation(pairs).map(
    (d): CassetteDifference => ({
      kind: d.kind,
      matters: true,
      operationId: d.operationId,
      // Written to diff.json as it stands: a difference without a path has no path key.
      ...(d.path !== undefined ? { path: d.path } : {}),
      a: d.a,
      b: d.b,
      request: d.request,
    }),
  );
}

/** Throws CassetteParseError (exit 2) when either file is not a readable cassette. */
export function diffCassettes(fileA: string, fileB: string): CassetteDiff {
  const index = indexRequests(fileB);
  const storeB = new ExchangeStore(fileB);
  const pairs: PairedAnswers[] = [];
  const out: CassetteDifference[] = [];
  let headerDiffs = 0;
  let paired = 0;
  try {
    walkCassette(fileA, fileParts(fileA), { allowTorn: true }, (doc) => {
      const a = parseExchange(fileA, doc);
      const operationId = matchOperation(a.request.method, a.request.path)?.operationId ?? null;
      const entry = takeNext(index, matchKey(a.request, defaultMatchOptions));
      if (!entry) {
        out.push({
          kind: 'unpaired',
          matters: true,
          operationId,
          a: `line ${a.line}`,
          b: '(not recorded)',
          request: describe(a),
        });
        return;
      }
      const b = storeB.read(entry);
      paired += 1;
      const request = `${describe(a)} (A line ${a.line}, B line ${b.line})`;
      // An operation's answers are compared by shape with its other answers; without an operation only the
      // status class can be judged.
      if (operationId) pairs.push({ operationId, request, a: answer(a), b: answer(b) });
      else if (Math.floor(a.response.status / 100) !== Math.floor(b.response.status / 100))
        out.push({
          kind: 'status',
          matters: true,
          operationId,
          a: String(a.response.status),
          b: String(b.response.status),
          request,
        });
      for (const d of headerDifferences(a, b, operationId))
        if (d.matters || headerDiffs++ < MAX_HEADER_DIFFERENCES) out.push(d);
    });
  } finally {
    storeB.close();
  }
  return { a: fileA, b: fileB, paired, differences: [...shapeDifferences(pairs), ...out, ...unpairedInB(index)] };
}

export function diffLine(d: CassetteDifference): string {
  return `${d.matters ? 'DIFFERS' : 'note'} ${d.operationId ?? '(no operation)'} ${d.kind}${d.path ? ` ${d.path}` : ''}: A ${d.a}, B ${d.b} (${d.request})`;
}

export function diffMarkdown(r: CassetteDiff): string {
  // What the cassettes hold (paths, values) is theirs: never markup, never a second line (escape-markdown.ts).
  const cell = markdownText;
  const rows = r.differences.map(
    (d) =>
      `| ${d.matters ? 'yes' : 'no'} | ${d.operationId ?? ''} | ${d.kind} | ${cell(d.path ?? '')} | ${cell(d.a)} | ${cell(d.b)} | ${cell(d.request)} |`,
  );
  return [
    '# flis cassette diff',
    '',
    `A: ${cell(r.a)}; B: ${cell(r.b)}; ${r.paired} exchange(s) paired by request.`,
    '',
    ...(r.differences.length
      ? ['| matters | operation | kind | path | A | B | request |', '|---|---|---|---|---|---|---|', ...rows]
      : ['No difference beyond what the contract leaves open.']),
    '',
  ].join('\n');
}
