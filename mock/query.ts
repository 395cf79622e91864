/**
 * Typed reading of query parameters. Every malformed value is a 400 naming the
 * parameter, so a filter the client got wrong is never silently ignored.
 */
import type { FastifyRequest } from 'fastify';
import { invalidQuery } from './errors.ts';
import { dateStartMs, dateTimeMs, isDate } from './formats.ts';

type Query = Record<string, unknown>;

function queryOf(request: FastifyRequest): Query {
  const q = request.query;
  return typeof q === 'object' && q !== null ? (q as Query) : {};
}

/** A single string value; a repeated parameter is ambiguous and refused. */
export function stringParam(request: FastifyRequest, name: string): string | undefined {
  const value = queryOf(request)[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidQuery(name, 'given once');
  return value;
}

export function dateParam(request: FastifyRequest, name: string): string | undefined {
  const value = stringParam(request, name);
  if (value !== undefined && !isDate(value)) throw invalidQuery(name, 'an ISO 8601 calendar date (YYYY-MM-DD)');
  return value;
}

/** A date parameter as the epoch milliseconds of 00:00 UTC that day, or undefined when it is not given. */
export function dateStartParam(request: FastifyRequest, name: string): number | undefined {
  const value = dateParam(request, name);
  return value === undefined ? undefined : dateStartMs(value);
}

/** An unencoded "+" in "+01:00" arrives as a space; read it back as the offset the client meant. */
function restorePlusOffset(value: string): string {
  return value.replace(/(\d{2}:\d{2}:\d{2}(?:\.\d+)?) (\d{2}(?::?\d{2})?)$/, '$1+$2');
}

/** Epoch milliseconds of a date-time parameter. */
export function dateTimeParam(request: FastifyRequest, name: string): number | undefined {
  const value = stringParam(request, name);
  if (value === undefined) return undefined;
  const ms = dateTimeMs(restorePlusOffset(value));
  if (ms === undefined) throw invalidQuery(name, 'an ISO 8601 date-time with a time zone');
  return ms;
}

export function booleanParam(request: FastifyRequest, name: string): boolean | undefined {
  const value = stringParam(request, name);
  if (value === undefined) return undefined;
  if (value !== 'true' && value !== 'false') throw invalidQuery(name, "'true' or 'false'");
  return value === 'true';
}

/** A positive integer; very large values are clamped rather than refused, they only mean "everything". */
export function positiveIntParam(request: FastifyRequest, name: string): number | undefined {
  const value = stringParam(request, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw invalidQuery(name, 'an integer of at least 1');
  return Math.min(Number(value), Number.MAX_SAFE_INTEGER);
}

/** A whole number of 0 or more (a page number where pages start at 0). */
export function wholeNumberParam(request: FastifyRequest, name: string): number | undefined {
  const value = stringParam(request, name);
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw invalidQuery(name, 'an integer of at least 0');
  return Math.min(Number(value), Number.MAX_SAFE_INTEGER);
}
