/**
 * Faults of forced statuses across their two paths (spec 3 rules 1-3): a removal that undoes only what its own path
 * forced, a force that does not replace what the other path forced, a bulk call whose items all do what the first
 * does, and status writes that find a group by an id in any case. The store remembers which route forced each
 * status, as an implementation keeping the two paths apart would.
 */
import type { FaultName } from '../faults.ts';
import { bulkStatusUpdate, type StatusUpdate } from '../routes/billing-groups.ts';
import type { Bend, FaultLayer, RouteKey } from './layer.ts';

const PUT: RouteKey = 'PUT /billingGroups/:billingGroupId/status';
const DELETE: RouteKey = 'DELETE /billingGroups/:billingGroupId/status';
const BULK: RouteKey = 'POST /billingGroups/bulkStatusUpdate';

type Source = 'put' | 'bulk' | 'other';

/** Which path forced each group's status, kept beside the store; `keep` may veto a force or a removal. */
function withSources(
  layer: FaultLayer,
  keep: {
    force?: (id: string, by: Source, was: Source | undefined) => boolean;
    unforce?: (id: string, was: Source | undefined) => boolean;
  },
): void {
  const source = new Map<string, Source>();
  const by = (): Source => (layer.inRoute(BULK) ? 'bulk' : layer.inRoute(PUT) ? 'put' : 'other');
  layer.decorate(layer.ctx.billing, 'force', (force) => (id, status) => {
    if (keep.force && !keep.force(id, by(), source.get(id))) return;
    source.set(id, by());
    force(id, status);
  });
  layer.decorate(layer.ctx.billing, 'unforce', (unforce) => (id) => {
    if (keep.unforce && !keep.unforce(id, source.get(id))) return;
    source.delete(id);
    unforce(id);
  });
}

/** The id of the stored group equal to `id` but for letter case, if there is one. */
function anyCase(layer: FaultLayer, id: string): string | undefined {
  const lower = id.toLowerCase();
  return layer.ctx.billing
    .list()
    .map((g) => g.id)
    .find((g) => g.toLowerCase() === lower);
}

export const billingSequenceBends = {
  // A bulk item with deleteStatus removes only what a bulk call forced.
  'bulk-removal-only-bulk-forced': (layer) =>
    withSources(layer, { unforce: (_id, was) => !layer.inRoute(BULK) || was === 'bulk' }),
  // A PUT leaves a status a bulk call forced as it is.
  'put-over-bulk-ignored': (layer) =>
    withSources(layer, { force: (_id, by, was) => !(by === 'put' && was === 'bulk') }),
  'bulk-first-item-decides': (layer) =>
    layer.steps(BULK, bulkStatusUpdate, {
      asked: (updates, request) => {
        if (updates[0]?.deleteStatus ?? false)
          return updates.map((u): StatusUpdate => ({ billingGroupId: u.billingGroupId, deleteStatus: true }));
        // A removal made to force forces the status its item carries; one that carries none changes nothing.
        const raw = request.body as { status?: unknown }[];
        return updates.flatMap((u, i): StatusUpdate[] => {
          const status = u.deleteStatus ? raw[i]?.status : u.status;
          return typeof status === 'string' ? [{ billingGroupId: u.billingGroupId, deleteStatus: false, status }] : [];
        });
      },
    }),
  'status-write-any-case': (layer) => {
    for (const key of [PUT, DELETE])
      layer.route(key, {
        preHandler: (request) => {
          const params = request.params as Record<string, string>;
          const found = params.billingGroupId === undefined ? undefined : anyCase(layer, params.billingGroupId);
          if (found !== undefined) params.billingGroupId = found;
        },
      });
  },
} satisfies Partial<Record<FaultName, Bend>>;
