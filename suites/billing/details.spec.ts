/**
 * billing-details (spec 2.5, spec 4.2): GET /billingGroups/{id}/details has the documented shape and is the details
 * of that group, both ways: every documented field the details share with the group (spec 2.4: id, humanReadableId,
 * the customer's four fields, inactive, date, properties) shows the same value in the details as in the group's list
 * element and in its GET by id, and the details of an id that differs from the group's only by letter case (another
 * id, spec 2) are not that group's. `status` is compared by the world model (view-consistency), since forced statuses
 * change it while other checks run. Every listed group is read, side by side, on every run. Read-only.
 */
import { operationById } from '../../specs/contract.ts';
import { is2xx, checkTest, test, type CheckContext, caseTwinOf, mapBoundedInOrder } from '../lib/index.ts';
import { sameField } from '../lib/world/index.ts';
import { listGroups } from './groups.ts';

const SAME = [
  'id',
  'humanReadableId',
  'customerId',
  'customerName',
  'customerIntegrationId',
  'customerExternalId',
  'inactive',
  'date',
  'properties',
] as const;

type Json = Record<string, unknown>;

async function judgeDetails(ctx: CheckContext, listed: Json): Promise<void> {
  const id = String(listed.id);
  const params = { billingGroupId: id };
  const [x, single] = await Promise.all([
    ctx.api.op(operationById('getBillingGroupDetails'), { params }),
    ctx.api.op(operationById('getBillingGroup'), { params }),
  ]);
  ctx.check.expectSuccess(x, `GET /billingGroups/${id}/details`);
  ctx.check.expectSchema(x, 'billing-group-details', 'spec 2.5');
  const details = x.response.body as Json;
  const views: [string, Json][] = [['its list element', listed]];
  // A GET by id that answers another group is record-identity's: the details are compared with the list alone then.
  if (is2xx(single) && (single.response.body as Json | undefined)?.id === id)
    views.push([`GET /billingGroups/${id}`, single.response.body as Json]);
  for (const [where, group] of views) {
    const differs = SAME.filter((k) => k in group && !sameField(k, details[k], group[k]));
    const k = differs[0];
    if (k)
      ctx.check.fail(
        `the details of billing group ${id} show ${differs.map((d) => `${d} ${JSON.stringify(details[d])} (${where} has ${JSON.stringify(group[d])})`).join(', ')}`,
        { exchanges: [x, ...(where === 'its list element' ? [] : [single])], pointer: `/${k}` },
      );
  }
}

/** The details of the case twin of a group's id answer no group, or one with that id: never the group itself. */
async function judgeTwin(ctx: CheckContext, id: string): Promise<void> {
  const twin = caseTwinOf(id);
  if (twin === undefined) return;
  const x = await ctx.api.op(operationById('getBillingGroupDetails'), { params: { billingGroupId: twin } });
  const answered = (x.response.body as Json | undefined)?.id;
  if (is2xx(x) && answered !== twin)
    ctx.check.fail(
      `GET /billingGroups/${twin}/details (an id that differs from ${id} only by case) answered the details of ${JSON.stringify(answered)}`,
      { exchanges: [x], pointer: '/id' },
    );
}

test(
  ...checkTest(
    {
      check: 'billing-details',
      operation: operationById('getBillingGroupDetails'),
      title: 'details have the documented shape and show what their group shows, and no other id',
    },
    async (ctx) => {
      const { exchange } = await listGroups(ctx);
      const listed = (exchange.response.body as unknown[]).filter(
        (g): g is Json => typeof g === 'object' && g !== null && typeof (g as Json).id === 'string',
      );
      await mapBoundedInOrder(listed, (g) => judgeDetails(ctx, g));
      await mapBoundedInOrder(listed.slice(0, 3), (g) => judgeTwin(ctx, String(g.id)));
    },
  ),
);
