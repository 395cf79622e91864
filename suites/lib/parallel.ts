/**
 * Independent requests of one check run side by side, a few at a time: against a
 * deployment a wide-area round trip away, one request after another leaves the
 * run idle. The bound per worker is FLIS_CONCURRENCY (set by the runner); the
 * bound of the whole run, the rate ceiling and the deployment's throttling are
 * enforced by the gateway every request goes through (runner/gateway.ts).
 */
import { DEFAULT_CONCURRENCY, type SuiteEnv } from '../../core/suite-env.ts';

/** Requests one worker may have in flight at once within a check. */
export function concurrency(env: SuiteEnv = process.env): number {
  const n = Number(env.FLIS_CONCURRENCY);
  return Number.isInteger(n) && n >= 1 ? n : DEFAULT_CONCURRENCY;
}

export interface Settled<R> {
  results: R[];
  /** In the order they happened. */
  failures: { index: number; error: unknown }[];
}

/** The calls, at most `limit` pending; after the first rejection no new call starts and the started ones settle. */
export async function settleBounded<T, R>(
  items: readonly T[],
  fn: (item: T, index: number) => Promise<R>,
  limit: number,
): Promise<Settled<R>> {
  const results = new Array<R>(items.length);
  const failures: Settled<R>['failures'] = [];
  let next = 0;
  const lane = async (): Promise<void> => {
    while (failures.length === 0 && next < items.length) {
      const i = next++;
      try {
        results[i] = await fn(items[i] as T, i);
      } catch (error) {
        failures.push({ index: i, error });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
  return { results, failures };
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
  const { results, failures } = await settleBounded(items, fn, limit);
  if (failures[0]) throw failures[0].error;
  return results;
}

/**
 * mapBounded whose failure does not depend on timing: the error thrown is that of the earliest item that failed,
 * not of the first to fail in time. Once an item fails no later item starts, and every earlier one has started
 * and settles, so the same server gives the same failure however its answers interleave.
 */
export async function mapBoundedInOrder<T, R>(
  items: readonly T[],
  fn: (item: T, index: number) => Promise<R>,
  limit: number = concurrency(),
): Promise<R[]> {
  const { results, failures } = await settleBounded(items, fn, limit);
  const first = [...failures].sort((a, b) => a.index - b.index)[0];
  if (first) throw first.error;
  return results;
}
