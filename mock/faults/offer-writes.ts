/**
 * Faults of offer writes (spec 1, 2.3, 3 rule 4, 4.1): what a write body says is dropped or changed before the route
 * reads it, a write is stored otherwise than it was asked, an id or batchId is handed out twice. Two seams:
 *
 * - the body, rewritten before the route reads it (a preHandler);
 * - the offers store's `submit`, through which every write reaches the store: a bend may change the batch (its id,
 *   the writes in it) and wrap the mutation of each write. Mutations are wrapped in the order the bends are listed
 *   below, the first listed closest to the conformant write.
 */
import type { FastifyRequest } from 'fastify';
import type { FaultName } from '../faults.ts';
import { offsetDropped } from '../formats.ts';
import { asObject, isObject, type JsonObject } from '../json.ts';
import type { OfferMutation, OfferWrite } from '../offers-store.ts';
import { offerBulk, offerCreate, offerUpsert } from '../routes/offers.ts';
import type { Bend, FaultLayer, RouteKey } from './layer.ts';

const SINGLE_WRITES: RouteKey[] = ['POST /offers', 'PUT /offers/:offerId'];
const BULK: RouteKey = 'POST /offers/bulk';

/** Rewrites each write body (the body, or each item of a bulk) before the route reads it. */
function rewriteBodies(layer: FaultLayer, keys: RouteKey[], rewrite: (body: JsonObject) => void): void {
  for (const key of keys)
    layer.route(key, {
      preHandler: (request) => {
        const body = request.body;
        const bodies = key === BULK ? (Array.isArray(body) ? body : []) : [body];
        for (const item of bodies) if (isObject(item)) rewrite(item);
      },
    });
}

/** A flag of the write body (spec 2.3) that the write then does not apply. */
function dropFlag(flag: 'cancel' | 'settled'): (body: JsonObject) => void {
  return (body) => {
    if (typeof body[flag] === 'boolean') delete body[flag];
  };
}

/** A field of the body's `offer`, changed as it is written. */
function rewriteOfferField(field: string, change: (value: unknown) => unknown): (body: JsonObject) => void {
  return (body) => {
    if (isObject(body.offer) && field in body.offer) body.offer[field] = change(body.offer[field]);
  };
}

/** The first two items of a bulk trade contents but keep their ids. */
function mixFirstTwo(request: FastifyRequest): void {
  const items = request.body;
  if (!Array.isArray(items)) return;
  const [a, b] = items;
  if (!isObject(a) || !isObject(b)) return;
  const withId = (item: JsonObject, from: JsonObject): JsonObject => {
    const { id: _id, ...rest } = item;
    return 'id' in from ? { ...rest, id: from.id } : rest;
  };
  items.splice(0, 2, withId(b, a), withId(a, b));
}

interface WriteAt {
  write: OfferWrite;
  index: number;
  count: number;
  /** The route that submitted the batch, and its request. */
  request: FastifyRequest | undefined;
  inRoute: (key: RouteKey) => boolean;
}

interface SubmitBends {
  /** Batch bends, in order: a batch's id and writes, before any mutation is wrapped. */
  batch: ((batchId: string, writes: OfferWrite[]) => [string, OfferWrite[]])[];
  /** Mutation bends, in order: the first wraps the conformant mutation. */
  mutation: { operation: OfferWrite['operation']; wrap: (mutate: OfferMutation, at: WriteAt) => OfferMutation }[];
}

const submitBends = new WeakMap<FaultLayer, SubmitBends>();

/** The bends of the offers store's submit, installed on the first one a fault asks for. */
function onSubmit(layer: FaultLayer): SubmitBends {
  const known = submitBends.get(layer);
  if (known) return known;
  const bends: SubmitBends = { batch: [], mutation: [] };
  submitBends.set(layer, bends);
  layer.decorate(layer.ctx.offers, 'submit', (submit) => (batchId, writes) => {
    let batch: [string, OfferWrite[]] = [batchId, writes];
    for (const bend of bends.batch) batch = bend(...batch);
    const [id, all] = batch;
    const request = layer.currentRequest();
    const inRoute = (key: RouteKey) => layer.inRoute(key);
    const wrapped = all.map((write, index) => {
      let mutate = write.mutate;
      for (const m of bends.mutation)
        if (m.operation === write.operation)
          mutate = m.wrap(mutate, { write, index, count: all.length, request, inRoute });
      return { ...write, mutate };
    });
    submit(id, wrapped);
  });
  return bends;
}

const unchanged: OfferMutation = (existing) => existing;

export const offerWriteBends = {
  'cancel-flag-ignored': (layer) => rewriteBodies(layer, SINGLE_WRITES, dropFlag('cancel')),
  'settled-ignored': (layer) => rewriteBodies(layer, SINGLE_WRITES, dropFlag('settled')),
  'bulk-cancel-ignored': (layer) => rewriteBodies(layer, [BULK], dropFlag('cancel')),
  // spec 2.2, 2.3: an array of string, and JSON arrays are ordered.
  'references-sorted': (layer) =>
    rewriteBodies(
      layer,
      [...SINGLE_WRITES, BULK],
      rewriteOfferField('references', (refs) => (Array.isArray(refs) ? [...refs].sort() : refs)),
    ),
  'timestamp-offset-dropped': (layer) =>
    rewriteBodies(
      layer,
      [...SINGLE_WRITES, BULK],
      rewriteOfferField('transportTimestamp', (at) => (typeof at === 'string' ? offsetDropped(at) : at)),
    ),
  'bulk-items-mixed': (layer) => layer.route(BULK, { preHandler: mixFirstTwo }),
  'invalid-body-accepted': (layer) => {
    const asSent = { read: (request: FastifyRequest) => request.body };
    layer.steps('POST /offers', offerCreate, asSent);
    layer.steps('PUT /offers/:offerId', offerUpsert, asSent);
    layer.steps(BULK, offerBulk, asSent);
  },
  // Only a sequence (an update, then a DELETE) meets it; offer-cancel deletes fresh offers. Listed before
  // update-not-applied, so that an update that fault swallows is not counted as one.
  'delete-after-update-ignored': (layer) => {
    // The offers updated since their creation.
    const updated = new Set<string>();
    const bends = onSubmit(layer);
    bends.mutation.push({
      operation: 'UPSERT',
      wrap:
        (mutate, { write }) =>
        (existing) => {
          if (existing) updated.add(write.offerId);
          return mutate(existing);
        },
    });
    bends.mutation.push({
      operation: 'CANCEL',
      wrap:
        (mutate, { write }) =>
        (existing) =>
          updated.has(write.offerId) ? existing : mutate(existing),
    });
  },
  'update-not-applied': (layer) =>
    onSubmit(layer).mutation.push({
      operation: 'UPSERT',
      wrap: (mutate) => (existing) => existing ?? mutate(existing),
    }),
  'delete-not-cancel': (layer) => onSubmit(layer).mutation.push({ operation: 'CANCEL', wrap: () => unchanged }),
  // A priceStrategy sent in a write (not a field of spec 2.3) is stored as is.
  'price-strategy-stored': (layer) =>
    onSubmit(layer).mutation.push({
      operation: 'UPSERT',
      wrap: (mutate, { index, request, inRoute }) => {
        const body = request?.body;
        const written = asObject(
          asObject(inRoute(BULK) && Array.isArray(body) ? body[index] : body).offer,
        ).priceStrategy;
        if (typeof written !== 'string') return mutate;
        return (existing) => {
          const offer = mutate(existing);
          return offer && { ...offer, priceStrategy: written as typeof offer.priceStrategy };
        };
      },
    }),
  // Every POST after the first answers (and overwrites) the first POST's offer id: its create replaces what the id
  // held, so each POST still reads back as written and only the first is lost.
  'offer-create-id-reused': (layer) => {
    let reused: string | undefined;
    const reusedBy = new WeakSet<FastifyRequest>();
    layer.decorate(layer.ctx.ids, 'next', (next) => (kind) => {
      const fresh = next(kind);
      const request = layer.currentRequest();
      if (kind !== 'offer' || !request || !layer.inRoute('POST /offers')) return fresh;
      reused ??= fresh;
      if (reused !== fresh) reusedBy.add(request);
      return reused;
    });
    onSubmit(layer).mutation.push({
      operation: 'UPSERT',
      wrap: (mutate, { request }) => (request && reusedBy.has(request) ? () => mutate(undefined) : mutate),
    });
  },
  'bulk-item-dropped': (layer) =>
    onSubmit(layer).mutation.push({
      operation: 'UPSERT',
      wrap: (mutate, { index, count, inRoute }) =>
        inRoute(BULK) && count >= 2 && index === count - 1 ? unchanged : mutate,
    }),
  // spec 1, 2.7: a batchId names one write. Every bulk after the first files its writes under the first one's.
  'bulk-batch-id-reused': (layer) => {
    let first: string | undefined;
    const answered = new WeakMap<FastifyRequest, string>();
    onSubmit(layer).batch.push((batchId, writes) => {
      const request = layer.currentRequest();
      if (!request || !layer.inRoute(BULK)) return [batchId, writes];
      first ??= batchId;
      answered.set(request, first);
      return [first, writes];
    });
    layer.route(BULK, {
      answer: (payload, request) => {
        const batchId = answered.get(request);
        return batchId !== undefined && isObject(payload) ? { ...payload, batchId } : payload;
      },
    });
  },
  // spec 3 rule 4: a DELETE cancels the offer, not the other offers of its booking.
  'offer-delete-cancels-booking': (layer) =>
    onSubmit(layer).batch.push((batchId, writes) => {
      const [named] = writes;
      if (!layer.inRoute('DELETE /offers/:offerId') || !named) return [batchId, writes];
      const offers = layer.ctx.offers;
      const bookingId = offers.get(named.offerId)?.bookingId;
      if (bookingId === undefined) return [batchId, writes];
      const neighbours = offers
        .list()
        .filter((o) => o.bookingId === bookingId && o.id !== named.offerId)
        .map((o): OfferWrite => ({ offerId: o.id, operation: 'CANCEL', mutate: named.mutate }));
      return [batchId, [...writes, ...neighbours]];
    }),
} satisfies Partial<Record<FaultName, Bend>>;
