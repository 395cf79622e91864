/**
 * billing-filters (spec 4.2, spec 3): GET /billingGroups with `start` and `end`
 * (on `date`), `state`, `customerId` and `inactive`, alone or combined, returns
 * only groups that match. A bound the filter leaves out is sent as the whole
 * window's (suites/lib/whole-list.ts): a server may need both. `state` is compared with `status`: spec 3 names a
 * billing group's states as its `status` and `inactive` fields, and `inactive`
 * has a filter of its own. Whether a bound includes its own day is not shown, so
 * a group is out of the window only when its date lies beyond a bound. Only
 * "only matching" is asserted here; billing-filters-complete owns the other way.
 * Every single-field filter the listed groups make, the days just inside their
 * dates included, and the pairs and triples of each group's values
 * (combinedFilters: filters that hold alone must hold together) are sent on
 * every run (the same verdict whatever the seed), side by side; random
 * combinations add to them. Read-only.
 */
import { operationById } from '../../specs/contract.ts';
import { billingFilterArb, combinedFilters, listedFilters, type BillingFilter } from '../generators/billing-filter.ts';
import { checkTest, test, type CheckContext } from '../lib/index.ts';
import { mapBoundedInOrder } from '../lib/parallel.ts';
import { checkProperty } from '../lib/property.ts';
import { narrowedListQuery } from '../lib/whole-list.ts';
import { mismatch } from './filter-match.ts';
import { listGroups } from './groups.ts';

async function onlyMatching(ctx: CheckContext, asked: BillingFilter): Promise<void> {
  // A bound the filter leaves out is sent as the whole window's (a server may need both, suites/lib/whole-list.ts);
  // only what the check asked is judged, so a group the window adds a bound for is judged as before.
  const filter = narrowedListQuery('listBillingGroups', asked);
  const x = await ctx.api.op(operationById('listBillingGroups'), { query: { ...filter } });
  ctx.check.expectSuccess(x, `GET /billingGroups with ${JSON.stringify(filter)}`);
  ctx.check.expectSchema(x, 'billing-group-list', 'spec 4.2');
  const list = x.response.body as Record<string, unknown>[];
  const bad = list.map((g, i) => ({ i, why: mismatch(g, asked) })).filter((b) => b.why !== undefined);
  const first = bad[0];
  if (first) {
    ctx.check.fail(
      `GET /billingGroups with ${JSON.stringify(filter)} returned ${bad.length} of ${list.length} group(s) that do not match: ${bad
        .slice(0, 5)
        .map((b) => `[${b.i}] ${String(list[b.i]?.id)}: ${b.why}`)
        .join('; ')}`,
      { exchanges: [x], pointer: `/${first.i}` },
    );
  }
}

test(
  ...checkTest(
    {
      check: 'billing-filters',
      operation: operationById('listBillingGroups'),
      title: 'start, end, state, customerId and inactive return only matching groups',
    },
    async (ctx) => {
      const { groups } = await listGroups(ctx);
      await mapBoundedInOrder([...listedFilters(groups), ...combinedFilters(groups)], (filter) =>
        onlyMatching(ctx, filter),
      );
      await checkProperty(ctx, [billingFilterArb(groups)], (filter) => onlyMatching(ctx, filter), {
        independentRuns: true,
      });
    },
  ),
);
