/**
 * Bearer-token check on every request (spec 5 rule 2), run before the body is
 * parsed so an unauthenticated client learns nothing about its body.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import { HttpError } from './errors.ts';
import type { Faults } from './faults.ts';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Constant-time comparison; hashing first makes the lengths equal. */
function sameToken(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** The auth-near-miss-token-accepted fault: a sloppy comparison of all but the last character, ignoring case. */
function nearMiss(given: string, token: string): boolean {
  const stem = (t: string) => t.slice(0, token.length - 1).toLowerCase();
  return given.length >= token.length - 1 && given.length <= token.length + 1 && stem(given) === stem(token);
}

function bearerOf(header: string | undefined): string | undefined {
  return header === undefined ? undefined : (BEARER.exec(header)?.[1] ?? '');
}

/** Why the request is refused, or undefined when it may pass. Messages never contain the header or token. */
/** The auth-forgotten-on-invoice-read fault: one operation whose handler was wired up without the auth check. */
function forgotten(request: FastifyRequest, faults: Faults): boolean {
  return (
    faults.has('auth-forgotten-on-invoice-read') &&
    request.method === 'GET' &&
    (request.routeOptions.url ?? '').endsWith('/invoices/:invoiceId')
  );
}

export function authFailure(request: FastifyRequest, token: string, faults: Faults): HttpError | undefined {
  const given = bearerOf(request.headers.authorization);
  if (given === undefined) {
    return faults.has('auth-missing-token-accepted') || forgotten(request, faults)
      ? undefined
      : new HttpError(401, 'UNAUTHORIZED', 'an access token is required');
  }
  if (faults.has('auth-wrong-token-accepted') && given !== '') return undefined;
  if (faults.has('auth-near-miss-token-accepted') && nearMiss(given, token)) return undefined;
  return sameToken(given, token) ? undefined : new HttpError(401, 'UNAUTHORIZED', 'the access token is not valid');
}

export function installAuth(app: FastifyInstance, token: string, faults: Faults): void {
  app.addHook('onRequest', async (request, reply) => {
    const failure = authFailure(request, token, faults);
    if (!failure) return;
    reply.header('www-authenticate', 'Bearer realm="flis", error="invalid_token"');
    throw failure;
  });
}
