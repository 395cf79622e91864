/**
 * billing-filters-complete (spec 4.2): the other direction of billing-filters.
 * A group the whole GET /billingGroups shows (over a window from 1900 to 2200,
 * suites/lib/whole-list.ts), and that matches every filter given (start, end,
 * state, customerId, inactive, alone or combined, a bound left out taken from
 * that window), is in the filtered list too: nothing that matches is left out.
 * A group dated on the `start` or `end` day is not judged: whether the bounds
 * include their own day is not shown.
 * Runs sharing a deployment force statuses meanwhile, so the whole list
 * is read before and after the filtered one, only groups that read the same
 * both times are judged, and a group left out is looked for a second time
 * before the check fails on it. Read-only.
 */
import { operationById } from '../../specs/contract.ts';
import { billingFilterArb, listedFilters, type BillingFilter } from '../generators/billing-filter.ts';
import { checkTest, test, type CheckContext } from '../lib/index.ts';
import type { Exchange } from '../lib/exchange.ts';
import { mapBoundedInOrder } from '../lib/parallel.ts';
import { checkProperty } from '../lib/property.ts';
import { narrowedListQuery } from '../lib/whole-list.ts';
import { mismatch } from './filter-match.ts';
import { listGroups, type ListedGroup } from './groups.ts';

function sameFacts(a: ListedGroup, b: ListedGroup): boolean {
  return a.date === b.date && a.status === b.status && a.customerId === b.customerId && a.inactive === b.inactive;
}

test(
  ...checkTest(
    {
      check: 'billing-filters-complete',
      operation: operationById('listBillingGroups'),
      title: 'start, end, state, customerId and inactive leave out no group that matches',
    },
    async (ctx) => {
      const { groups } = await listGroups(ctx);
      // Every single-field filter the listed groups make is sent on every run; random combinations add to them.
      await mapBoundedInOrder(listedFilters(groups), (filter) => judgeFilter(ctx, filter));
      await checkProperty(ctx, [billingFilterArb(groups)], (filter) => judgeFilter(ctx, filter), {
        independentRuns: true,
      });
    },
  ),
);

async function judgeFilter(ctx: CheckContext, asked: BillingFilter): Promise<void> {
  // A bound the filter leaves out is the whole window's, as in the list it is compared with (suites/lib/whole-list.ts).
  const filter = narrowedListQuery('listBillingGroups', asked);
  const first = await leftOut(ctx, asked);
  if (first.left.length === 0) return;
  // A group another run forced and restored between the reads looks stable; a second look only fails what persists.
  const again = await leftOut(ctx, asked);
  const left = again.left.filter((g) => first.left.some((f) => f.id === g.id));
  if (left.length > 0)
    ctx.check.fail(
      `GET /billingGroups with ${JSON.stringify(filter)} left out ${left.length} group(s) that the whole list shows and that match, twice: ${left
        .slice(0, 5)
        .map(
          (g) => `${g.id} (date ${g.date}, status '${g.status}', customerId '${g.customerId}', inactive ${g.inactive})`,
        )
        .join('; ')}`,
      { exchanges: [again.exchange] },
    );
}

/**
 * The groups the whole list shows the same before and after the filtered call, that match what was asked and are not
 * in it. The filtered call carries the whole list's bounds where `asked` has none, so both lists share one window.
 */
async function leftOut(ctx: CheckContext, asked: BillingFilter): Promise<{ left: ListedGroup[]; exchange: Exchange }> {
  const filter = narrowedListQuery('listBillingGroups', asked);
  const before = (await listGroups(ctx)).groups;
  const x = await ctx.api.op(operationById('listBillingGroups'), { query: { ...filter } });
  ctx.check.expectSuccess(x, `GET /billingGroups with ${JSON.stringify(filter)}`);
  ctx.check.expectSchema(x, 'billing-group-list', 'spec 4.2');
  const after = new Map((await listGroups(ctx)).groups.map((g) => [g.id, g]));
  const stable = before.filter((g) => {
    const again = after.get(g.id);
    return again !== undefined && sameFacts(g, again);
  });
  const listed = new Set((x.response.body as { id?: unknown }[]).map((g) => g.id));
  return {
    left: stable.filter((g) => mismatch({ ...g }, asked) === undefined && !onBoundary(g, asked) && !listed.has(g.id)),
    exchange: x,
  };
}

/** Whether `start` and `end` include their own day is not shown (spec 4.2 gives only "start (date), end (date)"). */
function onBoundary(g: ListedGroup, f: BillingFilter): boolean {
  const day = typeof g.date === 'string' ? g.date.slice(0, 10) : undefined;
  return day !== undefined && (day === f.start || day === f.end);
}
