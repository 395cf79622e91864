/** Small helpers for reading untyped JSON without trusting its shape. */

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value when it is a JSON object, else an empty one: handlers read fields without type checks at every step. */
export function asObject(value: unknown): JsonObject {
  return isObject(value) ? value : {};
}

export function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

export function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** A deep copy, so stored state never aliases a request body or a response. */
export function clone<T>(value: T): T {
  return structuredClone(value);
}
