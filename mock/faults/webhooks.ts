/**
 * Webhook faults (spec 6, webhook-faults.ts): the hub's envelope and its deliveries bent, the triggers untouched.
 * `emit` is told which trigger rule fired, so a fault can drop one rule's deliveries.
 */
import { isObject } from '../json.ts';
import type { WebhookFaultName } from '../webhook-faults.ts';
import type { Bend } from './layer.ts';

export const webhookBends = {
  'webhook-envelope-invalid': (layer) =>
    layer.decorate(layer.ctx.webhooks, 'envelope', () => (type, payload) => ({ eventType: type, data: payload })),
  // Only the booking id and carrier, not the full Booking entity.
  'webhook-booking-partial': (layer) =>
    layer.decorate(
      layer.ctx.webhooks,
      'emit',
      (emit) => (type, payload, trigger) =>
        emit(
          type,
          type === 'BOOKING' && isObject(payload) ? { id: payload.id, carrierId: payload.carrierId } : payload,
          trigger,
        ),
    ),
  // Rule 2: an update to a booking already allocated to a carrier.
  'webhook-booking-update-missing': (layer) =>
    layer.decorate(layer.ctx.webhooks, 'emit', (emit) => (type, payload, trigger) => {
      if (trigger !== 'booking-updated') emit(type, payload, trigger);
    }),
  // Rule 3: a booking event created or updated.
  'webhook-fact-missing': (layer) =>
    layer.decorate(layer.ctx.webhooks, 'emit', (emit) => (type, payload, trigger) => {
      if (type !== 'FACT') emit(type, payload, trigger);
    }),
} satisfies Record<WebhookFaultName, Bend>;
