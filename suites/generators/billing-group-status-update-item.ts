/**
 * An item of POST /billingGroups/bulkStatusUpdate (spec 2.7, spec 3 rule 3):
 * force a status, or remove the forced one with `deleteStatus: true`. When
 * forcing, `deleteStatus` is false or left out (its sample default is false).
 * An item that removes may carry a `status` too: the shape of spec 2.7 allows
 * it, and spec 3 rule 3 says an item with deleteStatus true removes the forced
 * status, so the status it carries is not forced.
 * Billing groups cannot be created through the interface, so the ids and the
 * statuses come from the caller: existing groups and values the server uses.
 */
import fc from 'fast-check';
import type { BillingGroupStatusUpdateItem } from '../../schemas/types.generated.ts';

export interface StatusUpdateChoices {
  billingGroupIds: readonly string[];
  statuses: readonly string[];
}

export function billingGroupStatusUpdateItemArb(
  choices: StatusUpdateChoices,
): fc.Arbitrary<BillingGroupStatusUpdateItem> {
  const id = fc.constantFrom(...choices.billingGroupIds);
  const force = fc.record(
    { billingGroupId: id, status: fc.constantFrom(...choices.statuses), deleteStatus: fc.constant(false) },
    { requiredKeys: ['billingGroupId', 'status'] },
  );
  const remove = fc.record(
    { billingGroupId: id, deleteStatus: fc.constant(true), status: fc.constantFrom(...choices.statuses) },
    { requiredKeys: ['billingGroupId', 'deleteStatus'] },
  );
  return fc.oneof(force, remove);
}
