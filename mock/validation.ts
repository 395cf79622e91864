/** Request-body validation against the project's JSON Schemas, the same ones the suites check responses with. */
import { validate, type SchemaName, type SchemaViolation } from '../schemas/registry.ts';
import { invalidBody } from './errors.ts';
import { isObject } from './json.ts';

export function violationsOf(name: SchemaName, body: unknown): SchemaViolation[] {
  return validate(name, body).violations;
}

/** Throws a 400 listing every violation. */
export function requireValid(name: SchemaName, body: unknown, extra: SchemaViolation[] = []): void {
  const violations = [...violationsOf(name, body), ...extra];
  if (violations.length > 0) throw invalidBody(`the body does not match ${name}.schema.json`, violations);
}

/** Bodies of the 4.3 writes are not shown (spec 4.3) but are JSON (spec 4): a record is a JSON object. */
export function requireObjectBody(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (!isObject(body)) throw invalidBody('the body must be a JSON object');
  return body;
}

export function requireArrayBody(body: unknown): unknown[] {
  if (!Array.isArray(body)) throw invalidBody('the body must be a JSON array');
  return body;
}
