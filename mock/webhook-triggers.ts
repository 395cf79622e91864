/**
 * When the mock fires webhooks (spec 6 trigger rules), decided after a write
 * through the interface has been answered with a 2xx:
 *
 * - BOOKING (rules 1 and 2): a booking written by PUT /bookings/{id} (or the
 *   deprecated POST /bookings) that is allocated to a carrier after the write,
 *   i.e. carries a non-empty `carrierId`: allocating it fires, and so does any
 *   update while it stays allocated. The payload is the full booking as the
 *   write answered it. The mock treats writes through this interface as
 *   changes in the enterprise environment; the spec does not say otherwise.
 * - FACT (rule 3): a booking event created or updated through the interface
 *   (PUT /bookings/{id}/events/{eventId}, the deprecated POST), and a milestone
 *   event a carrier reports on a transport order. The payload is the event.
 *
 * Other types (fuel, invoice, billing group details) have no trigger the
 * interface can cause in the mock; their payload fields are not shown.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MockContext } from './context.ts';
import { isObject, type JsonObject } from './json.ts';
import { keyOf } from './store.ts';
import type { WebhookTrigger, WebhookType } from './webhook-hub.ts';

const P = '/apis/v0';
const BOOKING_WRITES = new Set([`PUT ${P}/bookings/:bookingId`, `POST ${P}/bookings`]);
const EVENT_WRITES = new Set([`PUT ${P}/bookings/:bookingId/events/:eventId`, `POST ${P}/bookings/:bookingId/events`]);
const MILESTONE_PREFIX = `PUT ${P}/carrierBookings/:bookingId/transportOrder/:transportOrderId/`;

function routeKey(request: FastifyRequest): string {
  return `${request.method} ${request.routeOptions.url ?? ''}`;
}

export function isAllocated(booking: unknown): boolean {
  return isObject(booking) && typeof booking.carrierId === 'string' && booking.carrierId !== '';
}

function parsed(payload: unknown): unknown {
  if (typeof payload !== 'string') return undefined;
  try {
    return JSON.parse(payload) as unknown;
  } catch {
    return undefined;
  }
}

/** The webhook one answered write causes, if any. */
function triggered(
  key: string,
  body: unknown,
  allocatedBefore: boolean,
): { type: WebhookType; payload: JsonObject; trigger: WebhookTrigger } | undefined {
  if (BOOKING_WRITES.has(key) && isObject(body) && isAllocated(body))
    return { type: 'BOOKING', payload: body, trigger: allocatedBefore ? 'booking-updated' : 'booking-allocated' };
  if ((EVENT_WRITES.has(key) || key.startsWith(MILESTONE_PREFIX)) && isObject(body))
    return { type: 'FACT', payload: body, trigger: 'fact' };
  return undefined;
}

export function installWebhookTriggers(app: FastifyInstance, ctx: MockContext): void {
  // Whether the booking was allocated before this write: rule 1 (allocation) and rule 2 (update while allocated) differ only in that.
  const allocatedBefore = new WeakMap<FastifyRequest, boolean>();
  app.addHook('preHandler', async (request) => {
    if (routeKey(request) !== `PUT ${P}/bookings/:bookingId`) return;
    const id = (request.params as { bookingId?: string }).bookingId ?? '';
    allocatedBefore.set(request, isAllocated(ctx.records.get('bookings', keyOf([id]))));
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.statusCode < 200 || reply.statusCode > 299) return payload;
    const hook = triggered(routeKey(request), parsed(payload), allocatedBefore.get(request) ?? false);
    if (hook) ctx.webhooks.emit(hook.type, hook.payload, hook.trigger);
    return payload;
  });
}
