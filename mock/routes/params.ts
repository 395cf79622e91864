/** Path parameters as strings; the router only ever hands over strings, this just says so to the compiler. */
import type { FastifyRequest } from 'fastify';

export function pathParam(request: FastifyRequest, name: string): string {
  const value = (request.params as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : '';
}

export function pathParams(request: FastifyRequest, names: readonly string[]): string[] {
  return names.map((n) => pathParam(request, n));
}
