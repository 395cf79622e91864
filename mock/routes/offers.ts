/**
 * Offers (spec 4.1): asynchronous upserts acknowledged with a batchId, reads
 * that answer arrays of Offer. The list and the three writes are written in
 * two steps (steps.ts): what the request asks, then the answer.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SchemaName, SchemaViolation } from '../../schemas/registry.ts';
import type { MockContext } from '../context.ts';
import { HttpError, notFound } from '../errors.ts';
import { asObject, clone, isObject } from '../json.ts';
import { applyWrite, createOffer, type Offer } from '../offer-model.ts';
import type { OfferMutation, OfferWrite } from '../offers-store.ts';
import { dateTimeParam } from '../query.ts';
import { leniently } from '../lenient.ts';
import { requireValid } from '../validation.ts';
import { inWindow, offerAckStatus } from '../variant.ts';
import { pathParam } from './params.ts';
import { stepsHandler, type Steps } from './steps.ts';

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
  // Whether a server reads bad input leniently is its own (spec 5 rule 3 binds the client; the default refuses it).
  // Stryker disable next-line ConditionalExpression: spec 5 rule 3 binds the client, so refusing or reading bad input is the server's choice
  if (ctx.variant.lenientInput) return leniently(schema, body, (b) => extraViolations(schema, b));
  requireValid(schema, body, extraViolations(schema, body));
  return body;
}

/** A fresh offer id; the kind only shapes the mock's id format. */
function newOfferId(ctx: MockContext): string {
  // Stryker disable next-line StringLiteral: spec 2 identifiers are strings: the kind only shapes the id
  return ctx.ids.next('offer');
}

/** A fresh batchId; the kind only shapes the mock's id format. */
function newBatchId(ctx: MockContext): string {
  // Stryker disable next-line StringLiteral: spec 2 identifiers are strings: the kind only shapes the id
  return ctx.ids.next('batch');
}

function upsert(ctx: MockContext, offerId: string, body: unknown): OfferWrite {
  const mutate: OfferMutation = (existing) => {
    if (!existing) return createOffer(offerId, body, ctx.directory);
    const next = applyWrite(existing, body, ctx.directory);
    keepVersion(ctx, existing, next);
    return next;
  };
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
  // Which earlier versions GET /offers/{offerId} answers beside the current offer is the server's: spec 4.1 says "array
  // of Offer" and not why (the default answers none).
  // Stryker disable next-line BooleanLiteral, ConditionalExpression, LogicalOperator, EqualityOperator: spec 4.1 what the array of an offer's GET holds besides the offer is not shown
  if (!ctx.variant.offerVersionsAnswered || existing.offerVersion === next.offerVersion) return;
  const byId = versionsOf(ctx);
  const earlier = byId.get(existing.id) ?? [];
  // Stryker disable next-line ArrayDeclaration: spec 4.1 what the array of an offer's GET holds besides the offer is not shown
  byId.set(existing.id, [...earlier, clone(existing)]);
}

function cancel(offerId: string): OfferWrite {
  const mutate: OfferMutation = (existing) => (existing ? { ...existing, canceled: true } : existing);
  return { offerId, operation: 'CANCEL', mutate };
}

function bulkWrites(ctx: MockContext, body: unknown): OfferWrite[] {
  const items = (Array.isArray(body) ? body : []).map(asObject);
  return items.map((item) => upsert(ctx, typeof item.id === 'string' ? item.id : newOfferId(ctx), item));
}

/** The instant GET /offers?start&end filters an offer on: its transportTimestamp, or (a variant) its write time. */
function windowedAt(ctx: MockContext, o: Offer): number {
  // Stryker disable next-line EqualityOperator, ConditionalExpression, StringLiteral: spec 4.3 which timestamp start and end filter on is not shown
  return ctx.variant.offerWindowOn === 'written'
    ? // Stryker disable next-line LogicalOperator: spec 4.3 which timestamp start and end filter on is not shown
      (ctx.offers.lastWrittenAt(o.id) ?? Date.parse(o.transportTimestamp))
    : Date.parse(o.transportTimestamp);
}

/** The window GET /offers asks for, in epoch milliseconds; either end may be open. */
export interface OfferWindow {
  start: number | undefined;
  end: number | undefined;
}

export const offerList: Steps<OfferWindow, Offer[]> = {
  read(ctx, request) {
    const start = dateTimeParam(request, 'start');
    const end = dateTimeParam(request, 'end');
    // Whether start and end are required is not shown (spec 4.1): refusing a list without them, or not, is fair.
    // Stryker disable next-line LogicalOperator: spec 4.1 whether start and end are required is not shown
    if (ctx.variant.offerListNeedsWindow && (start === undefined || end === undefined))
      // Stryker disable next-line StringLiteral, CallExpression: spec 7 error codes and bodies not shown, spec 4.1 whether start and end are required is not shown
      throw new HttpError(400, 'INVALID_QUERY', 'GET /offers needs both start and end');
    return { start, end };
  },
  answer(ctx, { start, end }) {
    // Stryker disable next-line LogicalOperator, EqualityOperator: spec 4.1 does not say whether a listing shows cancelled offers
    const listedOffer = (o: Offer): boolean => ctx.variant.listsCancelledOffers !== false || !o.canceled;
    return ctx.offers.list().filter((o) => listedOffer(o) && inWindow(ctx.variant, windowedAt(ctx, o), start, end));
  },
};

function getOffer(ctx: MockContext) {
  return async (request: FastifyRequest) => {
    const offer = ctx.offers.get(pathParam(request, 'offerId'));
    // Stryker disable next-line StringLiteral: spec 7 error codes and bodies not shown
    if (!offer) throw notFound('offer');
    // An array of Offer (spec 4.1): the current offer, after its earlier versions for the variant that keeps them.
    const earlier = ctx.variant.offerVersionsAnswered ? (versionsOf(ctx).get(offer.id) ?? []) : [];
    return [...earlier, offer];
  };
}

/** The three offer writes read their body the same way: what they ask is the body they go on with. */
function writeBody(schema: SchemaName) {
  return (ctx: MockContext, request: FastifyRequest): unknown => checkWriteBody(ctx, schema, request.body);
}

export const offerCreate: Steps<unknown, FastifyReply> = {
  read: writeBody('offer-write'),
  answer(ctx, body, _request, reply) {
    const id = newOfferId(ctx);
    const batchId = newBatchId(ctx);
    ctx.offers.submit(batchId, [upsert(ctx, id, body)]);
    return reply.code(ctx.variant.createdStatus).send({ batchId, id });
  },
};

export const offerUpsert: Steps<unknown, FastifyReply> = {
  read: writeBody('offer-write'),
  answer(ctx, body, request, reply) {
    const batchId = newBatchId(ctx);
    ctx.offers.submit(batchId, [upsert(ctx, pathParam(request, 'offerId'), body)]);
    return reply.code(offerAckStatus(ctx.variant)).send({ batchId });
  },
};

export const offerBulk: Steps<unknown, FastifyReply> = {
  read: writeBody('offer-bulk'),
  answer(ctx, body, _request, reply) {
    const max = ctx.variant.maxBulkItems;
    if (max > 0 && Array.isArray(body) && body.length > max)
      // Stryker disable next-line StringLiteral: spec 7 error codes and bodies not shown
      throw new HttpError(413, 'BULK_TOO_LARGE', `a bulk takes at most ${max} items; this one has ${body.length}`);
    const batchId = newBatchId(ctx);
    ctx.offers.submit(batchId, bulkWrites(ctx, body));
    return reply.code(offerAckStatus(ctx.variant)).send({ success: true, batchId });
  },
};

function deleteOfferRoute(ctx: MockContext) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const offerId = pathParam(request, 'offerId');
    // Stryker disable next-line StringLiteral: spec 7 error codes and bodies not shown
    if (!ctx.offers.isKnown(offerId)) throw notFound('offer');
    const batchId = newBatchId(ctx);
    ctx.offers.submit(batchId, [cancel(offerId)]);
    return reply.code(offerAckStatus(ctx.variant)).send({ batchId });
  };
}

export function offerRoutes(ctx: MockContext) {
  return async (app: FastifyInstance): Promise<void> => {
    app.get('/offers', stepsHandler(ctx, offerList));
    app.post('/offers', stepsHandler(ctx, offerCreate));
    app.get('/offers/:offerId', getOffer(ctx));
    app.put('/offers/:offerId', stepsHandler(ctx, offerUpsert));
    app.delete('/offers/:offerId', deleteOfferRoute(ctx));
    app.post('/offers/bulk', stepsHandler(ctx, offerBulk));
  };
}
