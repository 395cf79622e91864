/**
 * billing-filters-complete (spec 4.2): the other direction of billing-filters. A group the whole GET /billingGroups
 * shows (over a window from 1900 to 2200, core/whole-list.ts), and that matches every filter given (start, end,
 * state, customerId, inactive, alone or combined, a bound left out taken from that window), is in the filtered list
 * too: nothing that matches is left out, and filters that hold alone hold together (combinedFilters). A group dated
 * on the `start` or `end` day is not judged: whether the bounds include their own day is not shown. A filtered list
 * is "array of billing group" with no paging parameter; one that says it was cut (a Link header with rel=next) is
 * not judged.
 * Every single-field filter and every combination the listed groups make is sent on every run, side by side, between
 * two reads of the whole list; random combinations add to them. Runs sharing a deployment force statuses meanwhile,
 * so only groups that read the same in both whole lists are judged, and a filter that left one out is asked a second
 * time, between two more reads of the whole list, before the check fails on it. Read-only.
 */
import { operationById } from '../../specs/contract.ts';
import { billingFilterArb, combinedFilters, listedFilters, type BillingFilter } from '../generators/billing-filter.ts';
import {
  checkTest,
  test,
  type CheckContext,
  type Exchange,
  narrowedListQuery,
  checkProperty,
  mapBoundedInOrder,
} from '../lib/index.ts';
import { pagingSign } from '../lib/world/index.ts';
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
      title: 'start, end, state, customerId and inactive, alone and together, leave out no group that matches',
    },
    async (ctx) => {
      const { groups } = await listGroups(ctx);
      const filters = [...listedFilters(groups), ...combinedFilters(groups)];
      const answers = await mapBoundedInOrder(filters, (f) => filtered(ctx, f));
      const stable = stableGroups(groups, (await listGroups(ctx)).groups);
      const suspects = filters.filter((f, i) => leftOutOf(stable, f, answers[i] as Exchange).length > 0);
      // A group another run forced and restored between the reads looks stable; a second look only fails what persists.
      for (const f of suspects) await judgeFilter(ctx, f);
      await checkProperty(ctx, [billingFilterArb(groups)], (filter) => judgeFilter(ctx, filter), {
        independentRuns: true,
      });
    },
  ),
);

/** GET /billingGroups with `asked`, a bound it leaves out the whole window's (core/whole-list.ts). */
async function filtered(ctx: CheckContext, asked: BillingFilter): Promise<Exchange> {
  const filter = narrowedListQuery('listBillingGroups', asked);
  const x = await ctx.api.op(operationById('listBillingGroups'), { query: { ...filter } });
  ctx.check.expectSuccess(x, `GET /billingGroups with ${JSON.stringify(filter)}`);
  ctx.check.expectSchema(x, 'billing-group-list', 'spec 4.2');
  return x;
}

/** The groups that read the same in both whole lists. */
function stableGroups(before: readonly ListedGroup[], after: readonly ListedGroup[]): ListedGroup[] {
  const again = new Map(after.map((g) => [g.id, g]));
  return before.filter((g) => {
    const a = again.get(g.id);
    return a !== undefined && sameFacts(g, a);
  });
}

/** The stable groups that match what was asked, off its bound days, and that the answer leaves out. */
function leftOutOf(stable: readonly ListedGroup[], asked: BillingFilter, x: Exchange): ListedGroup[] {
  if (pagingSign(x) !== undefined) return [];
  const listed = new Set((x.response.body as { id?: unknown }[]).map((g) => g.id));
  return stable.filter((g) => mismatch({ ...g }, asked) === undefined && !onBoundary(g, asked) && !listed.has(g.id));
}

async function judgeFilter(ctx: CheckContext, asked: BillingFilter): Promise<void> {
  const filter = narrowedListQuery('listBillingGroups', asked);
  const first = await leftOut(ctx, asked);
  if (first.left.length === 0) return;
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
  const before = (await listGroups(ctx)).groups;
  const x = await filtered(ctx, asked);
  const stable = stableGroups(before, (await listGroups(ctx)).groups);
  return { left: leftOutOf(stable, asked, x), exchange: x };
}

/** Whether `start` and `end` include their own day is not shown (spec 4.2 gives only "start (date), end (date)"). */
function onBoundary(g: ListedGroup, f: BillingFilter): boolean {
  const day = typeof g.date === 'string' ? g.date.slice(0, 10) : undefined;
  return day !== undefined && (day === f.start || day === f.end);
}
