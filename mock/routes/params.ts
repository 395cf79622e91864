/** Path parameters as strings; the router only ever hands over strings, this just says so to the compiler. */
import type { FastifyRequest } from 'fastify';

export function pathParam(request: FastifyRequest, name: string): string {
  return String((request.params as Record<string, unknown>)[name]);
}

export function pathParams(request: FastifyRequest, names: readonly string[]): string[] {
  return names.map((n) => pathParam(request, n));
}

/** The i-th path parameter of a route whose table declares at least i + 1 (so it is always there). */
export function paramAt(values: readonly string[], i: number): string {
  return String(values[i]);
}
