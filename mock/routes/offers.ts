/**
 * Offers (spec 4.1): asynchronous upserts acknowledged with a batchId, reads
 * that answer arrays of Offer. Fault switches that bend offer behaviour live
 * here, next to the behaviour they bend.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SchemaName, SchemaViolation } from '../../schemas/registry.ts';
import type { MockContext } from '../context.ts';
import { HttpError, isBadBodyError, notFound } from '../errors.ts';
import { asObject, clone, isObject, type JsonObject } from '../json.ts';
import { applyWrite, createOffer, type Offer } from '../offer-model.ts';
import type { OfferMutation, OfferWrite } from '../offers-store.ts';
import { withUtcOffset } from '../formats.ts';
import { dateTimeParam } from '../query.ts';
import { leniently } from '../lenient.ts';
import { requireValid } from '../validation.ts';
import { emptyList } from '../lists.ts';
import { inWindow, offerAckStatus } from '../variant.ts';
import { pathParam } from './params.ts';

function presentOffer(ctx: MockContext, offer: Offer): JsonObject {
  const out: JsonObject = { ...offer };
  if (ctx.faults.has('offer-quantity-as-string')) out.quantity = String(offer.quantity);
  if (ctx.faults.has('offer-unknown-price-strategy')) out.priceStrategy = 'Dynamic';
  if (ctx.faults.has('offer-timestamp-not-utc') && typeof offer.transportTimestamp === 'string')
    out.transportTimestamp = withUtcOffset(offer.transportTimestamp, 120);
  if (ctx.faults.has('offer-readback-field-wrong')) out.offerVersion = `${offer.offerVersion}.0`;
  return out;
}

/** The Offer response types properties as a key-value store (spec 2.2); anything else could not be read back as written. */
function propertiesViolation(body: unknown, pointer: string): SchemaViolation[] {
  const offer = asObject(asObject(body).offer);
  if (!('properties' in offer) || offer.properties === null || isObject(offer.properties)) return [];
  return [
    {
      pointer: `${pointer}/offer/properties`,
      schemaPath: 'offer.schema.json#/properties/properties/type',
      message: 'must be object or null',
    },
  ];
}

function extraViolations(schema: SchemaName, body: unknown): SchemaViolation[] {
  if (schema === 'offer-write') return propertiesViolation(body, '');
  return Array.isArray(body) ? body.flatMap((item, i) => propertiesViolation(item, `/${i}`)) : [];
}

/** The body the route goes on with: validated (400 otherwise), or read leniently by the lenient variant. */
function checkWriteBody(ctx: MockContext, schema: SchemaName, body: unknown): unknown {
  if (ctx.faults.has('invalid-body-accepted')) return body;
  if (ctx.variant.lenientInput) return leniently(schema, body, (b) => extraViolations(schema, b));
  requireValid(schema, body, extraViolations(schema, body));
  return body;
}

/** The price-strategy-stored fault: a priceStrategy sent in a write (not a field of spec 2.3) is stored as is. */
function storeWrittenPriceStrategy(ctx: MockContext, offer: Offer | undefined, body: unknown): Offer | undefined {
  const written = asObject(asObject(body).offer).priceStrategy;
  if (!offer || !ctx.faults.has('price-strategy-stored') || typeof written !== 'string') return offer;
  return { ...offer, priceStrategy: written as Offer['priceStrategy'] };
}

function upsert(ctx: MockContext, offerId: string, body: unknown, inBulk = false): OfferWrite {
  const opts = {
    // Each fault bends one kind of write, so each is caught by the one check that writes that way.
    ignoreCancel: ctx.faults.has(inBulk ? 'bulk-cancel-ignored' : 'cancel-flag-ignored'),
    ignoreSettled: !inBulk && ctx.faults.has('settled-ignored'),
    sortReferences: ctx.faults.has('references-sorted'),
    dropTimestampOffset: ctx.faults.has('timestamp-offset-dropped'),
  };
  const write: OfferMutation = (existing) => {
    if (!existing) return createOffer(offerId, body, ctx.directory, opts);
    if (ctx.faults.has('update-not-applied')) return existing;
    updatedOffers(ctx).add(offerId);
    const next = applyWrite(existing, body, ctx.directory, opts);
    keepVersion(ctx, existing, next);
    return next;
  };
  const mutate: OfferMutation = (existing) => storeWrittenPriceStrategy(ctx, write(existing), body);
  const bookingId = asObject(asObject(body).offer).bookingId;
  return { offerId, operation: 'UPSERT', mutate, bookingId: typeof bookingId === 'string' ? bookingId : undefined };
}

/** The offerVersion-answering variant: each offer's earlier versions, oldest first (one list per mock). */
const earlierVersions = new WeakMap<MockContext, Map<string, Offer[]>>();
function versionsOf(ctx: MockContext): Map<string, Offer[]> {
  let byId = earlierVersions.get(ctx);
  if (!byId) earlierVersions.set(ctx, (byId = new Map()));
  return byId;
}

/** A write that changes offerVersion keeps the offer as it was, for a variant that answers every version. */
function keepVersion(ctx: MockContext, existing: Offer, next: Offer): void {
  if (!ctx.variant.offerVersionsAnswered || existing.offerVersion === next.offerVersion) return;
  const byId = versionsOf(ctx);
  byId.set(existing.id, [...(byId.get(existing.id) ?? []), clone(existing)]);
}

/** The offers updated since their creation, for the delete-after-update-ignored fault (one set per mock). */
const updatedSinceCreated = new WeakMap<MockContext, Set<string>>();
function updatedOffers(ctx: MockContext): Set<string> {
  let ids = updatedSinceCreated.get(ctx);
  if (!ids) updatedSinceCreated.set(ctx, (ids = new Set()));
  return ids;
}

function cancel(ctx: MockContext, offerId: string): OfferWrite {
  // delete-after-update-ignored: only a sequence (an update, then a DELETE) meets it; offer-cancel deletes fresh offers.
  const ignored = () =>
    ctx.faults.has('delete-not-cancel') ||
    (ctx.faults.has('delete-after-update-ignored') && updatedOffers(ctx).has(offerId));
  const mutate: OfferMutation = (existing) => (existing && !ignored() ? { ...existing, canceled: true } : existing);
  return { offerId, operation: 'CANCEL', mutate };
}

/** The bulk-items-mixed fault: the first two items trade contents but keep their ids. */
function mixFirstTwo(items: JsonObject[]): JsonObject[] {
  const [a, b, ...rest] = items;
  if (!a || !b) return items;
  return [{ ...b, id: a.id }, { ...a, id: b.id }, ...rest];
}

function bulkWrites(ctx: MockContext, body: unknown): OfferWrite[] {
  let items = (Array.isArray(body) ? body : []).map(asObject);
  if (ctx.faults.has('bulk-items-mixed')) items = mixFirstTwo(items);
  const writes = items.map((item) =>
    upsert(ctx, typeof item.id === 'string' ? item.id : ctx.ids.next('offer'), item, true),
  );
  const last = writes.at(-1);
  if (ctx.faults.has('bulk-item-dropped') && last && writes.length >= 2) last.mutate = (existing) => existing;
  return writes;
}

const WIDENED_MS = 12 * 3_600_000;

/** The instant GET /offers?start&end filters an offer on: its transportTimestamp, or (a variant) its write time. */
function windowedAt(ctx: MockContext, o: Offer): number {
  return ctx.variant.offerWindowOn === 'written'
    ? (ctx.offers.lastWrittenAt(o.id) ?? Date.parse(o.transportTimestamp))
    : Date.parse(o.transportTimestamp);
}

function listOffers(ctx: MockContext) {
  return async (request: FastifyRequest) => {
    const widen = ctx.faults.has('offer-window-widened') ? WIDENED_MS : 0;
    const start = dateTimeParam(request, 'start');
    const end = dateTimeParam(request, 'end');
    const halfOpen = (start === undefined) !== (end === undefined);
    if (halfOpen && ctx.faults.has('half-open-window-500')) throw new HttpError(500, 'INTERNAL', 'internal error');
    if (ctx.variant.offerListNeedsWindow && (start === undefined || end === undefined))
      throw new HttpError(400, 'INVALID_QUERY', 'GET /offers needs both start and end');
    const listedOffer = (o: Offer): boolean => ctx.variant.listsCancelledOffers !== false || !o.canceled;
    const listed = ctx.offers
      .list()
      .filter(
        (o) =>
          listedOffer(o) &&
          (ctx.faults.has('offer-window-ignored') ||
            inWindow(
              ctx.variant,
              windowedAt(ctx, o),
              start === undefined ? start : start - widen,
              end === undefined ? end : end + widen,
            )),
      );
    return emptyList(
      ctx,
      listed.map((o) => presentOffer(ctx, o)),
    );
  };
}

/** The offer-get-wrong fault: the offer stored after the one asked for (the first after the last), with its own id. */
function answeredOffer(ctx: MockContext, offer: Offer): Offer {
  if (!ctx.faults.has('offer-get-wrong')) return offer;
  const all = ctx.offers.list();
  return all[(all.findIndex((o) => o.id === offer.id) + 1) % all.length] ?? offer;
}

function getOffer(ctx: MockContext) {
  return async (request: FastifyRequest) => {
    const offer = ctx.offers.get(pathParam(request, 'offerId'));
    if (!offer) throw notFound('offer');
    // An array of Offer (spec 4.1): the current offer, after its earlier versions for the variant that keeps them.
    const answered = answeredOffer(ctx, offer);
    const earlier = ctx.variant.offerVersionsAnswered ? (versionsOf(ctx).get(answered.id) ?? []) : [];
    return [...earlier, answered].map((o) => presentOffer(ctx, o));
  };
}

function createOfferRoute(ctx: MockContext) {
  // offer-create-id-reused: every POST after the first answers (and overwrites) the first POST's offer id.
  let reused: string | undefined;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const body = checkWriteBody(ctx, 'offer-write', request.body);
    const fresh = ctx.ids.next('offer');
    const id = ctx.faults.has('offer-create-id-reused') ? (reused ??= fresh) : fresh;
    const batchId = ctx.ids.next('batch');
    const write = upsert(ctx, id, body);
    // A create replaces what the reused id held, so each POST still reads back as written: only the first is lost.
    const create = write.mutate;
    if (id !== fresh) write.mutate = () => create(undefined);
    ctx.offers.submit(batchId, [write]);
    return reply.code(ctx.variant.createdStatus).send({ batchId, id });
  };
}

function upsertOfferRoute(ctx: MockContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const body = checkWriteBody(ctx, 'offer-write', request.body);
    const batchId = ctx.ids.next('batch');
    ctx.offers.submit(batchId, [upsert(ctx, pathParam(request, 'offerId'), body)]);
    return reply.code(offerAckStatus(ctx.variant)).send(ctx.faults.has('ack-missing-batch-id') ? {} : { batchId });
  };
}

/** The offer-delete-cancels-booking fault: the other offers of the deleted offer's booking, cancelled with it. */
function bookingNeighbours(ctx: MockContext, offerId: string): string[] {
  if (!ctx.faults.has('offer-delete-cancels-booking')) return [];
  const bookingId = ctx.offers.get(offerId)?.bookingId;
  if (bookingId === undefined) return [];
  return ctx.offers
    .list()
    .filter((o) => o.bookingId === bookingId && o.id !== offerId)
    .map((o) => o.id);
}

function deleteOfferRoute(ctx: MockContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const offerId = pathParam(request, 'offerId');
    if (!ctx.offers.isKnown(offerId)) throw notFound('offer');
    const batchId = ctx.ids.next('batch');
    ctx.offers.submit(batchId, [cancel(ctx, offerId), ...bookingNeighbours(ctx, offerId).map((id) => cancel(ctx, id))]);
    return reply.code(offerAckStatus(ctx.variant)).send({ batchId });
  };
}

function bulkOfferRoute(ctx: MockContext) {
  // bulk-batch-id-reused: every bulk after the first answers the first one's batchId (and files its writes under it).
  let firstBatchId: string | undefined;
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const body = checkWriteBody(ctx, 'offer-bulk', request.body);
    const max = ctx.variant.maxBulkItems;
    if (max > 0 && Array.isArray(body) && body.length > max)
      throw new HttpError(413, 'BULK_TOO_LARGE', `a bulk takes at most ${max} items; this one has ${body.length}`);
    const fresh = ctx.ids.next('batch');
    const batchId = ctx.faults.has('bulk-batch-id-reused') ? (firstBatchId ??= fresh) : fresh;
    ctx.offers.submit(batchId, bulkWrites(ctx, body));
    return reply.code(offerAckStatus(ctx.variant)).send({ success: true, batchId });
  };
}

/** The bad-input-500 fault: errors caused by the body surface as a server error, as a careless service would. */
function installBadInput500(app: FastifyInstance, ctx: MockContext): void {
  if (!ctx.faults.has('bad-input-500')) return;
  app.setErrorHandler((err, request) => {
    const isWrite = request.method === 'POST' || request.method === 'PUT';
    if (isWrite && isBadBodyError(err)) throw new HttpError(500, 'INTERNAL', 'internal error');
    throw err;
  });
}

export function offerRoutes(ctx: MockContext) {
  return async (app: FastifyInstance): Promise<void> => {
    installBadInput500(app, ctx);
    app.get('/offers', listOffers(ctx));
    app.post('/offers', createOfferRoute(ctx));
    app.get('/offers/:offerId', getOffer(ctx));
    app.put('/offers/:offerId', upsertOfferRoute(ctx));
    app.delete('/offers/:offerId', deleteOfferRoute(ctx));
    app.post('/offers/bulk', bulkOfferRoute(ctx));
  };
}
