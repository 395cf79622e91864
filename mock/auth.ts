/**
 * Bearer-token check on every request (spec 5 rule 2), run before the body is
 * parsed so an unauthenticated client learns nothing about its body.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import { HttpError } from './errors.ts';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Constant-time comparison; hashing first makes the lengths equal. */
function sameToken(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** The token of an Authorization header: undefined without one, '' when it is not a bearer token. */
export function bearerOf(header: string | undefined): string | undefined {
  return header === undefined ? undefined : (BEARER.exec(header)?.[1] ?? '');
}

/** Why the request is refused, or undefined when it may pass. Messages never contain the header or token. */
function authFailure(request: FastifyRequest, token: string): HttpError | undefined {
  const given = bearerOf(request.headers.authorization);
  if (given === undefined) return new HttpError(401, 'UNAUTHORIZED', 'an access token is required');
  return sameToken(given, token) ? undefined : new HttpError(401, 'UNAUTHORIZED', 'the access token is not valid');
}

export function installAuth(app: FastifyInstance, token: string): void {
  app.addHook('onRequest', async (request, reply) => {
    const failure = authFailure(request, token);
    if (!failure) return;
    reply.header('www-authenticate', 'Bearer realm="flis", error="invalid_token"');
    throw failure;
  });
}
