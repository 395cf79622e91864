/**
 * The recorder: a reverse proxy on loopback that forwards `/apis/v0/...` to the
 * upstream deployment over one keep-alive undici Pool, streams bodies both
 * ways unchanged, and appends each completed exchange — redacted and
 * contract-checked — to the cassette before the client sees its response end.
 * The mode (recorder/modes.ts) decides whether the cassette answers first and
 * what a request it cannot answer leads to; in `replay` mode no upstream exists.
 */
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { performance } from 'node:perf_hooks';
import type { Dispatcher } from 'undici';
import { BodyCapture, decodeBody, encodeBody } from './body.ts';
import type { Exchange, LocatedExchange, RecordedRequest, RecordedResponse, UpstreamFailure } from './cassette-format.ts';
import { CassetteWriter, type LateRedaction } from './cassette-writer.ts';
import { readCassette } from './cassette-reader.ts';
import { checkExchange, formatViolation } from './contract-check.ts';
import { CassetteSecretError } from './errors.ts';
import { cassetteHeader } from './header.ts';
import { defaultMatchOptions, Matcher, type MatchOptions } from './match.ts';
import { missAnswer, MISS_STATUS } from './miss.ts';
import { modePolicies, type Mode } from './modes.ts';
import { credentialHeaders, keepHeaders, redactionPolicy, Redactor, type RedactionPolicy } from './redact.ts';
import { credentialsOf, findSecret, secretsFromEnv, type Secret } from './secrets.ts';
import {
  classifyFailure, failureBody, failureStatus, forwardRequestHeaders, forwardResponseHeaders, openUpstream,
  publicBaseUrl, type Upstream,
} from './upstream.ts';

/** The path prefix the recorder serves, the same as every deployment's (spec 9 rule 2). */
export const BASE_PATH = '/apis/v0';
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
/** The largest request body held in memory to be matched (modes new and replay). */
const MAX_BUFFERED_BODY = 64 * 1024 * 1024;

export interface RecorderOptions {
  mode: Mode;
  cassette: string;
  /** Needed unless mode is `replay`. `deployment` is the name written in the cassette header (never a token). */
  upstream?: { baseUrl: string; deployment: string | null };
  host?: string;
  port?: number;
  /** Secret values to keep out of the cassette; default: every token variable of `env`. */
  secrets?: Secret[];
  env?: NodeJS.ProcessEnv;
  /** Header names to keep besides the allow-list. */
  keepHeaders?: string[];
  match?: Partial<MatchOptions>;
  /** The most body bytes written per body; more streams through but is not kept. */
  maxBodyBytes?: number;
  upstreamTimeoutMs?: number;
  /** fdatasync after every exchange. */
  durable?: boolean;
  /** Live messages: violations, misses, upstream failures, refused writes. Never carries a secret. */
  log?: (line: string, kind: LogKind) => void;
}

export type LogKind = 'violation' | 'miss' | 'upstream-failure' | 'refused-write' | 'internal';

export interface RecorderStats {
  exchanges: number;
  written: number;
  replayed: number;
  misses: number;
  failures: number;
  violations: number;
  refusedWrites: number;
}

export interface Recorder {
  /** The base URL clients point at, ending in /apis/v0. */
  baseUrl: string;
  stats: RecorderStats;
  close(): Promise<void>;
}

interface Ctx {
  o: RecorderOptions;
  redactor: Redactor;
  headers: RedactionPolicy;
  matcher: Matcher | undefined;
  matchOptions: MatchOptions;
  writer: CassetteWriter | undefined;
  upstream: Upstream | undefined;
  upstreamName: string;
  cap: number;
  stats: RecorderStats;
  log: (line: string, kind: LogKind) => void;
}

export async function startRecorder(o: RecorderOptions): Promise<Recorder> {
  const policy = modePolicies[o.mode];
  if (policy.needsUpstream && !o.upstream) throw new Error(`mode '${o.mode}' needs an upstream`);
  const matchOptions: MatchOptions = { ...defaultMatchOptions, ...o.match };
  const existing = policy.replayFirst && (o.mode === 'replay' || existsSync(o.cassette)) ? readCassette(o.cassette) : undefined;
  const lastSeq = existing?.exchanges.reduce((m, e) => Math.max(m, e.seq), 0) ?? 0;
  const ctx: Ctx = {
    o,
    redactor: new Redactor(o.secrets ?? secretsFromEnv(o.env ?? process.env)),
    headers: redactionPolicy(o.keepHeaders),
    matcher: existing ? new Matcher(existing.exchanges, matchOptions) : undefined,
    matchOptions,
    writer: undefined,
    upstream: o.upstream && policy.needsUpstream ? openUpstream(o.upstream.baseUrl, { ...(o.upstreamTimeoutMs ? { timeoutMs: o.upstreamTimeoutMs } : {}) }) : undefined,
    upstreamName: o.upstream ? publicBaseUrl(o.upstream.baseUrl) : '(none)',
    cap: o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    stats: { exchanges: 0, written: 0, replayed: 0, misses: 0, failures: 0, violations: 0, refusedWrites: 0 },
    log: o.log ?? (() => {}),
  };
  if (policy.write !== 'none') {
    const header = cassetteHeader(o.upstream?.deployment ?? null, o.upstream ? ctx.upstreamName : null);
    ctx.writer = new CassetteWriter(o.cassette, { mode: policy.write, header, firstSeq: lastSeq + 1, durable: o.durable ?? false });
  }
  const server = createServer({ keepAlive: true }, (req, res) => {
    handle(ctx, req, res).catch((err: unknown) => internalError(ctx, res, err));
  });
  server.keepAliveTimeout = 10_000;
  await listen(server, o.host ?? '127.0.0.1', o.port ?? 0);
  const addr = server.address() as AddressInfo;
  const host = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return {
    baseUrl: `http://${host}:${addr.port}${BASE_PATH}`,
    stats: ctx.stats,
    close: () => closeAll(ctx, server),
  };
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    // A deep backlog: a burst of new connections must queue, not be dropped and retried a second later.
    server.listen({ host, port, backlog: 4096 }, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

async function closeAll(ctx: Ctx, server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
  await ctx.upstream?.pool.close();
  ctx.writer?.close();
}

async function handle(ctx: Ctx, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const t0 = performance.now();
  const startedAt = new Date().toISOString();
  const url = new URL(req.url ?? '/', 'http://recorder.invalid');
  if (url.pathname !== BASE_PATH && !url.pathname.startsWith(`${BASE_PATH}/`)) {
    sendJson(res, 404, { code: 'FLIS_ERR_USAGE', message: `the recorder serves ${BASE_PATH}/...; point the client's base URL at it, ending in ${BASE_PATH}` });
    return;
  }
  const rel = url.pathname.slice(BASE_PATH.length) || '/';
  const authorization = headerValue(req.headers.authorization);
  const credential = authorization ? credentialsOf(authorization) : undefined;
  const redactor = credential ? ctx.redactor.with([{ label: 'the Authorization header', value: credential }]) : ctx.redactor;
  const policy = modePolicies[ctx.o.mode];
  const x: Pending = { t0, startedAt, rel, search: url.search, url, authorization, redactor };
  if (!policy.replayFirst) return forward(ctx, req, res, x, undefined);
  // Read whole: it is matched now and may still be forwarded (mode new), so it cannot be cut at the cassette's cap.
  const capture = new BodyCapture(MAX_BUFFERED_BODY);
  for await (const chunk of req) capture.add(chunk as Buffer);
  if (capture.truncated) {
    sendJson(res, 413, { code: 'FLIS_ERR_USAGE', message: `request bodies over ${MAX_BUFFERED_BODY} bytes cannot be matched against a cassette (mode ${ctx.o.mode}); record them with --mode record` });
    return;
  }
  const recorded = recordedRequest(ctx, req, x, capture);
  const hit = ctx.matcher?.take(recorded);
  if (hit) return serveRecorded(ctx, res, hit);
  if (policy.onMiss === 'error') return answerMiss(ctx, res, recorded);
  return forward(ctx, req, res, x, capture);
}

interface Pending {
  t0: number;
  startedAt: string;
  rel: string;
  search: string;
  url: URL;
  authorization: string | undefined;
  redactor: Redactor;
}

function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}

function queryOf(url: URL): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of url.searchParams) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

/** The request as it will be written: redacted, allow-listed headers, body as captured. */
function recordedRequest(ctx: Ctx, req: IncomingMessage, x: Pending, body: BodyCapture | undefined): RecordedRequest {
  const r = x.redactor;
  let stored = null;
  if (body) {
    const all = body.bytes();
    const kept = all.length > ctx.cap ? all.subarray(0, ctx.cap) : all;
    stored = encodeBody(kept, headerValue(req.headers['content-type']), body.size, body.size > kept.length);
  }
  return {
    method: (req.method ?? 'GET').toUpperCase(),
    path: r.text(x.rel),
    query: r.query(queryOf(x.url)),
    headers: keepHeaders(req.headers, ctx.headers.requestHeaders, r),
    body: r.body(stored),
  };
}

function hasBody(req: IncomingMessage): boolean {
  const len = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (len !== undefined && len !== '0');
}

/** Yields the client's body to undici while keeping up to the cap of it. */
async function* tee(req: IncomingMessage, capture: BodyCapture): AsyncGenerator<Buffer> {
  for await (const chunk of req) {
    capture.add(chunk as Buffer);
    yield chunk as Buffer;
  }
}

/**
 * Forward over undici's dispatch handler API: the response is written to the
 * client chunk by chunk as it arrives (backpressure pauses the upstream), with
 * no intermediate stream, and recorded when it ends.
 */
function forward(ctx: Ctx, req: IncomingMessage, res: ServerResponse, x: Pending, buffered: BodyCapture | undefined): Promise<void> {
  const up = ctx.upstream!;
  const reqCapture = buffered ?? new BodyCapture(ctx.cap);
  const body = buffered ? (buffered.size > 0 ? buffered.bytes() : undefined) : hasBody(req) ? tee(req, reqCapture) : undefined;
  return new Promise<void>((resolve) => {
    let status = 0;
    let headers: Record<string, string | string[] | undefined> = {};
    let firstByteMs = 0;
    let clientGone = false;
    const resCapture = new BodyCapture(ctx.cap);
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(controller) {
        // The client left: stop the upstream too; there is no completed exchange to record.
        res.once('close', () => {
          if (res.writableFinished) return;
          clientGone = true;
          controller.abort(new Error('the client closed the connection'));
        });
      },
      onResponseStart(controller, statusCode, responseHeaders) {
        if (statusCode < 200) return; // 1xx informational answers are not the exchange.
        status = statusCode;
        headers = responseHeaders;
        firstByteMs = performance.now() - x.t0;
        res.writeHead(statusCode, forwardResponseHeaders(responseHeaders));
      },
      onResponseData(controller, chunk) {
        resCapture.add(chunk);
        if (!res.write(chunk)) {
          controller.pause();
          res.once('drain', () => controller.resume());
        }
      },
      onResponseEnd() {
        record(ctx, req, x, reqCapture, recordedResponse(ctx, status, headers, resCapture, x, firstByteMs), undefined);
        res.end();
        resolve();
      },
      onResponseError(controller, err) {
        resolve();
        if (clientGone) return;
        const failure = classifyFailure(err, up.timeoutMs);
        if (!res.headersSent) return answerFailure(ctx, req, res, x, reqCapture, failure);
        // Headers are already out: record what came and cut the client off, so it cannot take a partial body for a whole one.
        record(ctx, req, x, reqCapture, recordedResponse(ctx, status, headers, resCapture, x, firstByteMs), failure);
        res.destroy();
      },
    };
    up.pool.dispatch({
      method: (req.method ?? 'GET') as Dispatcher.HttpMethod,
      path: `${up.basePath}${x.rel}${x.search}`,
      headers: forwardRequestHeaders(req.headers),
      // undici streams an async iterable body (lib/core/request.js); the typing just does not say so.
      body: body as Buffer | Readable | undefined,
      headersTimeout: up.timeoutMs,
      bodyTimeout: up.timeoutMs,
    }, handler);
  });
}

function recordedResponse(
  ctx: Ctx, status: number, headers: Record<string, string | string[] | undefined>, body: BodyCapture, x: Pending, firstByteMs: number,
): RecordedResponse {
  const ct = headerValue(headers['content-type']);
  return {
    status,
    headers: keepHeaders(headers, ctx.headers.responseHeaders, x.redactor),
    // Redacted as it is written (lateBodyRedaction), which is cheaper than walking every body.
    body: encodeBody(body.bytes(), ct, body.size, body.truncated),
    timing: { durationMs: round(performance.now() - x.t0), firstByteMs: round(firstByteMs) },
  };
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

function answerFailure(ctx: Ctx, req: IncomingMessage, res: ServerResponse, x: Pending, reqCapture: BodyCapture, failure: UpstreamFailure): void {
  const status = failureStatus(failure);
  const bytes = Buffer.from(JSON.stringify(failureBody(failure, ctx.upstreamName)));
  const capture = new BodyCapture(ctx.cap);
  capture.add(bytes);
  const response = recordedResponse(ctx, status, { 'content-type': 'application/json' }, capture, x, performance.now() - x.t0);
  ctx.log(`upstream failure: ${req.method} ${x.redactor.text(x.rel)} → ${status} (${failure.kind}, ${failure.code})`, 'upstream-failure');
  record(ctx, req, x, reqCapture, response, failure);
  if (!res.headersSent) res.writeHead(status, { 'content-type': 'application/json', 'content-length': bytes.length });
  res.end(bytes);
}

/** Check, log and append one completed exchange. Runs before the client's response is ended. */
function record(ctx: Ctx, req: IncomingMessage, x: Pending, reqCapture: BodyCapture, response: RecordedResponse, failure: UpstreamFailure | undefined): void {
  const request = recordedRequest(ctx, req, x, reqCapture);
  const { operation, violations } = checkExchange({ request, response, authorization: x.authorization, upstreamFailed: failure !== undefined });
  ctx.stats.exchanges += 1;
  if (failure) ctx.stats.failures += 1;
  ctx.stats.violations += violations.length;
  for (const v of violations) ctx.log(`${request.method} ${request.path} → ${response.status}: ${formatViolation(v)}`, 'violation');
  if (!ctx.writer) return;
  const exchange: Omit<Exchange, 'seq'> = {
    startedAt: x.startedAt,
    operationId: operation?.operationId ?? null,
    request,
    response,
    ...(failure ? { failure } : {}),
    violations,
  };
  try {
    ctx.writer.append(exchange, x.redactor.forms, lateBodyRedaction(x.redactor));
    ctx.stats.written += 1;
  } catch (err) {
    if (!(err instanceof CassetteSecretError)) throw err;
    ctx.stats.refusedWrites += 1;
    ctx.log(`${err.code}: ${err.message}`, 'refused-write');
  }
}

/**
 * The response body is redacted only when its written text holds a secret:
 * the text shows every form a JSON or text value can take. A base64 body is
 * always redacted, on its bytes, since a secret inside it need not show in
 * its base64 text.
 */
function lateBodyRedaction(r: Redactor): LateRedaction {
  return (e, text) => {
    const body = e.response.body;
    if (!body || r.forms.length === 0) return undefined;
    if (body.encoding !== 'base64' && !findSecret(text, r.forms)) return undefined;
    return { ...e, response: { ...e.response, body: r.body(body) } };
  };
}

function serveRecorded(ctx: Ctx, res: ServerResponse, e: LocatedExchange): void {
  ctx.stats.replayed += 1;
  const bytes = decodeBody(e.response.body);
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(e.response.headers)) if (!(credentialHeaders as readonly string[]).includes(k)) headers[k] = v;
  headers['content-length'] = String(bytes.length);
  headers['x-flis-cassette'] = `replayed seq=${e.seq}`;
  res.writeHead(e.response.status, headers);
  res.end(bytes);
}

function answerMiss(ctx: Ctx, res: ServerResponse, request: RecordedRequest): void {
  ctx.stats.misses += 1;
  const answer = missAnswer(ctx.o.cassette, request, ctx.matcher, ctx.o.mode);
  ctx.log(`FLIS_ERR_CASSETTE_MISS: ${answer.summary}`, 'miss');
  sendJson(res, MISS_STATUS, answer.body, { 'x-flis-cassette': 'miss' });
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const bytes = Buffer.from(JSON.stringify(body));
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(bytes.length), ...headers });
  res.end(bytes);
}

function internalError(ctx: Ctx, res: ServerResponse, err: unknown): void {
  const message = ctx.redactor.text(err instanceof Error ? err.message : String(err));
  ctx.log(`FLIS_ERR_INTERNAL: ${message}`, 'internal');
  if (res.headersSent) {
    res.destroy();
    return;
  }
  sendJson(res, 500, { code: 'FLIS_ERR_INTERNAL', message: `the recorder failed on this request: ${message}` });
}
