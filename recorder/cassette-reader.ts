/**
 * Reads a cassette back, strictly: every problem is a CassetteParseError that
 * names the file, the line and what was expected there. A last document
 * without its `...` end marker is a torn write (the recorder died while
 * writing it) and is reported, never silently replayed.
 */
import { readFileSync } from 'node:fs';
import { LineCounter, parseAllDocuments, type Document } from 'yaml';
import {
  CASSETTE_FORMAT,
  CASSETTE_KIND,
  type BodyEncoding,
  type CassetteHeader,
  type HeaderMap,
  type LocatedExchange,
  type StoredBody,
  type UpstreamFailure,
  type Violation,
} from './cassette-format.ts';
import { CassetteParseError } from './errors.ts';

export interface Cassette {
  file: string;
  header: CassetteHeader;
  exchanges: LocatedExchange[];
}

export interface ReadOptions {
  /** Drop a torn last exchange instead of failing (`torn` then says where it was). */
  allowTorn?: boolean;
}

export interface ReadResult extends Cassette {
  torn?: { line: number };
}

export function readCassette(file: string, options: ReadOptions = {}): ReadResult {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new CassetteParseError(file, 1, 'a readable cassette file', (e as NodeJS.ErrnoException).code ?? String(e));
  }
  return parseCassette(text, file, options);
}

type Path = Array<string | number>;
type Plain = Record<string, unknown>;

/** Locates nodes of one YAML document by path, for line numbers in messages. */
class DocCtx {
  constructor(
    readonly file: string,
    readonly doc: Document.Parsed,
    readonly lc: LineCounter,
  ) {}

  line(path: Path): number {
    for (let p = path; ; p = p.slice(0, -1)) {
      const node = p.length
        ? (this.doc.getIn(p, true) as { range?: [number, number, number] } | undefined)
        : this.doc.contents;
      const at = node?.range?.[0] ?? (p.length ? undefined : this.doc.range[0]);
      if (at !== undefined) return this.lc.linePos(at).line;
      if (p.length === 0) return this.lc.linePos(this.doc.range[0]).line;
    }
  }

  fail(path: Path, expected: string, found?: unknown): never {
    const shown = found === undefined ? 'nothing' : JSON.stringify(found)?.slice(0, 60);
    throw new CassetteParseError(
      this.file,
      this.line(path),
      `${path.length ? `${path.join('.')}: ` : ''}${expected}`,
      shown,
    );
  }
}

export function parseCassette(text: string, file: string, options: ReadOptions = {}): ReadResult {
  const lc = new LineCounter();
  const docs = parseAllDocuments(text, { lineCounter: lc, uniqueKeys: true });
  if (!Array.isArray(docs)) throw new CassetteParseError(file, 1, 'a YAML stream', 'an empty file');
  for (const doc of docs) {
    const err = doc.errors[0];
    if (err) throw new CassetteParseError(file, err.linePos?.[0].line ?? 1, 'valid YAML', err.message.split('\n')[0]);
  }
  const [first, ...rest] = docs;
  if (!first)
    throw new CassetteParseError(file, 1, `a header document with format: ${CASSETTE_FORMAT}`, 'an empty file');
  const header = readHeader(new DocCtx(file, first, lc));
  const last = rest[rest.length - 1];
  let torn: { line: number } | undefined;
  if (last && !last.directives.docEnd) {
    const line = lc.linePos(last.range[0]).line;
    if (!options.allowTorn) {
      throw new CassetteParseError(
        file,
        line,
        `the exchange starting here to end with a '...' line; it is torn (the recorder stopped while writing it). Delete from line ${line} to the end to keep the ${rest.length - 1} complete exchanges`,
      );
    }
    torn = { line };
    rest.pop();
  }
  const exchanges = rest.map((doc) => readExchange(new DocCtx(file, doc, lc)));
  return { file, header, exchanges, ...(torn ? { torn } : {}) };
}

function readHeader(c: DocCtx): CassetteHeader {
  const h = c.doc.toJS() as Plain | null;
  if (!isMap(h)) c.fail([], `a header mapping with format: ${CASSETTE_FORMAT}`, h);
  if (h.format !== CASSETTE_FORMAT)
    c.fail(['format'], `${CASSETTE_FORMAT} (the only cassette format this tool reads)`, h.format);
  if (h.kind !== undefined && h.kind !== CASSETTE_KIND) c.fail(['kind'], `kind: ${CASSETTE_KIND}`, h.kind);
  const tool = isMap(h.tool) ? h.tool : {};
  return {
    format: CASSETTE_FORMAT,
    kind: CASSETTE_KIND,
    recordedAt: str(c, h, ['recordedAt'], ''),
    deployment: typeof h.deployment === 'string' ? h.deployment : null,
    upstream: typeof h.upstream === 'string' ? h.upstream : null,
    specVersion: str(c, h, ['specVersion'], ''),
    tool: { name: String(tool.name ?? ''), version: String(tool.version ?? '') },
    ...(h.labels !== undefined ? { labels: labelsOf(c, h.labels) } : {}),
  };
}

function labelsOf(c: DocCtx, v: unknown): Record<string, string> {
  const m = stringMap(c, v, ['labels']);
  for (const [k, x] of Object.entries(m)) if (Array.isArray(x)) c.fail(['labels', k], 'a string label', x);
  return m as Record<string, string>;
}

function readExchange(c: DocCtx): LocatedExchange {
  const e = c.doc.toJS() as unknown;
  if (!isMap(e)) c.fail([], 'an exchange mapping with request and response', e);
  const req = isMap(e.request)
    ? e.request
    : c.fail(['request'], 'a request mapping (method, path, query, headers, body)', e.request);
  const res = isMap(e.response)
    ? e.response
    : c.fail(['response'], 'a response mapping (status, headers, body, timing)', e.response);
  const method = req.method;
  if (typeof method !== 'string' || !/^[A-Z]+$/.test(method))
    c.fail(['request', 'method'], 'an HTTP method in capitals, e.g. GET', method);
  const path = req.path;
  if (typeof path !== 'string' || !path.startsWith('/'))
    c.fail(['request', 'path'], "a path starting with '/', relative to the base URL", path);
  const status = res.status;
  if (!Number.isInteger(status) || (status as number) < 100 || (status as number) > 599)
    c.fail(['response', 'status'], 'an HTTP status code from 100 to 599', status);
  const timing = isMap(res.timing) ? res.timing : {};
  return {
    line: c.line([]),
    seq: Number.isInteger(e.seq) ? (e.seq as number) : c.fail(['seq'], 'seq: a whole number', e.seq),
    startedAt: typeof e.startedAt === 'string' ? e.startedAt : '',
    operationId: typeof e.operationId === 'string' ? e.operationId : null,
    request: {
      method,
      path,
      query: stringMap(c, req.query, ['request', 'query']),
      headers: stringMap(c, req.headers, ['request', 'headers']) as HeaderMap,
      body: readBody(c, req, ['request']),
    },
    response: {
      status: status as number,
      headers: stringMap(c, res.headers, ['response', 'headers']) as HeaderMap,
      body: readBody(c, res, ['response']),
      timing: { durationMs: Number(timing.durationMs ?? 0), firstByteMs: Number(timing.firstByteMs ?? 0) },
    },
    ...(e.failure !== undefined ? { failure: readFailure(c, e.failure) } : {}),
    violations: Array.isArray(e.violations) ? (e.violations as Violation[]) : [],
  };
}

const encodings: BodyEncoding[] = ['json', 'text', 'base64'];

function readBody(c: DocCtx, m: Plain, at: Path): StoredBody | null {
  if (!('body' in m) || m.body === undefined) return null;
  const encoding = m.bodyEncoding;
  if (!encodings.includes(encoding as BodyEncoding))
    c.fail([...at, 'bodyEncoding'], "bodyEncoding: 'json', 'text' or 'base64' beside body", encoding);
  if (encoding !== 'json' && typeof m.body !== 'string')
    c.fail([...at, 'body'], `a string body for bodyEncoding ${encoding}`, m.body);
  if (encoding === 'base64' && !/^[A-Za-z0-9+/]*={0,2}$/.test(m.body as string))
    c.fail([...at, 'body'], 'base64 text', '(not base64)');
  const size =
    m.bodySize === undefined
      ? Buffer.byteLength(encoding === 'json' ? JSON.stringify(m.body) : (m.body as string))
      : m.bodySize;
  if (!Number.isInteger(size)) c.fail([...at, 'bodySize'], 'bodySize: a whole number of bytes', size);
  return {
    encoding: encoding as BodyEncoding,
    value: m.body,
    size: size as number,
    truncated: m.bodyTruncated === true,
  };
}

function readFailure(c: DocCtx, f: unknown): UpstreamFailure {
  const kinds = ['refused', 'reset', 'timeout', 'other'];
  if (!isMap(f) || !kinds.includes(f.kind as string))
    c.fail(['failure', 'kind'], `failure.kind: one of ${kinds.join(', ')}`, isMap(f) ? f.kind : f);
  return { kind: f.kind as UpstreamFailure['kind'], code: String(f.code ?? ''), message: String(f.message ?? '') };
}

function stringMap(c: DocCtx, v: unknown, at: Path): Record<string, string | string[]> {
  if (v === undefined || v === null) return {};
  if (!isMap(v)) c.fail(at, 'a mapping of names to strings', v);
  const out: Record<string, string | string[]> = {};
  for (const [k, x] of Object.entries(v)) {
    if (Array.isArray(x) && x.every(isScalar)) out[k] = x.map(String);
    else if (isScalar(x)) out[k] = String(x);
    else c.fail([...at, k], 'a string or a list of strings', x);
  }
  return out;
}

function str(c: DocCtx, m: Plain, at: Path, fallback: string): string {
  const v = m[at[at.length - 1] as string];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'string') c.fail(at, 'a string', v);
  return v;
}

function isScalar(x: unknown): x is string | number | boolean {
  return typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean';
}

function isMap(x: unknown): x is Plain {
  return !!x && typeof x === 'object' && !Array.isArray(x);
}
