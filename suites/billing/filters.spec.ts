/**
 * billing-filters (spec 4.2, spec 3): GET /billingGroups with `start` and `end`
 * (on `date`, both inclusive), `state`, `customerId` and `inactive`, alone or
 * combined, returns only groups that match. `state` is compared with `status`:
 * spec 3 names a billing group's states as its `status` and `inactive` fields,
 * and `inactive` has a filter of its own. Only "only matching" is asserted: the
 * spec does not promise the unfiltered list is complete, so neither is a
 * filtered one. Read-only.
 */
import { operationById } from '../../specs/contract.ts';
import { billingFilterArb } from '../generators/billing-filter.ts';
import { checkTest, test } from '../lib/check-test.ts';
import { checkProperty } from '../lib/property.ts';
import { mismatch } from './filter-match.ts';
import { listGroups } from './groups.ts';

test(
  ...checkTest(
    {
      check: 'billing-filters',
      clause: 'spec 4.2',
      operation: operationById('listBillingGroups'),
      title: 'start, end, state, customerId and inactive return only matching groups',
    },
    async (ctx) => {
      const { groups } = await listGroups(ctx);
      const op = operationById('listBillingGroups');
      await checkProperty(ctx, [billingFilterArb(groups)], async (filter) => {
        const x = await ctx.api.op(op, { query: { ...filter } });
        ctx.check.expectSuccess(x, `GET /billingGroups with ${JSON.stringify(filter)}`);
        ctx.check.expectSchema(x, 'billing-group-list', 'spec 4.2');
        const list = x.response.body as Record<string, unknown>[];
        const bad = list.map((g, i) => ({ i, why: mismatch(g, filter) })).filter((b) => b.why !== undefined);
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
      });
    },
  ),
);
