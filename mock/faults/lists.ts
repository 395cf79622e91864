/** Faults of list answers (spec 4.1, 4.2): an empty list answered as null, as a nil slice serialises. */
import type { FaultName } from '../faults.ts';
import type { Bend, RouteKey } from './layer.ts';

const LISTS: RouteKey[] = ['GET /offers', 'GET /billingGroups', 'GET /invoices'];

export const listBends = {
  'empty-list-null': (layer) => {
    for (const key of LISTS)
      layer.route(key, { answer: (payload) => (Array.isArray(payload) && payload.length === 0 ? null : payload) });
  },
} satisfies Partial<Record<FaultName, Bend>>;
