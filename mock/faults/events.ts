/**
 * Faults of cancelling events (spec 3 rule 5): a DELETE that removes instead of marking, that leaves the events it
 * names as they were, or that reaches events it does not name.
 */
import type { FaultName } from '../faults.ts';
import { keyOf } from '../store.ts';
import { existing, markCanceled, remove } from '../routes/catalogue-handlers.ts';
import { pathParams } from '../routes/params.ts';
import type { Bend, Handler, RouteKey } from './layer.ts';

const EVENT: RouteKey = 'DELETE /bookings/:bookingId/events/:eventId';
const EVENT_PARAMS = ['bookingId', 'eventId'] as const;
const ORDER: RouteKey = 'DELETE /carrierBookings/:bookingId/transportOrder/:transportOrderId';
const ORDER_PARAMS = ['bookingId', 'transportOrderId'] as const;

/** The route's own handler, then `after` with its answer. */
function thenAlso(after: (answer: unknown, values: string[]) => unknown, params: readonly string[]) {
  return (previous: Handler): Handler =>
    async (request, reply) =>
      after(await previous(request, reply), pathParams(request, params));
}

export const eventBends = {
  'booking-event-delete-removes': (layer) => {
    const removeEvent = remove('bookingEvents')(layer.ctx, EVENT_PARAMS);
    layer.route(EVENT, { handler: () => removeEvent });
  },
  'transport-order-events-not-cancelled': (layer) =>
    layer.decorate(
      layer.ctx.records,
      'updateWhere',
      (updateWhere) => (collection, match, change) =>
        collection === 'carrierBookingEvents' && layer.inRoute(ORDER) ? 0 : updateWhere(collection, match, change),
    ),
  'transport-order-delete-removes': (layer) => {
    const records = layer.ctx.records;
    const removeOrder: Handler = async (request) => {
      const [bookingId = '', transportOrderId = ''] = pathParams(request, ORDER_PARAMS);
      existing(layer.ctx, 'transportOrders', [bookingId, transportOrderId]);
      records.delete('transportOrders', keyOf([bookingId, transportOrderId]));
      const events = records.keysWhere(
        'carrierBookingEvents',
        (e) => e.bookingId === bookingId && e.transportOrderId === transportOrderId,
      );
      for (const event of events) records.delete('carrierBookingEvents', event);
      return { success: true, id: transportOrderId, cancelledEvents: events.length };
    };
    layer.route(ORDER, { handler: () => removeOrder });
  },
  // The events of every transport order of the booking, not only the deleted one's.
  'transport-order-delete-cancels-neighbours': (layer) =>
    layer.route(ORDER, {
      handler: thenAlso((answer, [bookingId, transportOrderId]) => {
        const more = layer.ctx.records.updateWhere(
          'carrierBookingEvents',
          (e) => e.bookingId === bookingId && e.transportOrderId !== transportOrderId,
          markCanceled,
        );
        const a = answer as { cancelledEvents: number };
        return { ...a, cancelledEvents: a.cancelledEvents + more };
      }, ORDER_PARAMS),
    }),
  'booking-event-delete-cancels-booking-events': (layer) =>
    layer.route(EVENT, {
      handler: thenAlso((answer, [bookingId, eventId]) => {
        layer.ctx.records.updateWhere(
          'bookingEvents',
          (r) => r.bookingId === bookingId && r.id !== eventId,
          markCanceled,
        );
        return answer;
      }, EVENT_PARAMS),
    }),
} satisfies Partial<Record<FaultName, Bend>>;
