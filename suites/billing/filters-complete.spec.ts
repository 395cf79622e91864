/**
 * billing-filters-complete (spec 4.2): the other direction of billing-filters.
 * A group the unfiltered GET /billingGroups shows, and that matches every
 * filter given (start, end, state, customerId, inactive, alone or combined),
 * is in the filtered list too: nothing that matches is left out.
 * Runs sharing a deployment force statuses meanwhile, so the unfiltered list
 * is read before and after the filtered one and only groups that read the
 * same both times are judged. Read-only.
 */
import { operationById } from '../../specs/contract.ts';
import { billingFilterArb } from '../generators/billing-filter.ts';
import { checkTest } from '../lib/check-test.ts';
import { checkProperty } from '../lib/property.ts';
import { mismatch } from './filter-match.ts';
import { listGroups, type ListedGroup } from './groups.ts';

function sameFacts(a: ListedGroup, b: ListedGroup): boolean {
  return a.date === b.date && a.status === b.status && a.customerId === b.customerId && a.inactive === b.inactive;
}

checkTest(
  {
    check: 'billing-filters-complete',
    clause: 'spec 4.2',
    operation: operationById('listBillingGroups'),
    title: 'start, end, state, customerId and inactive leave out no group that matches',
  },
  async (ctx) => {
    const { groups } = await listGroups(ctx);
    const op = operationById('listBillingGroups');
    await checkProperty(ctx, [billingFilterArb(groups)], async (filter) => {
      const before = (await listGroups(ctx)).groups;
      const x = await ctx.api.op(op, { query: { ...filter } });
      ctx.check.expectSuccess(x, `GET /billingGroups with ${JSON.stringify(filter)}`);
      ctx.check.expectSchema(x, 'billing-group-list', 'spec 4.2');
      const after = new Map((await listGroups(ctx)).groups.map((g) => [g.id, g]));
      const stable = before.filter((g) => {
        const again = after.get(g.id);
        return again !== undefined && sameFacts(g, again);
      });
      const listed = new Set((x.response.body as { id?: unknown }[]).map((g) => g.id));
      const left = stable.filter((g) => mismatch({ ...g }, filter) === undefined && !listed.has(g.id));
      if (left.length > 0)
        ctx.check.fail(
          `GET /billingGroups with ${JSON.stringify(filter)} left out ${left.length} group(s) that the unfiltered list shows and that match: ${left
            .slice(0, 5)
            .map(
              (g) =>
                `${g.id} (date ${g.date}, status '${g.status}', customerId '${g.customerId}', inactive ${g.inactive})`,
            )
            .join('; ')}`,
          { exchanges: [x] },
        );
    });
  },
);
