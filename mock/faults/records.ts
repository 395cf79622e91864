/**
 * Faults of section 4.3 records as path-addressed records (spec 1, 4.3): a write that reaches a record its path does
 * not name, ids that differ only by case taken for one, a record made one way that an update made another way does
 * not reach, a list that leaves out what the GET by id shows or keeps what a DELETE removed, a DELETE that works once.
 * Each is one small bug a real implementation could have.
 */
import type { FaultName } from '../faults.ts';
import { isObject, type JsonObject } from '../json.ts';
import { type Collection, keyOf } from '../store.ts';
import type { Bend, FaultLayer } from './layer.ts';

type RecordStore = FaultLayer['ctx']['records'];

/** The order a write under `/orders/:orderId/attachment/:attachmentId` names, and the body it wrote. */
function childOverParent(layer: FaultLayer): void {
  layer.route('PUT /orders/:orderId/attachment/:attachmentId', {
    answer: (payload, request) => {
      const { orderId } = request.params as Record<string, string>;
      if (orderId === undefined || !isObject(request.body) || !layer.ctx.records.has('orders', keyOf([orderId])))
        return payload;
      // A child saved into the row of its parent: the order now reads what the attachment wrote.
      layer.ctx.records.put('orders', keyOf([orderId]), { ...(request.body as JsonObject), id: orderId });
      return payload;
    },
  });
}

/** Every record store method keyed by the path's ids, with the ids folded to lower case first. */
function foldCase(layer: FaultLayer): void {
  const store = layer.ctx.records;
  const folded = (key: string) => key.toLowerCase();
  for (const method of ['get', 'has', 'delete'] as const)
    layer.decorate(
      store,
      method,
      (original) => ((name: Collection, key: string) => original(name, folded(key))) as never,
    );
  layer.decorate(
    store,
    'put',
    (original) => (name: Collection, key: string, record: JsonObject) => original(name, folded(key), record),
  );
}

/** The collections a POST (or its bulk) makes records of, by the Fastify path of the POST. */
const MADE_BY_POST: Readonly<Record<string, Collection>> = {
  'POST /customers': 'customers',
  'POST /customers/bulk': 'customers',
  'POST /products': 'products',
  'POST /products/bulk': 'products',
};

/** Records a POST made are kept apart, and a PUT to one answers success and leaves it as the POST made it. */
function postedNotUpdated(layer: FaultLayer): void {
  const posted = new Set<string>();
  const mark = (collection: Collection, payload: unknown): void => {
    for (const item of Array.isArray(payload) ? payload : [payload])
      if (isObject(item) && typeof item.id === 'string') posted.add(`${collection} ${keyOf([item.id])}`);
  };
  for (const [key, collection] of Object.entries(MADE_BY_POST))
    layer.route(key as `POST /${string}`, {
      answer: (payload) => {
        mark(collection, payload);
        return payload;
      },
    });
  for (const [collection, param] of [
    ['customers', 'customerId'],
    ['products', 'productCodeId'],
  ] as const)
    layer.route(`PUT /${collection}/:${param}`, {
      handler: (previous) => async (request, reply) => {
        const id = (request.params as Record<string, string>)[param] ?? '';
        const kept = layer.ctx.records.get(collection, keyOf([id]));
        if (!kept || !posted.has(`${collection} ${keyOf([id])}`)) return previous(request, reply);
        return kept;
      },
    });
}

/** GET /orders leaves out every order that was written more than once (its index is kept at the first write). */
function listOmitsUpdated(layer: FaultLayer): void {
  const writes = new Map<string, number>();
  layer.route('PUT /orders/:orderId', {
    answer: (payload, request) => {
      const id = (request.params as Record<string, string>).orderId ?? '';
      writes.set(id, (writes.get(id) ?? 0) + 1);
      return payload;
    },
  });
  layer.route('GET /orders', {
    answer: (payload) =>
      Array.isArray(payload) ? payload.filter((o) => !isObject(o) || (writes.get(String(o.id)) ?? 0) < 2) : payload,
  });
}

/** DELETE /orders/{orderId} removes the order from its GET by id; GET /orders keeps listing it as it was. */
function listKeepsDeleted(layer: FaultLayer, store: RecordStore): void {
  const removed = new Map<string, JsonObject>();
  layer.route('DELETE /orders/:orderId', {
    preHandler: (request) => {
      const id = (request.params as Record<string, string>).orderId ?? '';
      const order = store.get('orders', keyOf([id]));
      if (order) removed.set(id, order);
    },
  });
  layer.route('PUT /orders/:orderId', {
    preHandler: (request) => removed.delete((request.params as Record<string, string>).orderId ?? ''),
  });
  layer.route('GET /orders', {
    answer: (payload) => (Array.isArray(payload) ? [...payload, ...removed.values()] : payload),
  });
}

/** A DELETE of a record answers success every time, but only the first DELETE of a path removes it. */
function secondDeleteIgnored(layer: FaultLayer, store: RecordStore): void {
  const deletedOnce = new Set<string>();
  layer.decorate(store, 'delete', (original) => (name: Collection, key: string) => {
    const path = `${name} ${key}`;
    if (deletedOnce.has(path)) return store.has(name, key);
    deletedOnce.add(path);
    return original(name, key);
  });
}

export const recordBends = {
  'record-child-overwrites-parent': childOverParent,
  'record-ids-fold-case': foldCase,
  'record-posted-not-updated': postedNotUpdated,
  'record-list-omits-updated': listOmitsUpdated,
  'record-list-keeps-deleted': (layer) => listKeepsDeleted(layer, layer.ctx.records),
  'record-second-delete-ignored': (layer) => secondDeleteIgnored(layer, layer.ctx.records),
} satisfies Partial<Record<FaultName, Bend>>;
