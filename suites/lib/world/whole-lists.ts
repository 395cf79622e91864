/**
 * Whether an answer of a documented list (GET /billingGroups, GET /invoices: spec 4.2, "array of ...") holds every
 * record it must. Spec 8 leaves the maximum page size open, so a list may be a cut page; the run takes it as whole
 * only when nothing says it was cut:
 * - no paging sign (a Link header with rel=next; the body is an array, so a wrapper would be response-schema's);
 * - and fewer records than WHOLE_LIST_BELOW, or fewer than the longest answer the same operation gave in this test
 *   with the same `limit` (none, or the same value): a server that caps its answers caps them all at one size, so an
 *   answer shorter than another one was not cut by it.
 * A list that is not whole is judged on what it shows only (each element as its record's other views show it).
 */
import type { CheckContext } from '../check-test.ts';
import { type Exchange, is2xx } from '../exchange.ts';
import { pagingSign, WHOLE_LIST_BELOW } from './record-views.ts';

export interface Wholeness {
  whole: boolean;
  /** Why, in words a failure message can carry, e.g. `12 groups, fewer than the 14 GET /billingGroups answered before`. */
  why: string;
}

/** The `limit` a request sent, if any: answers with another limit are cut otherwise. */
function limitOf(x: Exchange): string | undefined {
  try {
    return new URL(x.request.url).searchParams.get('limit') ?? undefined;
  } catch {
    return undefined;
  }
}

function lengthOf(x: Exchange): number | undefined {
  return is2xx(x) && Array.isArray(x.response.body) ? x.response.body.length : undefined;
}

/** The most records any answer of `x`'s operation with its `limit` held in this test. */
export function longestAnswer(ctx: CheckContext, x: Exchange): number {
  const limit = limitOf(x);
  let longest = 0;
  for (const e of ctx.api.exchanges) {
    if (e.operationId !== x.operationId || limitOf(e) !== limit) continue;
    const n = lengthOf(e);
    if (n !== undefined && n > longest) longest = n;
  }
  return Math.max(longest, lengthOf(x) ?? 0);
}

/** `what` names the records in messages, e.g. `group(s)`. */
export function wholeness(ctx: CheckContext, x: Exchange, what = 'record(s)'): Wholeness {
  const n = lengthOf(x);
  if (n === undefined) return { whole: false, why: `it answered ${x.response.status}, not an array` };
  const sign = pagingSign(x);
  if (sign !== undefined) return { whole: false, why: `${n} ${what} and ${sign}: a page` };
  if (n < WHOLE_LIST_BELOW)
    return { whole: true, why: `${n} ${what}, fewer than ${WHOLE_LIST_BELOW}, and no sign of paging` };
  const longest = longestAnswer(ctx, x);
  if (n < longest)
    return {
      whole: true,
      why: `${n} ${what}, fewer than the ${longest} another answer of the same list held, and no sign of paging`,
    };
  return { whole: false, why: `${n} ${what}, as many as any answer of it held: it may be a page cut at that size` };
}
