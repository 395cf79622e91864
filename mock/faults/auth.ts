/**
 * Faults of spec 5: requests the bearer-token check should refuse are let through. Each runs before the check and,
 * where the fault says the request passes, hands the check the valid token in its place.
 */
import type { FastifyRequest } from 'fastify';
import { bearerOf } from '../auth.ts';
import type { FaultName } from '../faults.ts';
import type { Bend, FaultLayer } from './layer.ts';

function given(request: FastifyRequest): string | undefined {
  return bearerOf(request.headers.authorization);
}

function letThrough(layer: FaultLayer, request: FastifyRequest): void {
  request.raw.headers.authorization = `Bearer ${layer.token}`;
}

/** A sloppy comparison: all but the last character, ignoring case, and one character more or less. */
function nearMiss(value: string, token: string): boolean {
  const stem = (t: string) => t.slice(0, token.length - 1).toLowerCase();
  return value.length >= token.length - 1 && value.length <= token.length + 1 && stem(value) === stem(token);
}

export const authBends = {
  'auth-missing-token-accepted': (layer) =>
    layer.beforeAuth((request) => {
      if (given(request) === undefined) letThrough(layer, request);
    }),
  'auth-wrong-token-accepted': (layer) =>
    layer.beforeAuth((request) => {
      const token = given(request);
      if (token !== undefined && token !== '') letThrough(layer, request);
    }),
  'auth-near-miss-token-accepted': (layer) =>
    layer.beforeAuth((request) => {
      const token = given(request);
      if (token !== undefined && nearMiss(token, layer.token)) letThrough(layer, request);
    }),
  // One operation whose handler was wired up without the auth check.
  'auth-forgotten-on-invoice-read': (layer) =>
    layer.beforeAuth((request, key) => {
      if (key === 'GET /invoices/:invoiceId' && given(request) === undefined) letThrough(layer, request);
    }),
} satisfies Partial<Record<FaultName, Bend>>;
