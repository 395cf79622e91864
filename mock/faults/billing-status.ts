/**
 * Faults of forced statuses (spec 3 rules 1-3): a force or its removal answered but not applied, a bulk removal read
 * as a force, a list that keeps showing each group's own status. The billing store's methods are bent while one
 * route's handler runs, so the same change made another way still works.
 */
import type { BillingGroup } from '../billing-store.ts';
import type { FaultName } from '../faults.ts';
import { asObject } from '../json.ts';
import { bulkStatusUpdate, type StatusUpdate } from '../routes/billing-groups.ts';
import type { Bend, FaultLayer, RouteKey } from './layer.ts';

/** A force the store ignores while the handler of `key` runs. */
function forceIgnoredIn(layer: FaultLayer, key: RouteKey): void {
  layer.decorate(layer.ctx.billing, 'force', (force) => (id, status) => {
    if (!layer.inRoute(key)) force(id, status);
  });
}

/** A removal the store ignores while the handler of `key` runs. */
function unforceIgnoredIn(layer: FaultLayer, key: RouteKey): void {
  layer.decorate(layer.ctx.billing, 'unforce', (unforce) => (id) => {
    if (!layer.inRoute(key)) unforce(id);
  });
}

export const billingStatusBends = {
  'forced-status-not-removed': (layer) => unforceIgnoredIn(layer, 'DELETE /billingGroups/:billingGroupId/status'),
  // An item with deleteStatus: true forces the status it carries (read from the body, item by item), if it has one,
  // and is otherwise left as it is.
  'delete-status-ignored': (layer) =>
    layer.steps('POST /billingGroups/bulkStatusUpdate', bulkStatusUpdate, {
      asked: (updates, request) =>
        updates.flatMap((u, i): StatusUpdate[] => {
          if (!u.deleteStatus) return [u];
          const status = asObject((request.body as unknown[])[i]).status;
          return typeof status === 'string' ? [{ billingGroupId: u.billingGroupId, deleteStatus: false, status }] : [];
        }),
    }),
  'forced-status-ignored': (layer) => forceIgnoredIn(layer, 'PUT /billingGroups/:billingGroupId/status'),
  // GET /billingGroups/{id} and its details show a forced status; the list and its state filter keep the group's own.
  'forced-status-list-stale': (layer) => {
    const billing = layer.ctx.billing;
    const own = new Map<string, string>();
    layer.decorate(billing, 'force', (force) => (id, status) => {
      const group = billing.get(id);
      if (group && !own.has(id)) own.set(id, group.status);
      force(id, status);
    });
    layer.decorate(billing, 'unforce', (unforce) => (id) => {
      own.delete(id);
      unforce(id);
    });
    const withOwnStatus = (g: BillingGroup): BillingGroup => {
      const status = own.get(g.id);
      return status === undefined ? g : { ...g, status };
    };
    layer.decorate(
      billing,
      'list',
      (list) => () => (layer.inRoute('GET /billingGroups') ? list().map(withOwnStatus) : list()),
    );
  },
} satisfies Partial<Record<FaultName, Bend>>;
