/**
 * When a deployment throttles (spec 8 leaves rate limits to it), how long to
 * wait before asking again: a `429` or `503` with `Retry-After` says so
 * (seconds or an HTTP date); a `429` without it gets exponential backoff.
 * A `503` without `Retry-After` is not throttling but an answer (a 5xx).
 */

/** The first backoff for a 429 without Retry-After; it doubles with each further 429 to the same request. */
export const BACKOFF_BASE_MS = 500;
export const BACKOFF_MAX_MS = 30_000;

/** Milliseconds a Retry-After value asks for, or undefined when it is neither delay-seconds nor an HTTP date. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  // An HTTP date names a second; a date already past means "now".
  if (!/[a-z]/i.test(v)) return undefined;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

export function backoffMs(attempt: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** attempt);
}

/** How long to wait before retrying this answer, or undefined when the answer is the answer. */
export function throttleDelay(
  status: number,
  retryAfter: string | undefined,
  attempt: number,
  now = Date.now(),
): number | undefined {
  if (status !== 429 && status !== 503) return undefined;
  const asked = parseRetryAfter(retryAfter, now);
  if (asked !== undefined) return asked;
  return status === 429 ? backoffMs(attempt) : undefined;
}
