/**
 * Independent requests of one check run side by side, a few at a time: against a
 * deployment a wide-area round trip away, one request after another leaves the
 * run idle. The bound per worker is FLIS_CONCURRENCY (set by the runner); the
 * bound of the whole run, the rate ceiling and the deployment's throttling are
 * enforced by the gateway every request goes through (runner/gateway.ts).
 */

export const DEFAULT_CONCURRENCY = 6;

/** Requests one worker may have in flight at once within a check. */
export function concurrency(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.FLIS_CONCURRENCY);
  return Number.isInteger(n) && n >= 1 ? n : DEFAULT_CONCURRENCY;
}

/**
 * `items.map(fn)` with at most `limit` calls pending, results in the order of `items`. On the first rejection no
 * new call starts; the calls already started settle, then that first error is thrown (so a check's exchanges and
 * its failure record stay whole, and a skip thrown by one call is not lost among the others).
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  fn: (item: T, index: number) => Promise<R>,
  limit: number = concurrency(),
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const lane = async (): Promise<void> => {
    while (!failure && next < items.length) {
      const i = next++;
      try {
        results[i] = await fn(items[i] as T, i);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  if (failure) throw failure.error;
  return results;
}
