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
import { record, recordedResponse } from './exchange-record.ts';
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
export function forward(
  ctx: Ctx,
  req: IncomingMessage,
  res: ServerResponse,
  x: Pending,
  buffered: BodyCapture | undefined,
): Promise<void> {
  const up = ctx.upstream!;
  const reqCapture = buffered ?? new BodyCapture(ctx.cap);
  const body = buffered
    ? buffered.size > 0
      ? buffered.bytes()
      : undefined
    : hasBody(req)
      ? tee(req, reqCapture)
      : undefined;
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
      onResponseStart(_controller, statusCode, responseHeaders) {
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
        const durationMs = performance.now() - x.t0;
        const response = () => recordedResponse(ctx, status, headers, resCapture, x, firstByteMs, durationMs);
        record(ctx, req, x, reqCapture, response, undefined);
        res.end();
        resolve();
      },
      onResponseError(_controller, err) {
        resolve();
        if (clientGone) return;
        const failure = classifyFailure(err, up.timeoutMs);
        if (!res.headersSent) return answerFailure(ctx, req, res, x, reqCapture, failure);
        // Headers are already out: record what came and cut the client off, so it cannot take a partial body for a whole one.
        record(ctx, req, x, reqCapture, recordedResponse(ctx, status, headers, resCapture, x, firstByteMs), failure);
        res.destroy();
      },
    };
    up.pool.dispatch(
      {
        method: (req.method ?? 'GET') as Dispatcher.HttpMethod,
        path: `${up.basePath}${x.rel}${x.search}`,
        headers: forwardRequestHeaders(req.headers),
        // undici streams an async iterable body (lib/core/request.js); the typing just does not say so.
        body: body as Buffer | Readable | undefined,
        headersTimeout: up.timeoutMs,
        bodyTimeout: up.timeoutMs,
      },
      handler,
    );
  });
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
