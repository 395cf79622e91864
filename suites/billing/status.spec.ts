/**
 * Forced billing-group statuses (spec 3 rules 1–3, spec 4.2).
 * - billing-forced-status: PUT status forces the given status (the group then
 *   shows it); DELETE status removes the forced value (it no longer shows it).
 * - billing-bulk-status: bulkStatusUpdate forces each item's status or, with
 *   deleteStatus true, removes the forced one. Generated plans over two groups
 *   (force both, remove at least one, maybe one more call of any kind) are
 *   checked against a model: a forced group shows its status; a group whose
 *   forced status was removed no longer does.
 * The two tests run one after the other (they may share groups on a small
 * deployment), and every status they force is restored.
 */
import fc from 'fast-check';
import type { BillingGroupStatusUpdateItem } from '../../schemas/types.generated.ts';
import { operationById } from '../../specs/contract.ts';
import { billingGroupStatusUpdateItemArb } from '../generators/billing-group-status-update-item.ts';
import { checkTest, test } from '../lib/check-test.ts';
import { withCleanup, type FlowContext } from '../lib/cleanup.ts';
import { checkProperty } from '../lib/property.ts';
import { target } from '../lib/target.ts';
import { listGroups, statusCandidates, writableGroups, type ListedGroup } from './groups.ts';
import { awaitStatus, bulkStatus, currentStatus, expectForced, forceStatus, removeStatus } from './status.ts';

test.describe.configure({ mode: 'default' });

test(
  ...checkTest(
    {
      check: 'billing-forced-status',
      clause: 'spec 3 rules 1-2',
      operation: operationById('forceBillingGroupStatus'),
      title: 'PUT status forces it, DELETE status removes it',
      writes: true,
    },
    (ctx) =>
      withCleanup(ctx, async (flow) => {
        const { groups } = await listGroups(flow);
        const group = writableGroups(groups)[0];
        if (!group) throw new Error('listGroups returned no group without skipping');
        const own = (await currentStatus(flow, group.id)) ?? group.status;
        const { values, invented } = statusCandidates(groups, own, target().runId);
        const forced = values[target().seed % values.length] ?? values[0] ?? 'Booked';
        flow.cleanup.billingStatus(group.id, own);
        const put = await forceStatus(flow, group.id, forced);
        if (invented && put.response.status >= 400 && put.response.status < 500) {
          flow.testInfo.skip(
            true,
            `billing group ${group.id} shows '${own}', every group shows that, and the server refused '${forced}': the spec lists no other status value (spec 3), so there is nothing to force`,
          );
        }
        expectForced(flow, put, group.id);
        await awaitStatus(
          flow,
          group.id,
          (s) => s === forced,
          `was forced to '${forced}' (PUT answered success) but does not show it`,
          'spec 3 rule 1',
        );
        await removeStatus(flow, group.id);
        await awaitStatus(
          flow,
          group.id,
          (s) => s !== forced,
          `had its forced status '${forced}' removed (DELETE answered success) but still shows it`,
          'spec 3 rule 2',
        );
      }),
  ),
);

function itemArb(
  g: ListedGroup,
  own: Map<string, string>,
  all: ListedGroup[],
): fc.Arbitrary<BillingGroupStatusUpdateItem> {
  return billingGroupStatusUpdateItemArb({
    billingGroupIds: [g.id],
    statuses: statusCandidates(all, own.get(g.id) ?? g.status, target().runId).values,
  });
}

/** One bulk call: an item for some of the groups (at least one). */
function stepArb(
  groups: ListedGroup[],
  own: Map<string, string>,
  all: ListedGroup[],
): fc.Arbitrary<BillingGroupStatusUpdateItem[]> {
  const items = groups.map((g) => fc.option(itemArb(g, own, all), { nil: undefined }));
  return fc
    .tuple(...items)
    .map((xs) => xs.filter((x): x is BillingGroupStatusUpdateItem => x !== undefined))
    .filter((xs) => xs.length > 0);
}

/** One bulk call with at least one deleteStatus item: rule 3 is about both halves, so every plan removes something. */
function removingStepArb(
  groups: ListedGroup[],
  own: Map<string, string>,
  all: ListedGroup[],
): fc.Arbitrary<BillingGroupStatusUpdateItem[]> {
  return stepArb(groups, own, all).filter((items) => items.some((i) => i.deleteStatus === true));
}

/**
 * A plan: force every group (so deleteStatus has something to remove), a call
 * that removes at least one forced status, then maybe one more of anything.
 */
function planArb(
  groups: ListedGroup[],
  own: Map<string, string>,
  all: ListedGroup[],
): fc.Arbitrary<BillingGroupStatusUpdateItem[][]> {
  const forceAll = fc.tuple(...groups.map((g) => itemArb(g, own, all).filter((i) => i.deleteStatus !== true)));
  const more = fc.array(stepArb(groups, own, all), { maxLength: 1 });
  return fc
    .tuple(forceAll, removingStepArb(groups, own, all), more)
    .map(([first, removing, rest]) => [first, removing, ...rest]);
}

/** After one bulk call: forced groups show their status; groups whose forced status was removed no longer show it. */
async function checkStep(
  flow: FlowContext,
  items: BillingGroupStatusUpdateItem[],
  forced: Map<string, string>,
): Promise<void> {
  for (const item of items) {
    const id = item.billingGroupId;
    if (item.deleteStatus !== true && item.status !== undefined) {
      forced.set(id, item.status);
      await awaitStatus(
        flow,
        id,
        (s) => s === item.status,
        `was forced to '${item.status}' by bulkStatusUpdate but does not show it`,
        'spec 3 rule 3',
      );
      continue;
    }
    const was = forced.get(id);
    forced.delete(id);
    if (was !== undefined)
      await awaitStatus(
        flow,
        id,
        (s) => s !== was,
        `had its forced status '${was}' removed by bulkStatusUpdate (deleteStatus: true) but still shows it`,
        'spec 3 rule 3',
      );
  }
}

test(
  ...checkTest(
    {
      check: 'billing-bulk-status',
      clause: 'spec 3 rule 3',
      operation: operationById('bulkUpdateBillingGroupStatus'),
      title: 'bulkStatusUpdate forces, and removes with deleteStatus, per item',
      writes: true,
    },
    (ctx) =>
      withCleanup(ctx, async (flow) => {
        const { groups } = await listGroups(flow);
        const writable = writableGroups(groups);
        const mine = writable.length >= 3 ? writable.slice(1, 3) : writable.slice(0, 2);
        const own = new Map<string, string>();
        for (const g of mine) {
          const s = (await currentStatus(flow, g.id)) ?? g.status;
          own.set(g.id, s);
          flow.cleanup.billingStatus(g.id, s);
        }
        const plan = planArb(mine, own, groups);
        await checkProperty(
          flow,
          [plan],
          async (steps) => {
            const forced = new Map<string, string>();
            try {
              for (const items of steps) {
                await bulkStatus(flow, items);
                await checkStep(flow, items, forced);
              }
            } finally {
              // Each run starts from the groups' own statuses, so a shrunk run means the same thing alone.
              if (forced.size > 0)
                await bulkStatus(
                  flow,
                  [...forced.keys()].map((billingGroupId) => ({ billingGroupId, deleteStatus: true })),
                ).catch(() => undefined);
            }
          },
          { numRuns: Math.max(1, Math.ceil(target().runs / 4)), waitsPerRun: 3 },
        );
      }),
  ),
);
