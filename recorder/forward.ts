/**
 * Forwarding one request to the upstream and streaming the answer back, and
 * the recorder's own 502/504 answer when the upstream fails.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { BodyCapture } from './body.ts';
import type { UpstreamFailure } from './cassette-format.ts';
import { type CapturedResponse, record, recordedResponse } from './exchange-record.ts';
import type { TokenSource } from '../net/types.ts';
import type { Ctx, Pending } from './proxy-context.ts';
import {
  classifyFailure,
  failureBody,
  failureStatus,
  forwardRequestHeaders,
  forwardResponseHeaders,
} from './upstream.ts';

export function hasBody(req: IncomingMessage): boolean {
  const len = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (len !== undefined && len !== '0');
}

/**
 * Yields the client's body to undici while keeping up to the cap of it. When undici stops asking (the upstream
 * answered before the body was all sent), the client's connection is kept and the rest of its body read and
 * dropped, so that its upload ends normally and it reads the answer it is given.
 */
async function* tee(req: IncomingMessage, capture: BodyCapture): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of req.iterator({ destroyOnReturn: false })) {
      capture.add(chunk as Buffer);
      yield chunk as Buffer;
    }
  } finally {
    if (!req.complete && !req.destroyed) req.resume();
  }
}

/** A 401 that a token refresh may cure (RFC 6750 3.1), held back from the client until the retry is known. */
interface Refused {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  capture: BodyCapture;
  firstByteMs: number;
}

function isInvalidToken(status: number, headers: Record<string, string | string[] | undefined>): boolean {
  const challenge = headers['www-authenticate'];
  const text = Array.isArray(challenge) ? challenge.join(', ') : (challenge ?? '');
  return status === 401 && /\bBearer\b[\s\S]*\berror\s*=\s*"?invalid_token\b/i.test(text);
}

/** The bearer token of an Authorization value, when the connection's token source issued it. */
function runTokenOf(ctx: Ctx, authorization: string | undefined): string | undefined {
  const token = authorization?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  return token && ctx.tokens?.isRunToken(token) ? token : undefined;
}

/**
 * Forward one request. A request carrying a token the run issued goes out with the current one; when the
 * upstream refuses it (401 invalid_token) and the body can be sent again (none, or held whole), the token is
 * refreshed once and the request sent once more. A streamed body cannot be sent twice, so its 401 stands.
 */
export function forward(
  ctx: Ctx,
  req: IncomingMessage,
  res: ServerResponse,
  x: Pending,
  buffered: BodyCapture | undefined,
): Promise<void> | undefined {
  const reqCapture = buffered ?? new BodyCapture(ctx.cap);
  const streamed = !buffered && hasBody(req);
  const headers = forwardRequestHeaders(req.headers);
  // Without a token source no request carries a run's token (and the Authorization value need not be parsed).
  const runToken = ctx.tokens ? runTokenOf(ctx, x.authorization) : undefined;
  if (!runToken || !ctx.tokens) {
    // Sent once and answered by the handler's callbacks: there is nothing to wait for, so no promise is made.
    sendOnce(ctx, req, res, x, reqCapture, headers, bodyToSend(req, reqCapture, buffered, streamed), false, undefined);
    return undefined;
  }
  return forwardWithRunToken(ctx, ctx.tokens, req, res, x, reqCapture, headers, buffered, streamed);
}

async function forwardWithRunToken(
  ctx: Ctx,
  tokens: TokenSource,
  req: IncomingMessage,
  res: ServerResponse,
  x: Pending,
  reqCapture: BodyCapture,
  headers: Record<string, string | string[]>,
  buffered: BodyCapture | undefined,
  streamed: boolean,
): Promise<void> {
  const sent = await tokens.current();
  headers.authorization = `Bearer ${sent}`;
  knowToken(x, sent);
  const refused = await sendAndWait(
    ctx,
    req,
    res,
    x,
    reqCapture,
    headers,
    bodyToSend(req, reqCapture, buffered, streamed),
    !streamed,
  );
  if (!refused) return;
  const renewed = await tokens.refresh('401 invalid_token (recorder)', sent).catch(() => undefined);
  if (!renewed || renewed === sent) return passOn(ctx, req, res, x, reqCapture, refused);
  headers.authorization = `Bearer ${renewed}`;
  knowToken(x, renewed);
  await sendAndWait(ctx, req, res, x, reqCapture, headers, bodyToSend(req, reqCapture, buffered, streamed), false);
}

/** sendOnce's arguments but the last (the resolver). */
type SendArgs = Parameters<typeof sendOnce> extends [...infer A, unknown] ? A : never;

/** sendOnce, resolved when the exchange ends: with the refusal it held back, if it did. */
function sendAndWait(...send: SendArgs): Promise<Refused | undefined> {
  return new Promise<Refused | undefined>((resolve) => sendOnce(...send, resolve));
}

/** What a request sends upstream: the body held whole, or the client's stream teed into the capture, or nothing. */
function bodyToSend(
  req: IncomingMessage,
  capture: BodyCapture,
  buffered: BodyCapture | undefined,
  streamed: boolean,
): Buffer | AsyncGenerator<Buffer> | undefined {
  if (buffered) return buffered.size > 0 ? buffered.bytes() : undefined;
  return streamed ? tee(req, capture) : undefined;
}

/**
 * The exchange's redactor was made when the request came in; a token swapped in or renewed since (which the
 * answer may echo) joins it, so the record and the writer's guard both know it.
 */
function knowToken(x: Pending, token: string): void {
  x.redactor = x.redactor.with([{ label: 'a token issued during the run', value: token }]);
}

/** The held-back 401 goes to the client after all (the refresh failed or gave the same token), and is recorded. */
function passOn(
  ctx: Ctx,
  req: IncomingMessage,
  res: ServerResponse,
  x: Pending,
  reqCapture: BodyCapture,
  r: Refused,
): void {
  const response = recordedResponse(ctx, r.status, r.headers, r.capture, x, r.firstByteMs);
  record(ctx, req, x, reqCapture, response, undefined);
  if (!res.headersSent) res.writeHead(r.status, forwardResponseHeaders(r.headers));
  res.end(r.capture.bytes());
}

/**
 * Send over undici's dispatch handler API: the response is written to the
 * client chunk by chunk as it arrives (backpressure pauses the upstream), with
 * no intermediate stream, and recorded when it ends. With `holdRefusal`, a
 * 401 invalid_token is kept back and resolved with, for forward() to retry.
 */
function sendOnce(
  ctx: Ctx,
  req: IncomingMessage,
  res: ServerResponse,
  x: Pending,
  reqCapture: BodyCapture,
  requestHeaders: Record<string, string | string[]>,
  body: Buffer | AsyncGenerator<Buffer> | undefined,
  holdRefusal: boolean,
  resolve: ((refused: Refused | undefined) => void) | undefined,
): void {
  const up = ctx.upstream!;
  const options: Dispatcher.DispatchOptions = {
    origin: up.origin,
    method: (req.method ?? 'GET') as Dispatcher.HttpMethod,
    path: `${up.basePath}${x.rel}${x.search}`,
    headers: requestHeaders,
    headersTimeout: up.timeoutMs,
    bodyTimeout: up.timeoutMs,
  };
  // undici streams an async iterable body (lib/core/request.js); the typing just does not say so.
  if (body !== undefined) options.body = body as Buffer | Readable;
  up.dispatcher.dispatch(options, new ForwardHandler(ctx, req, res, x, reqCapture, holdRefusal, resolve));
}

/**
 * One forwarded exchange's handler, and the response it captures (recorder/exchange-record.ts stores it off the
 * response path). A class, so that an exchange creates one object rather than a closure per callback.
 */
class ForwardHandler implements Dispatcher.DispatchHandler, CapturedResponse {
  readonly captured = true;
  status = 0;
  headers: Record<string, string | string[] | undefined> = {};
  firstByteMs = 0;
  durationMs = 0;
  readonly capture: BodyCapture;
  private clientGone = false;
  private held = false;

  constructor(
    private readonly ctx: Ctx,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly x: Pending,
    private readonly reqCapture: BodyCapture,
    private readonly holdRefusal: boolean,
    private readonly resolve: ((refused: Refused | undefined) => void) | undefined,
  ) {
    this.capture = new BodyCapture(ctx.cap);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    // The client left: stop the upstream too; there is no completed exchange to record.
    this.res.once('close', () => {
      if (this.res.writableFinished) return;
      this.clientGone = true;
      controller.abort(new Error('the client closed the connection'));
    });
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    responseHeaders: Record<string, string | string[] | undefined>,
  ): void {
    if (statusCode < 200) return; // 1xx informational answers are not the exchange.
    this.status = statusCode;
    this.headers = responseHeaders;
    this.firstByteMs = performance.now() - this.x.t0;
    this.held = this.holdRefusal && isInvalidToken(statusCode, responseHeaders);
    if (!this.held) this.res.writeHead(statusCode, forwardResponseHeaders(responseHeaders));
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.capture.add(chunk);
    if (this.held) return;
    if (!this.res.write(chunk)) {
      controller.pause();
      this.res.once('drain', () => controller.resume());
    }
  }

  onResponseEnd(): void {
    if (this.held) {
      this.resolve?.({
        status: this.status,
        headers: this.headers,
        capture: this.capture,
        firstByteMs: this.firstByteMs,
      });
      return;
    }
    this.durationMs = performance.now() - this.x.t0;
    record(this.ctx, this.req, this.x, this.reqCapture, this, undefined);
    this.res.end();
    this.resolve?.(undefined);
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    const { ctx, req, res, x, reqCapture } = this;
    this.resolve?.(undefined);
    if (this.clientGone) return;
    const failure = classifyFailure(err, ctx.upstream!.timeoutMs);
    if (!res.headersSent) {
      answerFailure(ctx, req, res, x, reqCapture, failure);
      return;
    }
    // Headers are already out: record what came and cut the client off, so it cannot take a partial body for a whole one.
    const response = recordedResponse(ctx, this.status, this.headers, this.capture, x, this.firstByteMs);
    record(ctx, req, x, reqCapture, response, failure);
    res.destroy();
  }
}

function answerFailure(
  ctx: Ctx,
  req: IncomingMessage,
  res: ServerResponse,
  x: Pending,
  reqCapture: BodyCapture,
  failure: UpstreamFailure,
): void {
  const status = failureStatus(failure);
  const bytes = Buffer.from(JSON.stringify(failureBody(failure, ctx.upstreamName)));
  const capture = new BodyCapture(ctx.cap);
  capture.add(bytes);
  const response = recordedResponse(
    ctx,
    status,
    { 'content-type': 'application/json' },
    capture,
    x,
    performance.now() - x.t0,
  );
  ctx.log(
    `upstream failure: ${req.method} ${x.redactor.text(x.rel)} → ${status} (${failure.kind}, ${failure.code})`,
    'upstream-failure',
  );
  record(ctx, req, x, reqCapture, response, failure);
  if (!res.headersSent) res.writeHead(status, { 'content-type': 'application/json', 'content-length': bytes.length });
  res.end(bytes);
}
