/**
 * Reads a cassette back, strictly: every problem is a CassetteParseError that
 * names the file, the line and what was expected there. The file is read as a
 * stream of documents (recorder/cassette-documents.ts), each parsed alone, so
 * its size is bounded by the disk, not by memory or V8's string limit. A last
 * document without its `...` end marker is a torn write (the recorder died
 * while writing it), and text after the last document is junk: either is
 * reported as the cassette's tail, never silently replayed.
 */
import { closeSync } from 'node:fs';
import { openRegular } from '../errors/user-file.ts';
import { LineCounter, parseDocument, type Document } from 'yaml';
import {
  CASSETTE_FORMAT,
  CASSETTE_KIND,
  type BodyEncoding,
  type CassetteHeader,
  type LocatedExchange,
  type RecordedRequest,
  type StoredBody,
  type UpstreamFailure,
  type Violation,
} from './cassette-format.ts';
import {
  fileChunks,
  splitDocuments,
  type CassettePart,
  type RawDocument,
  type StrayLine,
  strayHead,
} from './cassette-documents.ts';
import { CassetteParseError } from './errors.ts';
import { pathEscape } from './path-escape.ts';
import { readFastYaml } from './yaml-read-fast.ts';
import { runToEnd } from '../schemas/registry.ts';

export interface Cassette {
  file: string;
  header: CassetteHeader;
  exchanges: LocatedExchange[];
}

export interface ReadOptions {
  /** Drop a torn last exchange, or text after the last document, instead of failing (`tail` then says what and where). */
  allowTorn?: boolean;
}

/**
 * What follows the last complete document and is not one: a document the
 * recorder was writing when it stopped (`torn`), or text that is no document
 * at all (`junk`). Both can be cut off (`flis cassette repair`) without
 * touching a complete exchange.
 */
export interface CassetteTail {
  kind: 'torn' | 'junk';
  line: number;
  /** Byte offset where the tail starts: the file's length once repaired. */
  offset: number;
  /** One line saying what was found, for lint, replay and repair. */
  message: string;
}

export interface ReadResult extends Cassette {
  torn?: { line: number } | undefined;
  tail?: CassetteTail | undefined;
}

/** The header and tail of a cassette walked document by document. */
export interface Walked {
  header: CassetteHeader;
  exchanges: number;
  tail?: CassetteTail | undefined;
}

export function readCassette(file: string, options: ReadOptions = {}): ReadResult {
  const exchanges: LocatedExchange[] = [];
  const w = walkCassette(file, fileParts(file), options, (doc) => exchanges.push(parseExchange(file, doc)));
  return result(file, w, exchanges);
}

export function parseCassette(text: string, file: string, options: ReadOptions = {}): ReadResult {
  const exchanges: LocatedExchange[] = [];
  const parts = splitDocuments([Buffer.from(text, 'utf8')]);
  const w = walkCassette(file, parts, options, (doc) => exchanges.push(parseExchange(file, doc)));
  return result(file, w, exchanges);
}

function result(file: string, w: Walked, exchanges: LocatedExchange[]): ReadResult {
  return {
    file,
    header: w.header,
    exchanges,
    tail: w.tail,
    torn: w.tail?.kind === 'torn' ? { line: w.tail.line } : undefined,
  };
}

function noHeader(file: string, stray: StrayLine): CassetteParseError {
  // A byte order mark is invisible when printed: name it, and how to be rid of it.
  const head = strayHead(stray, 60);
  const found = head.startsWith('\uFEFF')
    ? `a byte order mark (U+FEFF) before ${JSON.stringify(head.slice(1, 60))}; save the file as UTF-8 without a BOM`
    : JSON.stringify(head.slice(0, 60));
  return new CassetteParseError(
    file,
    stray.line,
    `a cassette document starting with '---' (the header, with format: ${CASSETTE_FORMAT})`,
    found,
  );
}

/** Only the header: the first document, without reading further (a cassette's header says what it was recorded for). */
export function readCassetteHeader(file: string): CassetteHeader {
  for (const part of fileParts(file)) {
    if (part.kind === 'stray') throw noHeader(file, part);
    return readHeader(docCtx(file, part));
  }
  throw new CassetteParseError(file, 1, `a header document with format: ${CASSETTE_FORMAT}`, 'an empty file');
}

/** The documents of a cassette file, read in chunks; an unreadable file is a CassetteParseError. */
export function fileParts(file: string, onIgnored?: (line: StrayLine) => void): Iterable<CassettePart> {
  // A device or a pipe can be endless (/dev/zero) or block for ever: a cassette is a file with an end (the rule of
  // every file a user names, errors/user-file.ts).
  const o = openRegular(file);
  if ('code' in o) throw new CassetteParseError(file, 1, 'a readable cassette file', o.code);
  if ('found' in o) throw new CassetteParseError(file, 1, 'a regular file (a cassette)', o.found);
  closeSync(o.fd);
  return splitDocuments(fileChunks(file), onIgnored);
}

/**
 * Walks a cassette: checks the header, hands every complete exchange document
 * to `onExchange` in file order (nothing is kept here, so memory does not
 * grow with the file), and says what tail, if any, follows the last one.
 */
export function walkCassette(
  file: string,
  parts: Iterable<CassettePart>,
  options: ReadOptions,
  onExchange: (doc: RawDocument, header: CassetteHeader) => void,
): Walked {
  return runToEnd(walkCassetteSteps(file, parts, options, onExchange));
}

/** walkCassette as steps: it pauses (yields) after each part, so a caller with an event loop can answer a signal. */
export function* walkCassetteSteps(
  file: string,
  parts: Iterable<CassettePart>,
  options: ReadOptions,
  onExchange: (doc: RawDocument, header: CassetteHeader) => void,
): Generator<void, Walked, void> {
  let header: CassetteHeader | undefined;
  let held: RawDocument | undefined;
  let stray: StrayLine | undefined;
  let exchanges = 0;
  const take = (doc: RawDocument): void => {
    if (!header) header = readHeader(docCtx(file, doc));
    else {
      onExchange(doc, header);
      exchanges += 1;
    }
  };
  for (const part of parts) {
    if (part.kind === 'stray') {
      if (!header && !held) throw noHeader(file, part);
      stray ??= part;
      continue;
    }
    if (stray)
      throw new CassetteParseError(
        file,
        stray.line,
        "a '---' line: text between two documents is not part of a cassette",
        JSON.stringify(strayHead(stray, 60)),
      );
    if (held) take(held);
    held = part;
    yield;
  }
  if (!held)
    throw new CassetteParseError(file, 1, `a header document with format: ${CASSETTE_FORMAT}`, 'an empty file');
  let tail: CassetteTail | undefined;
  if (held.complete || !header) take(held);
  else tail = tornTail(held, exchanges);
  if (!tail && stray) tail = junkTail(stray);
  if (tail && !options.allowTorn) throw new CassetteParseError(file, tail.line, tailExpectation(tail, exchanges));
  return { header: header!, exchanges, tail };
}

function tornTail(doc: RawDocument, complete: number): CassetteTail {
  return {
    kind: 'torn',
    line: doc.line,
    offset: doc.offset,
    message: `line ${doc.line}: the last exchange has no '...' end line; it is torn (the recorder stopped while writing it), and the ${complete} complete exchanges before it are intact`,
  };
}

function junkTail(s: StrayLine): CassetteTail {
  return {
    kind: 'junk',
    line: s.line,
    offset: s.offset,
    message: `line ${s.line}: text after the last document is not a cassette document (found ${JSON.stringify(strayHead(s, 40))})`,
  };
}

function tailExpectation(t: CassetteTail, complete: number): string {
  const fix = `run 'flis cassette repair FILE' to cut it off and keep the ${complete} complete exchanges`;
  return t.kind === 'torn'
    ? `the exchange starting here to end with a '...' line; it is torn (the recorder stopped while writing it). ${fix}`
    : `nothing after the last document; ${t.message.replace(/^line \d+: /, '')}. ${fix}`;
}

/** One exchange document, parsed and checked strictly (a mistake names the file and line). */
export function parseExchange(file: string, doc: RawDocument): LocatedExchange {
  return readExchange(docCtx(file, doc));
}

function docCtx(file: string, raw: RawDocument): DocCtx {
  return new DocCtx(file, raw.bytes.toString('utf8'), raw.line);
}

type Path = Array<string | number>;
type Plain = Record<string, unknown>;

interface Parsed {
  doc: Document.Parsed;
  lc: LineCounter;
}

/**
 * One document's value, read by the fast reader when the emitter wrote it and
 * by `yaml` otherwise; `yaml` also locates nodes by path for line numbers in
 * messages, so it runs on the fast path only when something is wrong.
 */
class DocCtx {
  private parsed: Parsed | undefined;
  readonly value: unknown;

  constructor(
    readonly file: string,
    readonly text: string,
    /** File line of the document's `---` line. */
    readonly baseLine = 1,
  ) {
    const fast = readFastYaml(text);
    this.value = fast !== undefined ? fast : this.yaml().doc.toJS();
  }

  private yaml(): Parsed {
    if (this.parsed) return this.parsed;
    const lc = new LineCounter();
    const doc = parseDocument(this.text, { lineCounter: lc, uniqueKeys: true });
    const err = doc.errors[0];
    if (err)
      throw new CassetteParseError(
        this.file,
        (err.linePos?.[0].line ?? 1) + this.baseLine - 1,
        'valid YAML',
        err.message.split('\n')[0],
      );
    this.parsed = { doc, lc };
    return this.parsed;
  }

  private fileLine(at: number): number {
    return this.yaml().lc.linePos(at).line + this.baseLine - 1;
  }

  /** The line of the document's first content line (the usual case needs no `yaml` parse). */
  firstLine(): number {
    return this.parsed ? this.line([]) : this.baseLine + 1;
  }

  line(path: Path): number {
    const { doc } = this.yaml();
    for (let p = path; ; p = p.slice(0, -1)) {
      const node: unknown = p.length ? doc.getIn(p, true) : doc.contents;
      const at = (hasRange(node) ? node.range[0] : undefined) ?? (p.length ? undefined : doc.range[0]);
      if (at !== undefined) return this.fileLine(at);
      if (p.length === 0) return this.fileLine(doc.range[0]);
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

function readHeader(c: DocCtx): CassetteHeader {
  const h = c.value;
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
  const labels: Record<string, string> = {};
  for (const [k, x] of Object.entries(stringMap(c, v, ['labels'])))
    labels[k] = typeof x === 'string' ? x : c.fail(['labels', k], 'a string label', x);
  return labels;
}

function readExchange(c: DocCtx): LocatedExchange {
  const e = exchangeMap(c);
  const res = isMap(e.response)
    ? e.response
    : c.fail(['response'], 'a response mapping (status, headers, body, timing)', e.response);
  const status = isWholeNumber(res.status) && res.status >= 100 && res.status <= 599 ? res.status : undefined;
  if (status === undefined) return c.fail(['response', 'status'], 'an HTTP status code from 100 to 599', res.status);
  const timing = isMap(res.timing) ? res.timing : {};
  return {
    ...exchangeHead(c, e),
    request: readRequest(c, e),
    response: {
      status,
      headers: stringMap(c, res.headers, ['response', 'headers']),
      body: readBody(c, res, ['response']),
      timing: { durationMs: Number(timing.durationMs ?? 0), firstByteMs: Number(timing.firstByteMs ?? 0) },
    },
    ...(e.failure !== undefined ? { failure: readFailure(c, e.failure) } : {}),
    violations: Array.isArray(e.violations) ? e.violations.filter(isViolation) : [],
  };
}

function exchangeMap(c: DocCtx): Plain {
  const e = c.value;
  if (!isMap(e)) c.fail([], 'an exchange mapping with request and response', e);
  return e;
}

function exchangeHead(c: DocCtx, e: Plain): Pick<LocatedExchange, 'line' | 'seq' | 'startedAt' | 'operationId'> {
  return {
    line: c.firstLine(),
    seq: isWholeNumber(e.seq) ? e.seq : c.fail(['seq'], 'seq: a whole number', e.seq),
    startedAt: typeof e.startedAt === 'string' ? e.startedAt : '',
    operationId: typeof e.operationId === 'string' ? e.operationId : null,
  };
}

function readRequest(c: DocCtx, e: Plain): RecordedRequest {
  const req = isMap(e.request)
    ? e.request
    : c.fail(['request'], 'a request mapping (method, path, query, headers, body)', e.request);
  const method = req.method;
  if (typeof method !== 'string' || !/^[A-Z]+$/.test(method))
    c.fail(['request', 'method'], 'an HTTP method in capitals, e.g. GET', method);
  const path = req.path;
  if (typeof path !== 'string' || !path.startsWith('/'))
    c.fail(['request', 'path'], "a path starting with '/', relative to the base URL", path);
  // A partner's cassette is untrusted: a path that could leave the base path is never replayed, served or sent.
  const way = pathEscape(path);
  if (way) c.fail(['request', 'path'], `a path that stays under the base path; this one has ${way}`, path);
  return {
    method,
    path,
    query: stringMap(c, req.query, ['request', 'query']),
    headers: stringMap(c, req.headers, ['request', 'headers']),
    body: readBody(c, req, ['request']),
  };
}

/** An exchange's head and request only, for replay's index. */
export type RequestHead = Pick<LocatedExchange, 'line' | 'seq' | 'operationId' | 'request'>;

const RESPONSE_LINE = Buffer.from('\nresponse:');

/**
 * The head and request of one exchange document, reading only the text before
 * its `response:` line when the request comes first (as the recorder writes
 * it): an index of a large cassette then never parses a response body. The
 * response is checked when the exchange is read whole (`parseExchange`).
 */
export function parseRequestHead(file: string, doc: RawDocument): RequestHead {
  const at = doc.bytes.indexOf(RESPONSE_LINE);
  const requestFirst = at > 0 && doc.bytes.lastIndexOf('\nrequest:', at) > 0;
  const text = requestFirst ? `${doc.bytes.toString('utf8', 0, at + 1)}...\n` : doc.bytes.toString('utf8');
  const c = new DocCtx(file, text, doc.line);
  const e = exchangeMap(c);
  return { ...exchangeHead(c, e), request: readRequest(c, e) };
}

const encodings: BodyEncoding[] = ['json', 'text', 'base64'];

function readBody(c: DocCtx, m: Plain, at: Path): StoredBody | null {
  if (!('body' in m) || m.body === undefined) return null;
  const encoding = m.bodyEncoding;
  if (!isBodyEncoding(encoding))
    return c.fail([...at, 'bodyEncoding'], "bodyEncoding: 'json', 'text' or 'base64' beside body", encoding);
  const body = m.body;
  const text = typeof body === 'string' ? body : undefined;
  if (encoding !== 'json' && text === undefined)
    c.fail([...at, 'body'], `a string body for bodyEncoding ${encoding}`, body);
  if (encoding === 'base64' && !/^[A-Za-z0-9+/]*={0,2}$/.test(text ?? ''))
    c.fail([...at, 'body'], 'base64 text', '(not base64)');
  const size =
    m.bodySize === undefined
      ? Buffer.byteLength(encoding === 'json' || text === undefined ? JSON.stringify(body) : text)
      : m.bodySize;
  if (!isWholeNumber(size)) return c.fail([...at, 'bodySize'], 'bodySize: a whole number of bytes', size);
  return { encoding, value: body, size, truncated: m.bodyTruncated === true };
}

const failureKinds: readonly UpstreamFailure['kind'][] = ['refused', 'reset', 'timeout', 'other'];

function isFailureKind(v: unknown): v is UpstreamFailure['kind'] {
  return failureKinds.some((k) => k === v);
}

function readFailure(c: DocCtx, f: unknown): UpstreamFailure {
  if (!isMap(f) || !isFailureKind(f.kind))
    return c.fail(['failure', 'kind'], `failure.kind: one of ${failureKinds.join(', ')}`, isMap(f) ? f.kind : f);
  return { kind: f.kind, code: String(f.code ?? ''), message: String(f.message ?? '') };
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
  const v = m[String(at[at.length - 1])];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'string') c.fail(at, 'a string', v);
  return v;
}

function isBodyEncoding(v: unknown): v is BodyEncoding {
  return encodings.some((e) => e === v);
}

function isWholeNumber(v: unknown): v is number {
  return Number.isInteger(v);
}

function isViolation(v: unknown): v is Violation {
  return isMap(v) && typeof v.check === 'string' && typeof v.message === 'string';
}

/** A yaml node with its source range (a scalar, map or sequence node; a pair has none). */
function hasRange(node: unknown): node is { range: [number, number, number] } {
  return typeof node === 'object' && node !== null && 'range' in node && Array.isArray(node.range);
}

function isScalar(x: unknown): x is string | number | boolean {
  return typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean';
}

function isMap(x: unknown): x is Plain {
  return !!x && typeof x === 'object' && !Array.isArray(x);
}
