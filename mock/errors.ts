/**
 * JSON error answers. The spec shows no error body (spec 7), so the mock picks
 * one shape and uses it everywhere; what matters to the suites is that bad input
 * is a 4xx with a JSON body and never a 5xx, and that no secret is echoed.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { SchemaViolation } from '../schemas/registry.ts';

export type ErrorCode =
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'ROUTE_NOT_FOUND'
  | 'GONE'
  | 'INVALID_JSON'
  | 'EMPTY_BODY'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'BULK_TOO_LARGE'
  | 'SCHEMA_VIOLATION'
  | 'INVALID_QUERY'
  | 'INVALID_PATH'
  | 'INVALID_BODY'
  | 'INTERNAL';

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export interface ErrorBody {
  statusCode: number;
  error: string;
  code: string;
  message: string;
  [detail: string]: unknown;
}

export function errorBody(
  statusCode: number,
  code: string,
  message: string,
  details: Record<string, unknown> = {},
): ErrorBody {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', code, message, ...details };
}

export function notFound(what: string): HttpError {
  return new HttpError(404, 'NOT_FOUND', `${what} not found`);
}

export function invalidQuery(name: string, expected: string): HttpError {
  return new HttpError(400, 'INVALID_QUERY', `query parameter '${name}' must be ${expected}`, { parameter: name });
}

export function invalidBody(message: string, violations: SchemaViolation[] = []): HttpError {
  return new HttpError(400, violations.length > 0 ? 'SCHEMA_VIOLATION' : 'INVALID_BODY', message, { violations });
}

/** Errors caused by the request body itself: the ones the bad-input-500 fault turns into 500. */
export function isBadBodyError(err: unknown): boolean {
  return (
    err instanceof HttpError && ['INVALID_JSON', 'EMPTY_BODY', 'SCHEMA_VIOLATION', 'INVALID_BODY'].includes(err.code)
  );
}

function toHttpError(err: FastifyError | HttpError): HttpError {
  if (err instanceof HttpError) return err;
  const status = err.statusCode;
  // Fastify's own 4xx (body too large, bad media type, bad content-length) keep their status; anything else is our bug.
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const code = status === 415 ? 'UNSUPPORTED_MEDIA_TYPE' : 'INVALID_BODY';
    return new HttpError(status, code, err.message);
  }
  return new HttpError(500, 'INTERNAL', 'internal error in the mock');
}

function withStatus(e: HttpError, statusCode: number): HttpError {
  return new HttpError(statusCode, e.code, e.message, e.details);
}

function sendError(reply: FastifyReply, err: HttpError): FastifyReply {
  return reply
    .code(err.statusCode)
    .type('application/json; charset=utf-8')
    .send(errorBody(err.statusCode, err.code, err.message, err.details));
}

function routeNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  // Only the path: a query string may carry anything, secrets included.
  const path = request.url.split('?')[0] ?? '';
  return sendError(reply, new HttpError(404, 'ROUTE_NOT_FOUND', `no operation ${request.method} ${path}`));
}

/** `missingStatus`: what a record that does not exist is answered with (spec 7: error status codes are not shown). */
export function installErrorHandling(app: FastifyInstance, missingStatus = 404): void {
  app.setErrorHandler((err: FastifyError | HttpError, _request, reply) => {
    const e = toHttpError(err);
    const answered = e.code === 'NOT_FOUND' && missingStatus !== e.statusCode ? withStatus(e, missingStatus) : e;
    return sendError(reply, answered);
  });
  app.setNotFoundHandler(routeNotFound);
}

/**
 * Errors the router raises before any hook runs (bad percent-encoding, an
 * over-long path segment): the same JSON shape, and no echo of the path.
 */
export function frameworkErrorAnswer(err: FastifyError, _request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const tooLong = err.code === 'FST_ERR_MAX_PARAM_LENGTH';
  const status = tooLong ? 414 : 400;
  return sendError(
    reply,
    new HttpError(
      status,
      'INVALID_PATH',
      tooLong ? 'a path segment is too long' : 'the path is not valid URL encoding',
    ),
  );
}

/** Ends a request with an error answer from inside a handler or hook. */
export function replyError(reply: FastifyReply, err: HttpError): FastifyReply {
  return sendError(reply, err);
}
