/**
 * BOOKING webhooks (spec 6): fired when a booking is allocated to a carrier
 * (rule 1) and on an update while the carrier is allocated (rule 2), carrying
 * the full Booking entity. What the envelope looks like is webhook-envelope's
 * concern: a delivery about the booking whose envelope names no valid type
 * still counts as "fired" here.
 */
import { operationById } from '../../specs/contract.ts';
import { checkTest, is2xx, pollVisible, test, skip } from '../lib/index.ts';
import {
  allocatedBooking,
  deadlineMs,
  deliveriesAbout,
  nextDeliveryAbout,
  putBooking,
  typeIsOrUnjudged,
  withReceiver,
} from './receiving.ts';

const upsertBooking = operationById('upsertBooking');

test(
  ...checkTest(
    {
      check: 'webhook-booking-allocated',
      operation: upsertBooking,
      title: 'allocating a booking to a carrier fires BOOKING',
      writes: true,
    },
    (ctx) =>
      withReceiver(ctx, async (ctx) => {
        const id = ctx.newId('booking');
        const x = await putBooking(ctx, id, allocatedBooking(ctx));
        const d = await nextDeliveryAbout(ctx, id, 0);
        if (!d)
          return ctx.check.fail(
            `no webhook about booking ${id} arrived within ${deadlineMs()} ms of allocating it to a carrier; BOOKING fires on allocation (spec 6 rule 1)`,
            { exchanges: [x] },
          );
        if (!typeIsOrUnjudged(d, 'BOOKING'))
          ctx.check.fail(`allocating booking ${id} fired a ${d.type} webhook, not BOOKING (spec 6 rule 1)`, {
            exchanges: [x],
          });
      }),
  ),
);

test(
  ...checkTest(
    {
      check: 'webhook-booking-updated',
      operation: upsertBooking,
      title: 'an update while allocated fires BOOKING',
      writes: true,
    },
    (ctx) =>
      withReceiver(ctx, async (ctx) => {
        const id = ctx.newId('booking');
        const first = allocatedBooking(ctx);
        await putBooking(ctx, id, first);
        // Let the allocation's own webhook (rule 1) arrive first, so it is not mistaken for the update's.
        await nextDeliveryAbout(ctx, id, 0);
        const before = deliveriesAbout(ctx, id).length;
        const x = await putBooking(ctx, id, { ...first, reference: ctx.newId('ref-updated') });
        const d = await nextDeliveryAbout(ctx, id, before);
        if (!d)
          return ctx.check.fail(
            `no webhook about booking ${id} arrived within ${deadlineMs()} ms of updating it while allocated; BOOKING fires on any update while the carrier is allocated (spec 6 rule 2)`,
            { exchanges: [x] },
          );
        if (!typeIsOrUnjudged(d, 'BOOKING'))
          ctx.check.fail(`updating allocated booking ${id} fired a ${d.type} webhook, not BOOKING (spec 6 rule 2)`, {
            exchanges: [x],
          });
      }),
  ),
);

test(
  ...checkTest(
    {
      check: 'webhook-booking-payload',
      operation: upsertBooking,
      title: 'the BOOKING payload is the full Booking entity',
      writes: true,
    },
    (ctx) =>
      withReceiver(ctx, async (ctx) => {
        const id = ctx.newId('booking');
        const written = allocatedBooking(ctx, { notes: 'full-entity probe', onTime: true });
        await putBooking(ctx, id, written);
        const d = await ctx.receiver.waitFor((x) => x.type === 'BOOKING' && x.text.includes(id), deadlineMs());
        if (!d)
          skip.nothingToJudge(
            ctx,
            `no BOOKING delivery with a valid envelope about booking ${id} to judge (webhook-booking-allocated and webhook-envelope judge why)`,
          );
        // The GET may not show the write yet (spec 1: a write may take its time), and may wrap the record (spec 4.3 shows
        // no bodies): the entity is the answer, or the object in it that carries the booking's id.
        const read = (
          await pollVisible(() => ctx.api.op(operationById('getBooking'), { params: { bookingId: id } }), is2xx)
        ).value;
        ctx.check.expectSuccess(read, `GET /bookings/${id}`);
        const entity = entityIn(read.response.body, id);
        const payload = (d?.payload ?? {}) as Record<string, unknown>;
        // Spec 2.7 shows no booking fields, so "full" is judged against what the deployment itself serves and what the client wrote.
        const missing = Object.keys(entity).filter((k) => !(k in payload));
        const changed = Object.keys(written).filter((k) => JSON.stringify(payload[k]) !== JSON.stringify(written[k]));
        if (missing.length || changed.length) {
          ctx.check.fail(
            `the BOOKING payload is not the full Booking entity (spec 6): ${missing.length ? `fields GET /bookings/{bookingId} serves are missing: ${missing.join(', ')}` : ''}${missing.length && changed.length ? '; ' : ''}${changed.length ? `written fields differ or are missing: ${changed.join(', ')}` : ''}\n    payload: ${d?.text.slice(0, 800)}`,
            { exchanges: [read], pointer: '/payload' },
          );
        }
      }),
  ),
);

type Json = Record<string, unknown>;

/** The booking in a GET's answer: the answer itself, or an object it wraps that carries the booking's id. */
function entityIn(body: unknown, id: string): Json {
  const isJson = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isJson(body)) return {};
  if (body.id === id) return body;
  return Object.values(body).find((v): v is Json => isJson(v) && v.id === id) ?? body;
}
