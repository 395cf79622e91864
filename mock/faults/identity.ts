/**
 * Faults of identity (spec 4.1, 4.2, 2.6): a GET by id answers another record, or a view embeds another record's
 * parts. The id asked for is swapped for the next stored one's before the route reads it (the first after the last).
 */
import type { FastifyRequest } from 'fastify';
import type { FaultName } from '../faults.ts';
import { isObject } from '../json.ts';
import { billingGroupDetailsOf } from '../routes/invoices.ts';
import type { Bend, FaultLayer, RouteKey } from './layer.ts';

/** The id after `id` in `ids`, the first after the last; `id` itself when it is not there. */
function nextOf(ids: readonly string[], id: string): string {
  return ids[(ids.indexOf(id) + 1) % ids.length] ?? id;
}

/** GET `key` answers the record stored after the one asked for, when that one exists. */
function answerTheNext(
  layer: FaultLayer,
  key: RouteKey,
  param: string,
  exists: (id: string) => boolean,
  ids: () => string[],
): void {
  layer.route(key, {
    preHandler: (request: FastifyRequest) => {
      const params = request.params as Record<string, string>;
      const id = params[param];
      if (id !== undefined && exists(id)) params[param] = nextOf(ids(), id);
    },
  });
}

export const identityBends = {
  'billing-group-get-wrong': (layer) => {
    const billing = layer.ctx.billing;
    answerTheNext(
      layer,
      'GET /billingGroups/:billingGroupId',
      'billingGroupId',
      (id) => billing.has(id),
      () => billing.list().map((g) => g.id),
    );
  },
  'invoice-get-wrong': (layer) => {
    const invoices = layer.ctx.invoices;
    for (const key of ['GET /invoices/:invoiceId', 'GET /invoicesBillingGroupDetailsSnapshot/:invoiceId'] as const)
      answerTheNext(
        layer,
        key,
        'invoiceId',
        (id) => invoices.get(id) !== undefined,
        () => invoices.list().map((i) => i.id),
      );
  },
  'offer-get-wrong': (layer) => {
    const offers = layer.ctx.offers;
    answerTheNext(
      layer,
      'GET /offers/:offerId',
      'offerId',
      (id) => offers.get(id) !== undefined,
      () => offers.list().map((o) => o.id),
    );
  },
  // The snapshot is its own invoice's, with the billing group details of the next invoice's groups.
  'snapshot-other-invoice-groups': (layer) =>
    layer.route('GET /invoicesBillingGroupDetailsSnapshot/:invoiceId', {
      answer: (snapshot) => {
        if (!isObject(snapshot)) return snapshot;
        const all = layer.ctx.invoices.list();
        const next = all.find(
          (i) =>
            i.id ===
            nextOf(
              all.map((x) => x.id),
              String(snapshot.id),
            ),
        );
        return next
          ? { ...snapshot, billingGroupDetails: billingGroupDetailsOf(layer.ctx, next.billingGroupIds) }
          : snapshot;
      },
    }),
} satisfies Partial<Record<FaultName, Bend>>;
