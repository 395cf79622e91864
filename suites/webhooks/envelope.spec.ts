/**
 * webhook-envelope (spec 6): every delivery is a JSON envelope with a payload
 * and one of the 8 types (schemas/webhook-envelope.schema.json), and a BOOKING
 * payload is an object. Judged on the deliveries caused by allocating a
 * booking and creating one of its events; headers, signing and retries are
 * not shown and not judged.
 *
 * Advisory: spec 6 says each webhook carries a payload and has a type, and
 * names the types, but not the field names of the body (nor whether the type
 * travels in a header, which is not shown either). The {type, payload} shape
 * is the convention this project checks, not a sentence of the spec.
 */
import { checkTest, test, skip } from '../lib/index.ts';
import { allocatedBooking, concerns, deadlineMs, putBooking, putBookingEvent, withReceiver } from './receiving.ts';

test(
  ...checkTest(
    {
      check: 'webhook-envelope',
      title: 'every delivery is an envelope with a type and a payload',
      writes: true,
    },
    (ctx) =>
      withReceiver(ctx, async (ctx) => {
        const bookingId = ctx.newId('booking');
        const eventId = ctx.newId('event');
        await putBooking(ctx, bookingId, allocatedBooking(ctx));
        await putBookingEvent(ctx, bookingId, eventId, { event: 'LOADED', occurredAt: '2026-01-05T09:00:00Z' });
        await ctx.receiver.waitFor(concerns(eventId), deadlineMs());
        const ours = ctx.receiver.deliveries.filter((d) => concerns(bookingId)(d) || concerns(eventId)(d));
        if (ours.length === 0)
          skip.nothingToJudge(ctx, 'no webhook arrived to judge (the trigger checks say which one is missing)');
        const bad = ours.filter((d) => d.violations.length > 0);
        const first = bad[0];
        if (first) {
          const lines = bad.flatMap((d) => d.violations.map((v) => `delivery #${d.seq}: ${v.message}`));
          ctx.check.fail(
            `${bad.length} of ${ours.length} webhook deliveries break the envelope of spec 6:\n    ${lines.slice(0, 10).join('\n    ')}\n    first body: ${first.text.slice(0, 500)}`,
            { pointer: first.violations[0]?.pointer ?? '' },
          );
        }
      }),
  ),
);
