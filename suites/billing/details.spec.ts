/**
 * billing-details (spec 2.5, spec 4.2): GET /billingGroups/{id}/details has the
 * documented shape and is the details of that group: same id, customer and
 * date as the group itself. Read-only; every listed group may be drawn.
 */
import fc from 'fast-check';
import { operationById } from '../../specs/contract.ts';
import { checkTest, test } from '../lib/index.ts';
import { checkProperty } from '../lib/property.ts';
import { target } from '../lib/target.ts';
import { listGroups } from './groups.ts';

const SAME = ['id', 'customerId', 'date'] as const;

test(
  ...checkTest(
    {
      check: 'billing-details',
      operation: operationById('getBillingGroupDetails'),
      title: 'details have the documented shape and belong to their group',
    },
    async (ctx) => {
      const { groups } = await listGroups(ctx);
      const op = operationById('getBillingGroupDetails');
      await checkProperty(
        ctx,
        [fc.constantFrom(...groups)],
        async (group) => {
          const x = await ctx.api.op(op, { params: { billingGroupId: group.id } });
          ctx.check.expectSuccess(x, `GET /billingGroups/${group.id}/details`);
          ctx.check.expectSchema(x, 'billing-group-details', 'spec 2.5');
          const details = x.response.body as Record<string, unknown>;
          const listed: Record<string, unknown> = { id: group.id, customerId: group.customerId, date: group.date };
          const differs = SAME.filter((k) => details[k] !== listed[k]);
          const k = differs[0];
          if (k)
            ctx.check.fail(
              `the details of billing group ${group.id} show ${differs.map((d) => `${d} ${JSON.stringify(details[d])} (the group has ${JSON.stringify(listed[d])})`).join(', ')}`,
              { exchanges: [x], pointer: `/${k}` },
            );
        },
        { numRuns: Math.min(groups.length, target().runs), independentRuns: true },
      );
    },
  ),
);
