/**
 * HAR 1.2 export and import, so a cassette opens in browser dev tools and HAR
 * viewers, and a HAR captured elsewhere becomes a cassette. Fields HAR has no
 * place for (seq, operationId, violations, upstream failures, truncation) ride
 * in `_flis` custom fields, which HAR 1.2 allows for names starting with `_`.
 * Import goes through the same body encoding and redaction as recording, so a
 * HAR from elsewhere never brings a token into a cassette.
 */
import { STATUS_CODES } from 'node:http';
import { encodeBody, decodeBody } from './body.ts';
import {
  CASSETTE_FORMAT,
  CASSETTE_KIND,
  type CassetteHeader,
  type Exchange,
  type HeaderMap,
  type QueryMap,
  type StoredBody,
  type UpstreamFailure,
  type Violation,
} from './cassette-format.ts';
import type { Cassette } from './cassette-reader.ts';
import { CassetteParseError } from './errors.ts';
import { pathEscape } from './path-escape.ts';
import { queryOf } from './exchange-record.ts';
import { toolInfo } from './header.ts';
import { keepHeaders, redactionPolicy, type Redactor } from './redact.ts';
import { matchOperation as operationFor, specVersion } from '../specs/contract.ts';

interface HarNameValue {
  name: string;
  value: string;
}

/** Written with JSON.stringify only, which leaves an undefined key out: an optional field may be given undefined. */
interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: unknown[];
    headers: HarNameValue[];
    queryString: HarNameValue[];
    postData?: { mimeType: string; text: string; _encoding?: 'base64' | undefined } | undefined;
    headersSize: number;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: unknown[];
    headers: HarNameValue[];
    content: { size: number; mimeType: string; text?: string | undefined; encoding?: 'base64' | undefined };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { send: number; wait: number; receive: number };
  _flis: {
    seq: number;
    operationId: string | null;
    requestBodyTruncated?: true | undefined;
    responseBodyTruncated?: true | undefined;
    failure?: UpstreamFailure | undefined;
    violations: Violation[];
  };
}

export interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string };
    entries: HarEntry[];
    _flis: { header: CassetteHeader };
  };
}

const DEFAULT_BASE = 'http://flis.invalid/apis/v0';

function pairs(m: HeaderMap | QueryMap): HarNameValue[] {
  return Object.entries(m).flatMap(([name, v]) => (Array.isArray(v) ? v : [v]).map((value) => ({ name, value })));
}

function header1(m: HeaderMap, name: string): string | undefined {
  const v = m[name];
  return Array.isArray(v) ? v[0] : v;
}

/** A stored body as HAR text: JSON and text as they are, anything else base64. */
function harText(b: StoredBody): { text: string; base64: boolean } {
  if (b.encoding === 'base64') return { text: b.value as string, base64: true };
  return { text: decodeBody(b).toString('utf8'), base64: false };
}

export function cassetteToHar(c: Cassette): Har {
  const base = harBase(c.header);
  return {
    log: {
      version: '1.2',
      creator: toolInfo(),
      entries: c.exchanges.map((e) => harEntry(e, base, c.header.recordedAt)),
      _flis: { header: c.header },
    },
  };
}

/** The origin and path the entries' URLs start with: the upstream the cassette was recorded from. */
export function harBase(header: CassetteHeader): string {
  return (header.upstream ?? DEFAULT_BASE).replace(/\/+$/, '');
}

export function harEntry(e: Exchange, base: string, fallbackTime: string): HarEntry {
  const qs = pairs(e.request.query);
  const search = new URLSearchParams(qs.map((p) => [p.name, p.value])).toString();
  const reqBody = e.request.body;
  const resBody = e.response.body;
  const resText = resBody ? harText(resBody) : undefined;
  const firstByte = Math.max(0, e.response.timing.firstByteMs);
  return {
    startedDateTime: e.startedAt || fallbackTime,
    time: Math.max(0, e.response.timing.durationMs),
    request: {
      method: e.request.method,
      url: `${base}${e.request.path}${search ? `?${search}` : ''}`,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(e.request.headers),
      queryString: qs,
      postData: reqBody ? postData(reqBody, header1(e.request.headers, 'content-type')) : undefined,
      headersSize: -1,
      bodySize: reqBody?.size ?? 0,
    },
    response: {
      status: e.response.status,
      statusText: STATUS_CODES[e.response.status] ?? '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(e.response.headers),
      content: {
        size: resBody?.size ?? 0,
        mimeType: header1(e.response.headers, 'content-type') ?? '',
        text: resText?.text,
        encoding: resText?.base64 ? 'base64' : undefined,
      },
      redirectURL: header1(e.response.headers, 'location') ?? '',
      headersSize: -1,
      bodySize: resBody?.size ?? 0,
    },
    cache: {},
    timings: { send: 0, wait: firstByte, receive: Math.max(0, e.response.timing.durationMs - firstByte) },
    _flis: {
      seq: e.seq,
      operationId: e.operationId,
      requestBodyTruncated: reqBody?.truncated ? true : undefined,
      responseBodyTruncated: resBody?.truncated ? true : undefined,
      failure: e.failure,
      violations: e.violations,
    },
  };
}

function postData(b: StoredBody, contentType: string | undefined): NonNullable<HarEntry['request']['postData']> {
  const t = harText(b);
  return { mimeType: contentType ?? '', text: t.text, _encoding: t.base64 ? 'base64' : undefined };
}

/** A HAR document (parsed JSON) as cassette header and exchanges; `file` names the HAR in errors. */
export function harToCassette(
  har: unknown,
  file: string,
  redactor: Redactor,
  keep: string[] = [],
): { header: CassetteHeader; exchanges: Array<Omit<Exchange, 'seq'>> } {
  const log = (har as { log?: { entries?: unknown; _flis?: { header?: CassetteHeader } } } | null)?.log;
  if (!log || !Array.isArray(log.entries))
    throw new CassetteParseError(file, 1, 'a HAR document: {"log": {"version": "1.2", "entries": [...]}}');
  const header: CassetteHeader = log._flis?.header ?? {
    format: CASSETTE_FORMAT,
    kind: CASSETTE_KIND,
    recordedAt: new Date().toISOString(),
    deployment: null,
    upstream: null,
    specVersion: specVersion(),
    tool: toolInfo(),
  };
  const policy = redactionPolicy(keep);
  const basePath = header.upstream ? new URL(header.upstream).pathname.replace(/\/+$/, '') : undefined;
  const exchanges = (log.entries as HarEntry[]).map((entry, i) =>
    fromEntry(entry, i, file, basePath, redactor, policy),
  );
  return { header, exchanges };
}

const isNameValues = (v: unknown): boolean =>
  v === undefined ||
  (Array.isArray(v) &&
    v.every((h) => h && typeof h === 'object' && typeof h.name === 'string' && typeof h.value === 'string'));
const isOptional = (v: unknown, type: string): boolean => v === undefined || typeof v === type;

/**
 * The fields an entry is read by, of the types HAR 1.2 gives them; the first that is not is named by its place
 * (log.entries[i].request.headers), so a HAR from another tool that is malformed is one line, not a stack trace.
 */
function checkEntryShape(e: HarEntry, i: number, file: string): void {
  const { request: q, response: r } = e;
  const content = r.content as unknown;
  const wrong = [
    ['request.method', typeof q.method === 'string'],
    ['request.headers', isNameValues(q.headers)],
    ['request.queryString', isNameValues(q.queryString)],
    ['request.postData', q.postData === undefined || (typeof q.postData === 'object' && q.postData !== null)],
    ['request.postData.text', isOptional(q.postData?.text, 'string')],
    ['response.headers', isNameValues(r.headers)],
    ['response.content', content === undefined || (typeof content === 'object' && content !== null)],
    ['response.content.text', isOptional(r.content?.text, 'string')],
    ['startedDateTime', isOptional(e.startedDateTime, 'string')],
  ].find(([, ok]) => !ok);
  if (wrong)
    throw new CassetteParseError(file, 1, `log.entries[${i}].${wrong[0]} to be as HAR 1.2 gives it`, 'another type');
}

/** The entry's URL; one that is not an absolute URL is named by its entry, never echoed (it may hold a secret). */
function absoluteUrl(raw: unknown, i: number, file: string): URL {
  try {
    return new URL(String(raw));
  } catch {
    throw new CassetteParseError(
      file,
      1,
      `log.entries[${i}].request.url to be an absolute URL (e.g. https://host/apis/v0/offers)`,
      'a value that is not a URL',
    );
  }
}

function fromEntry(
  e: HarEntry,
  i: number,
  file: string,
  basePath: string | undefined,
  r: Redactor,
  policy: ReturnType<typeof redactionPolicy>,
): Omit<Exchange, 'seq'> {
  if (!e?.request?.url || !e.response || typeof e.response.status !== 'number') {
    throw new CassetteParseError(file, 1, `log.entries[${i}] to have request.url and response.status`);
  }
  checkEntryShape(e, i, file);
  const url = absoluteUrl(e.request.url, i, file);
  const path = pathUnderBase(String(e.request.url), url, basePath, i, file);
  const reqHeaders = toMap(e.request.headers ?? []);
  const resHeaders = toMap(e.response.headers ?? []);
  const reqBody =
    e.request.postData?.text !== undefined
      ? bodyFrom(
          e.request.postData.text,
          e.request.postData._encoding === 'base64',
          e.request.postData.mimeType,
          e.request.bodySize,
          e._flis?.requestBodyTruncated === true,
        )
      : null;
  const c = e.response.content;
  const resBody =
    c?.text !== undefined
      ? bodyFrom(c.text, c.encoding === 'base64', c.mimeType, c.size, e._flis?.responseBodyTruncated === true)
      : null;
  const wait = e.timings?.wait ?? 0;
  return {
    startedAt: e.startedDateTime,
    operationId:
      e._flis?.operationId !== undefined
        ? e._flis.operationId
        : (operationFor(e.request.method, path)?.operationId ?? null),
    request: {
      method: e.request.method.toUpperCase(),
      path: r.text(path),
      // The URL's query, not queryString: HAR writers differ on whether its values are decoded (a browser keeps them
      // as sent, encoded), and a cassette keeps them decoded, as the recorder reads them.
      query: r.query(url.search !== '' ? queryOf(url) : toMap(e.request.queryString ?? [])),
      headers: keepHeaders(reqHeaders, policy.requestHeaders, r),
      body: r.body(reqBody),
    },
    response: {
      status: e.response.status,
      headers: keepHeaders(resHeaders, policy.responseHeaders, r),
      body: r.body(resBody),
      timing: { durationMs: e.time, firstByteMs: wait },
    },
    ...(e._flis?.failure ? { failure: e._flis.failure } : {}),
    violations: e._flis?.violations ?? [],
  };
}

/**
 * The entry's path relative to the base path (the header's upstream's, else the first /apis/v0/), as a recorded path
 * is. The URL parser resolves '..' and '%2e%2e' away, so the path is judged as the HAR wrote it
 * (recorder/path-escape.ts): an entry that could leave the base path, or is not under it at all, is refused by its
 * place, never imported as a request the client did not send.
 */
function pathUnderBase(raw: string, url: URL, basePath: string | undefined, i: number, file: string): string {
  const written = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#\\]*([^?#]*)/.exec(raw)?.[1] ?? url.pathname;
  const way = pathEscape(written || '/');
  if (way)
    throw new CassetteParseError(
      file,
      1,
      `log.entries[${i}].request.url to stay under the base path`,
      `a path with ${way}`,
    );
  const pathname = url.pathname;
  const prefix =
    basePath && (pathname === basePath || pathname.startsWith(`${basePath}/`))
      ? basePath
      : /^(.*?\/apis\/v0)(?:\/|$)/.exec(pathname)?.[1];
  if (prefix === undefined)
    throw new CassetteParseError(
      file,
      1,
      `log.entries[${i}].request.url under the base path ${basePath || '/apis/v0'} (import the API's entries only)`,
      'a URL outside it',
    );
  return pathname.slice(prefix.length) || '/';
}

function toMap(list: HarNameValue[]): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const { name, value } of list) {
    const prev = out[name];
    out[name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
  }
  return out;
}

function bodyFrom(
  text: string,
  base64: boolean,
  mimeType: string | undefined,
  size: number | undefined,
  truncated: boolean,
): StoredBody | null {
  const bytes = Buffer.from(text, base64 ? 'base64' : 'utf8');
  const wire = typeof size === 'number' && size >= bytes.length ? size : bytes.length;
  return encodeBody(bytes, mimeType || undefined, wire, truncated);
}
