/**
 * Faults of offers at the edges (spec 2, 3 rule 4, 4.1): identity where ids differ only by case, where offers share a
 * default value or a sort key; a listing kept apart from the offers; writes of two kinds in sequence; an effect a
 * write has on the other offers of its booking. Each bends the offers store's `submit` (every write goes through it)
 * or a route's request or answer.
 */
import type { FaultName } from '../faults.ts';
import { clone, isObject } from '../json.ts';
import type { Offer } from '../offer-model.ts';
import type { OfferWrite } from '../offers-store.ts';
import { offerList } from '../routes/offers.ts';
import type { Bend, FaultLayer, RouteKey } from './layer.ts';

const SINGLE: RouteKey[] = ['POST /offers', 'PUT /offers/:offerId'];
const BULK: RouteKey = 'POST /offers/bulk';
const BY_ID: RouteKey[] = ['GET /offers/:offerId', 'PUT /offers/:offerId', 'DELETE /offers/:offerId'];

/**
 * Wraps the offers store's submit: `before` may change the batch's writes, `after` runs once the conformant submit
 * has taken them (writes with no delay are applied by then), with the original submit for writes of its own.
 */
function aroundSubmit(
  layer: FaultLayer,
  bend: {
    before?: (writes: OfferWrite[]) => OfferWrite[];
    after?: (writes: readonly OfferWrite[], submit: (batchId: string, writes: OfferWrite[]) => void) => void;
  },
): void {
  layer.decorate(layer.ctx.offers, 'submit', (submit) => (batchId, writes) => {
    const sent = bend.before ? bend.before(writes) : writes;
    submit(batchId, sent);
    bend.after?.(sent, submit);
  });
}

/** The writes an UPSERT of which creates its offer (nothing stored under its id before the batch). */
function creates(layer: FaultLayer, writes: readonly OfferWrite[]): Set<string> {
  return new Set(
    writes.filter((w) => w.operation === 'UPSERT' && !layer.ctx.offers.isKnown(w.offerId)).map((w) => w.offerId),
  );
}

function inAny(layer: FaultLayer, keys: readonly RouteKey[]): boolean {
  return keys.some((k) => layer.inRoute(k));
}

export const offerEdgeBends = {
  // Offers are keyed by their id in lower case, the first id written keeping the record: /offers/X-AB is /offers/X-ab.
  'offer-ids-case-folded': (layer) => {
    const first = new Map<string, string>();
    const canonical = (id: string): string => {
      const known = first.get(id.toLowerCase());
      if (known !== undefined) return known;
      first.set(id.toLowerCase(), id);
      return id;
    };
    for (const key of BY_ID)
      layer.route(key, {
        preHandler: (request) => {
          const params = request.params as Record<string, string>;
          if (typeof params.offerId === 'string') params.offerId = canonical(params.offerId);
        },
      });
    layer.route(BULK, {
      preHandler: (request) => {
        for (const item of Array.isArray(request.body) ? request.body : [])
          if (isObject(item) && typeof item.id === 'string') item.id = canonical(item.id);
      },
    });
  },
  // The booking-neighbour lookup of a DELETE treats "no bookingId written" as one booking (with one carrier): deleting
  // an offer written without a bookingId cancels every other such offer of its carrier (spec 3 rule 4: the offer).
  'delete-cancels-unbooked-offers': (layer) => {
    const unbooked = new Set<string>();
    aroundSubmit(layer, {
      before: (writes) => {
        const made = creates(layer, writes);
        for (const w of writes)
          if (w.operation === 'UPSERT' && w.bookingId === undefined && made.has(w.offerId)) unbooked.add(w.offerId);
          else if (w.operation === 'UPSERT' && w.bookingId !== undefined) unbooked.delete(w.offerId);
        const [named] = writes;
        if (!named || !layer.inRoute('DELETE /offers/:offerId') || !unbooked.has(named.offerId)) return writes;
        const carrier = layer.ctx.offers.get(named.offerId)?.carrierId;
        const others = [...unbooked]
          .filter((id) => id !== named.offerId && layer.ctx.offers.get(id)?.carrierId === carrier)
          .map((offerId): OfferWrite => ({ offerId, operation: 'CANCEL', mutate: named.mutate }));
        return [...writes, ...others];
      },
    });
  },
  // A write to an offer recomputes its booking and stores every other offer of it as live again: a cancellation is
  // undone by a write to another offer (spec 3 rule 4: only a write to an offer changes whether it is cancelled).
  'booking-write-uncancels': (layer) =>
    aroundSubmit(layer, {
      after: (writes, submit) => {
        if (!inAny(layer, [...SINGLE, BULK])) return;
        for (const w of writes) {
          const bookingId = layer.ctx.offers.get(w.offerId)?.bookingId;
          const revived = layer.ctx.offers
            .list()
            .filter((o) => o.bookingId === bookingId && o.id !== w.offerId && o.canceled)
            .map(
              (o): OfferWrite => ({
                offerId: o.id,
                operation: 'UPSERT',
                mutate: (e) => e && { ...e, canceled: false },
              }),
            );
          if (revived.length > 0) submit(layer.ctx.ids.next('batch'), revived);
        }
      },
    }),
  // A bulk item to an offer that a single write (POST, PUT) created is taken as done and changes nothing: the bulk path
  // only inserts what the single path did not (spec 2.3, 4.1: each bulk item is written as a PUT of it would be).
  'bulk-update-of-single-offer-ignored': (layer) => {
    const single = new Set<string>();
    aroundSubmit(layer, {
      before: (writes) => {
        if (inAny(layer, SINGLE)) for (const id of creates(layer, writes)) single.add(id);
        if (!layer.inRoute(BULK)) return writes;
        return writes.map((w) =>
          single.has(w.offerId) ? { ...w, mutate: (e: Offer | undefined) => e ?? w.mutate(e) } : w,
        );
      },
    });
  },
  // GET /offers is keyed by transportTimestamp: of offers that share one, only the one written last is listed.
  'offer-list-one-per-timestamp': (layer) =>
    layer.steps('GET /offers', offerList, {
      answered: (listed) => {
        const byTime = new Map<string, Offer>();
        const at = (o: Offer) => layer.ctx.offers.lastWrittenAt(o.id) ?? 0;
        for (const o of listed) {
          const held = byTime.get(o.transportTimestamp);
          if (!held || at(o) >= at(held)) byTime.set(o.transportTimestamp, o);
        }
        return listed.filter((o) => byTime.get(o.transportTimestamp) === o);
      },
    }),
  // GET /offers answers from an index the create fills and no later write updates: an offer is listed as created.
  'offer-list-stale-after-update': (layer) => {
    const created = new Map<string, Offer>();
    aroundSubmit(layer, {
      before: (writes) => {
        const made = creates(layer, writes);
        return writes.map((w) =>
          made.has(w.offerId)
            ? {
                ...w,
                mutate: (e: Offer | undefined) => {
                  const offer = w.mutate(e);
                  if (offer && !created.has(offer.id)) created.set(offer.id, clone(offer));
                  return offer;
                },
              }
            : w,
        );
      },
    });
    layer.steps('GET /offers', offerList, {
      answered: (listed) => listed.map((o) => (created.has(o.id) ? clone(created.get(o.id) as Offer) : o)),
    });
  },
} satisfies Partial<Record<FaultName, Bend>>;
