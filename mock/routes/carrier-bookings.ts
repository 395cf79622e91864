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
import { pathParams } from './params.ts';

function transportOrderIds(ctx: MockContext, bookingId: string): string[] {
  return ctx.records.where('transportOrders', 'bookingId', bookingId).map((t) => String(t.id));
}

/** A carrier booking names its transport orders, so a client can find them. */
function withTransportOrders(ctx: MockContext, booking: JsonObject): JsonObject {
  return { ...booking, transportOrderIds: transportOrderIds(ctx, String(booking.id)) };
}

function eventsOf(ctx: MockContext, bookingId: string, transportOrderId: string): JsonObject[] {
  return ctx.records
    .where('carrierBookingEvents', 'bookingId', bookingId)
    .filter((e) => e.transportOrderId === transportOrderId);
}

export const listCarrierBookings: HandlerFactory = (ctx) => async () =>
  ctx.records.list('carrierBookings').map((b) => withTransportOrders(ctx, b));

export const getCarrierBooking: HandlerFactory = (ctx, params) => async (request) =>
  withTransportOrders(ctx, existing(ctx, 'carrierBookings', pathParams(request, params)));

function decisionOf(body: JsonObject): 'ACCEPTED' | 'REJECTED' {
  const said = [body.status, body.decision, body.acceptance].filter((v) => typeof v === 'string').join(' ');
  return body.accepted === false || /reject|declin/i.test(said) ? 'REJECTED' : 'ACCEPTED';
}

function updateBooking(ctx: MockContext, bookingId: string, change: (b: JsonObject) => JsonObject): JsonObject {
  const next = change(existing(ctx, 'carrierBookings', [bookingId]));
  return withTransportOrders(ctx, ctx.records.put('carrierBookings', keyOf([bookingId]), next));
}

export const putAcceptance: HandlerFactory = (ctx, params) => async (request) => {
  const body = requireObjectBody(request.body);
  const [bookingId = ''] = pathParams(request, params);
  return updateBooking(ctx, bookingId, (b) => ({
    ...b,
    acceptance: body,
    status: decisionOf(body),
    decidedAt: new Date().toISOString(),
  }));
};

export const putAcknowledge: HandlerFactory = (ctx, params) => async (request) => {
  const body = requireObjectBody(request.body);
  const [bookingId = ''] = pathParams(request, params);
  return updateBooking(ctx, bookingId, (b) => ({
    ...b,
    ...(Object.keys(body).length > 0 ? { acknowledgement: body } : {}),
    acknowledged: true,
    acknowledgedAt: new Date().toISOString(),
  }));
};

export const getTransportOrder: HandlerFactory = (ctx, params) => async (request) => {
  const [bookingId = '', transportOrderId = ''] = pathParams(request, params);
  const order = existing(ctx, 'transportOrders', [bookingId, transportOrderId]);
  return { ...order, events: eventsOf(ctx, bookingId, transportOrderId) };
};

export const deleteTransportOrder: HandlerFactory = (ctx, params) => async (request) => {
  const [bookingId = '', transportOrderId = ''] = pathParams(request, params);
  const order = existing(ctx, 'transportOrders', [bookingId, transportOrderId]);
  ctx.records.put('transportOrders', keyOf([bookingId, transportOrderId]), {
    ...markCanceled(order),
    status: 'CANCELLED',
  });
  const cancelledEvents = ctx.records.updateWhere(
    'carrierBookingEvents',
    (e) => e.bookingId === bookingId && e.transportOrderId === transportOrderId,
    markCanceled,
  );
  return { success: true, id: transportOrderId, cancelledEvents };
};

const statusAfter: Record<string, string> = {
  arrivedAtPickup: 'AT_PICKUP',
  pickup: 'PICKED_UP',
  gateIn: 'GATED_IN',
  arrivedAtDelivery: 'AT_DELIVERY',
  delivery: 'DELIVERED',
  gateOut: 'GATED_OUT',
  exceptionFlag: 'EXCEPTION',
};

function touchTransportOrder(ctx: MockContext, bookingId: string, transportOrderId: string, milestone: string): void {
  const key = keyOf([bookingId, transportOrderId]);
  const order = ctx.records.get('transportOrders', key) ?? {
    id: transportOrderId,
    bookingId,
    status: 'ASSIGNED',
    canceled: false,
  };
  ctx.records.put('transportOrders', key, {
    ...order,
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
    const [bookingId = '', transportOrderId = '', ...rest] = values;
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
