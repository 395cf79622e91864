/**
 * Turning a finished exchange into a cassette entry: the request and response
 * as written (allow-listed headers, redacted values, bodies as captured), the
 * contract check, the live log, and the append — through the write queue, off
 * the client's response path (or before the response ends, with --durable).
 */
import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import { type BodyCapture, storedBody } from './body.ts';
import type { Exchange, RecordedRequest, RecordedResponse, UpstreamFailure } from './cassette-format.ts';
import type { LateRedaction } from './cassette-writer.ts';
import { checkExchangeInSlices, formatViolation, violationCount } from './contract-check.ts';
import { CassetteSecretError } from './errors.ts';
import { headerValue, type Ctx, type Pending } from './proxy-context.ts';
import { keepHeaders, type Redactor } from './redact.ts';
import { runToEnd } from '../schemas/registry.ts';
import { STAGE_TIMES, stageEnd, stageStart } from './stage-times.ts';

/** The query of a URL, decoded, a repeated name as a list: how cassettes keep a query. */
export function queryOf(url: URL): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  // Most requests have no query: reading searchParams would build a URLSearchParams for nothing.
  if (url.search === '') return out;
  for (const [k, v] of url.searchParams) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

/** The request as it will be written: redacted, allow-listed headers, body as captured. */
export function recordedRequest(
  ctx: Ctx,
  req: IncomingMessage,
  x: Pending,
  body: BodyCapture | undefined,
): RecordedRequest {
  const r = x.redactor;
  let stored = null;
  // An empty body is stored as none (encodeBody), with nothing to join first.
  if (body && body.size > 0) {
    const all = body.bytes();
    const kept = all.length > ctx.cap ? all.subarray(0, ctx.cap) : all;
    stored = storedBody(kept, headerValue(req.headers['content-type']), body.size, body.size > kept.length);
  }
  return {
    method: (req.method ?? 'GET').toUpperCase(),
    path: r.text(x.rel),
    query: r.query(queryOf(x.url)),
    headers: keepHeaders(req.headers, ctx.headers.requestHeaders, r),
    body: r.body(stored),
  };
}

export function recordedResponse(
  ctx: Ctx,
  status: number,
  headers: Record<string, string | string[] | undefined>,
  body: BodyCapture,
  x: Pending,
  firstByteMs: number,
  durationMs = performance.now() - x.t0,
): RecordedResponse {
  const ct = headerValue(headers['content-type']);
  const t = stageStart();
  const kept = keepHeaders(headers, ctx.headers.responseHeaders, x.redactor);
  if (STAGE_TIMES) stageEnd('redaction and scan', t);
  return {
    status,
    headers: kept,
    // Redacted as it is written (lateBodyRedaction), which is cheaper than walking every body.
    body: storedBody(body.bytes(), ct, body.size, body.truncated),
    timing: { durationMs: round(durationMs), firstByteMs: round(firstByteMs) },
  };
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

/**
 * A response as captured, stored (its body decoded and checked) only off the response path: recorder/forward.ts's
 * handler, which holds these as it goes.
 */
export interface CapturedResponse {
  readonly captured: true;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  capture: BodyCapture;
  firstByteMs: number;
  durationMs: number;
}

/**
 * Record one completed exchange: counted now; checked, logged and appended by
 * the write queue once the answer has been handed to the client, or at once
 * with --durable (recorder/write-queue.ts says what each guarantees).
 */
export function record(
  ctx: Ctx,
  req: IncomingMessage,
  x: Pending,
  reqCapture: BodyCapture,
  response: RecordedResponse | CapturedResponse,
  failure: UpstreamFailure | undefined,
): void {
  ctx.stats.exchanges += 1;
  if (failure) ctx.stats.failures += 1;
  // Storing a body (decoding it, checking it is byte-faithful JSON) is part of the job: off the response path too.
  const completed = new Completed(ctx, req, x, reqCapture, response, failure);
  if (ctx.o.durable) runToEnd(completed.steps());
  else ctx.queue.push(completed);
}

/**
 * A completed exchange as captured, waiting to be checked and written; the response is stored when it is. The
 * write queue's job itself (an object with run(), rather than a closure made per exchange).
 */
class Completed {
  constructor(
    readonly ctx: Ctx,
    readonly req: IncomingMessage,
    readonly x: Pending,
    readonly reqCapture: BodyCapture,
    readonly response: RecordedResponse | CapturedResponse,
    readonly failure: UpstreamFailure | undefined,
  ) {}

  steps(): Generator<void, void, void> {
    return checkAndAppend(this.ctx, this);
  }
}

/**
 * "GET /offers → 200 listOffers: ok", "PUT /offers/x → 200 upsertOffer: 1 violation", "… : not judged" for a body cut
 * at --max-body-bytes (never a header or a body).
 */
export function exchangeLine(
  method: string,
  path: string,
  status: number,
  operationId: string | undefined,
  violations: number,
  notJudged = 0,
): string {
  const verdict = violations
    ? `${violations} violation${violations === 1 ? '' : 's'}`
    : notJudged
      ? 'not judged (a body over --max-body-bytes)'
      : 'ok';
  return `${method} ${path} → ${status} ${operationId ?? '(no operation of the contract)'}: ${verdict}`;
}

/** Pauses (yields) only inside the contract check of a large list body. */
function* checkAndAppend(ctx: Ctx, c: Completed): Generator<void, void, void> {
  const { req, x, reqCapture, failure } = c;
  const r = c.response;
  const response =
    'captured' in r ? recordedResponse(ctx, r.status, r.headers, r.capture, x, r.firstByteMs, r.durationMs) : r;
  let t = stageStart();
  const request = recordedRequest(ctx, req, x, reqCapture);
  if (STAGE_TIMES) t = stageEnd('redaction and scan', t);
  const { operation, violations, notJudged } = yield* checkExchangeInSlices({
    request,
    response,
    authorization: x.authorization,
    upstreamFailed: failure !== undefined,
  });
  if (STAGE_TIMES) stageEnd('contract check', t);
  const found = violations.reduce((n, v) => n + violationCount(v), 0);
  ctx.stats.violations += found;
  ctx.stats.notJudged += notJudged.length;
  if (ctx.o.logExchanges)
    ctx.log(
      exchangeLine(request.method, request.path, response.status, operation?.operationId, found, notJudged.length),
      'exchange',
    );
  for (const v of violations)
    ctx.log(`${request.method} ${request.path} → ${response.status}: ${formatViolation(v)}`, 'violation');
  for (const note of notJudged)
    ctx.log(`${request.method} ${request.path} → ${response.status}: ${note}`, 'not-judged');
  if (!ctx.writer) return;
  // A literal of one shape (a spread in its middle is copied property by property); the failure only when there is one.
  const exchange: Omit<Exchange, 'seq'> = {
    startedAt: x.startedAt,
    operationId: operation?.operationId ?? null,
    request,
    response,
    violations,
  };
  if (failure) exchange.failure = failure;
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
  return (e, secretInText) => {
    const body = e.response.body;
    if (!body || r.forms.length === 0) return undefined;
    if (body.encoding !== 'base64' && !secretInText) return undefined;
    return { ...e, response: { ...e.response, body: r.body(body) } };
  };
}
