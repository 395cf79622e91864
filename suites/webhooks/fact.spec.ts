/**
 * FACT webhooks (spec 6 rule 3): creating or updating a booking event through
 * this interface fires FACT. The payload fields are not shown, so only the
 * firing (and, where the envelope names it, the type) is judged.
 */
import { operationById } from '../../specs/contract.ts';
import { checkTest, test } from '../lib/index.ts';
import {
  deadlineMs,
  deliveriesAbout,
  nextDeliveryAbout,
  putBooking,
  putBookingEvent,
  typeIsOrUnjudged,
  withReceiver,
} from './receiving.ts';

test(
  ...checkTest(
    {
      check: 'webhook-fact',
      operation: operationById('upsertBookingEvent'),
      title: 'creating and updating a booking event fires FACT',
      writes: true,
    },
    (ctx) =>
      withReceiver(ctx, async (ctx) => {
        const bookingId = ctx.newId('booking');
        // Not allocated: no BOOKING is due, so every delivery about the event is the event's own.
        await putBooking(ctx, bookingId, { reference: ctx.newId('ref') });
        const eventId = ctx.newId('event');
        for (const [step, body] of [
          ['creating', { event: 'ARRIVED_AT_PICKUP', occurredAt: '2026-01-05T08:10:00Z' }],
          ['updating', { event: 'ARRIVED_AT_PICKUP', occurredAt: '2026-01-05T08:12:00Z' }],
        ] as const) {
          const before = deliveriesAbout(ctx, eventId).length;
          const x = await putBookingEvent(ctx, bookingId, eventId, body);
          const d = await nextDeliveryAbout(ctx, eventId, before);
          if (!d)
            return ctx.check.fail(
              `no webhook about booking event ${eventId} arrived within ${deadlineMs()} ms of ${step} it through the interface; FACT fires when a booking event is created or updated (spec 6 rule 3)`,
              { exchanges: [x] },
            );
          if (!typeIsOrUnjudged(d, 'FACT'))
            ctx.check.fail(`${step} booking event ${eventId} fired a ${d.type} webhook, not FACT (spec 6 rule 3)`, {
              exchanges: [x],
            });
        }
      }),
  ),
);
