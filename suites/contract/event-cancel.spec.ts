/**
 * event-cancel (spec 3 rule 5): "DELETE on a booking event marks the event as
 * canceled. DELETE on a carrier booking transport order marks all its events
 * as cancelled." Section 4.3 shows no record bodies, so the check judges only
 * what stays observable and passes every reasonable reading:
 * - a booking event the suite wrote, once DELETE answered 2xx, is still
 *   readable through GET (a 404 or 410 means it was removed, not marked);
 * - a record that has a boolean field whose name says cancel (canceled,
 *   cancelled, isCancelled, ...) has it true after the DELETE: the record
 *   itself then says it is not cancelled. A status-like string that names a
 *   cancellation is accepted too; a record with neither is judged on being
 *   readable alone (the test notes what it looked at);
 * - for a transport order, the events of the carrier booking that name it
 *   (its id anywhere in the event) are judged the same way after its DELETE;
 *   an event no longer listed is not judged, since a list may leave out
 *   cancelled events; but when none is listed any more, the order itself
 *   must still answer (it was marked, not removed) and the events it shows
 *   must say they are cancelled.
 * - rule 5 marks all *its* events: a second transport order of the same
 *   booking (a neighbour in the world model, suites/lib/world/) is written
 *   first, and once the deleted order's events show the DELETE, none of the
 *   neighbour's events may say it is cancelled, in the booking's event list or
 *   in the neighbour's own GET; likewise a second event of the booking once
 *   the first is deleted ("marks *the* event").
 * These are writes: skipped on read-only targets; every id carries the run id.
 */
import { operationById } from '../../specs/contract.ts';
import {
  type Exchange,
  is2xx,
  checkTest,
  test,
  type CheckContext,
  skip,
  pollVisible,
  freshId,
  opaqueRecord,
} from '../lib/index.ts';
import { recordsOf } from './listed-records.ts';
import { BookingEventNeighbour, TransportOrderRecord, World, worldModelOn } from '../lib/world/index.ts';

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Fields of a record (top level) whose name reads like a cancel flag, and what they say. */
export function cancelVerdict(record: unknown): { judged: string[]; notCancelled: string[] } {
  const judged: string[] = [];
  const notCancelled: string[] = [];
  if (!isObject(record)) return { judged, notCancelled };
  for (const [key, value] of Object.entries(record)) {
    if (/cancel/i.test(key) && typeof value === 'boolean') {
      judged.push(`${key}: ${value}`);
      if (!value) notCancelled.push(`${key} is false`);
    } else if (/^(status|state)$/i.test(key) && typeof value === 'string' && /cancel/i.test(value)) {
      judged.push(`${key}: '${value}'`);
    }
  }
  return { judged, notCancelled };
}

function skipUnlessWritten(ctx: CheckContext, x: Exchange, what: string): void {
  if (is2xx(x)) return;
  skip.nothingToJudge(
    ctx,
    `could not write ${what}: ${x.request.method} answered ${x.response.status}; request bodies of spec 4.3 are not shown, so a refusal is not judged here`,
  );
}

test(
  ...checkTest(
    {
      check: 'event-cancel',
      operation: operationById('deleteBookingEvent'),
      title: 'DELETE of a booking event marks it canceled: it stays readable, and says so where it has a cancel flag',
      writes: true,
    },
    async (ctx) => {
      const bookingId = freshId('booking', ctx.runId);
      const eventId = freshId('event', ctx.runId);
      const params = { bookingId, eventId };
      const booking = await ctx.api.op(operationById('upsertBooking'), {
        params: { bookingId },
        json: opaqueRecord(ctx.runId),
      });
      skipUnlessWritten(ctx, booking, `booking ${bookingId}`);
      ctx.cleanup.add(`delete booking ${bookingId}`, () =>
        ctx.api.op(operationById('deleteBooking'), { params: { bookingId } }),
      );
      const put = await ctx.api.op(operationById('upsertBookingEvent'), { params, json: opaqueRecord(ctx.runId) });
      skipUnlessWritten(ctx, put, `booking event ${eventId}`);
      const world = new World();
      if (worldModelOn()) {
        const neighbourId = freshId('event', ctx.runId);
        const other = await ctx.api.op(operationById('upsertBookingEvent'), {
          params: { bookingId, eventId: neighbourId },
          json: opaqueRecord(ctx.runId),
        });
        skipUnlessWritten(ctx, other, `booking event ${neighbourId}`);
        world.add(neighbourId, new BookingEventNeighbour(bookingId, neighbourId));
      }
      const getEvent = () => ctx.api.op(operationById('getBookingEvent'), { params });
      const before = await pollVisible(getEvent, is2xx);
      if (!before.ok)
        skip.nothingToJudge(
          ctx,
          `the booking event written (PUT ${put.response.status}) never became readable: nothing to cancel`,
        );
      const del = await ctx.api.op(operationById('deleteBookingEvent'), { params });
      if (!is2xx(del))
        ctx.check.fail(`DELETE of the booking event answered ${del.response.status}`, { exchanges: [del] });
      // Writes are asynchronous (spec 1): wait until the record says it is cancelled, or the deadline passes.
      const after = await pollVisible(
        getEvent,
        (x) => !is2xx(x) || cancelVerdict(x.response.body).notCancelled.length === 0,
      );
      const x = after.value;
      if (!is2xx(x))
        ctx.check.fail(
          `after DELETE the booking event answers ${x.response.status}: DELETE marks the event as canceled (spec 3 rule 5), so it is still there to read`,
          { exchanges: [del, x] },
        );
      const verdict = cancelVerdict(x.response.body);
      if (verdict.notCancelled.length > 0)
        ctx.check.fail(
          `after DELETE the booking event still says it is not canceled (${verdict.notCancelled.join(', ')}) after ${after.elapsedMs} ms`,
          { exchanges: [del, x], pointer: `/${verdict.notCancelled[0]!.split(' ')[0]}` },
        );
      await world.settle(ctx, `DELETE of booking event ${eventId}`);
      ctx.testInfo.annotations.push({
        type: 'note',
        description: `looked at: GET of the event after DELETE answered ${x.response.status}; cancel fields ${verdict.judged.join(', ') || 'none (judged on being readable)'}`,
      });
    },
  ),
);

/** A carrier booking id from the list (4.3 shows no body: the first element with a string id or bookingId). */
async function someCarrierBooking(ctx: CheckContext): Promise<string> {
  const list = await ctx.api.op(operationById('listCarrierBookings'));
  const body = list.response.body;
  const first = recordsOf(body).find((b) => typeof b.id === 'string' || typeof b.bookingId === 'string');
  if (!is2xx(list) || !first)
    skip.nothingToJudge(
      ctx,
      `nothing to work on: GET /carrierBookings answered ${list.response.status} with no record carrying an id`,
    );
  return String(first.id ?? first.bookingId);
}

function eventsNaming(x: Exchange, transportOrderId: string): Json[] {
  const body = x.response.body;
  return recordsOf(body).filter((e) => JSON.stringify(e).includes(transportOrderId));
}

/**
 * Where the events of one transport order can be seen: the booking's event list, or, when the list shows none of them
 * (a list may be paged, spec 8, or leave cancelled events out), the order's own GET, which may show its events.
 */
async function eventsView(ctx: CheckContext, bookingId: string, transportOrderId: string): Promise<Exchange> {
  const list = await ctx.api.op(operationById('listCarrierBookingEvents'), { params: { bookingId } });
  if (eventsNaming(list, transportOrderId).length > 0) return list;
  const order = await ctx.api.op(operationById('getTransportOrder'), { params: { bookingId, transportOrderId } });
  return eventsNaming(order, transportOrderId).length > 0 ? order : list;
}

function eventKey(e: Json, i: number): string {
  return typeof e.id === 'string' ? e.id : `#${i}`;
}

/**
 * No event of the order is listed any more. A list may leave cancelled events out, so the order itself is read: it
 * must still answer, and the events it shows must say they are cancelled. Gone from the list and from the order's own
 * GET (404/410) means the DELETE removed what rule 5 says it marks.
 */
async function expectMarkedNotRemoved(ctx: CheckContext, params: Record<string, string>, del: Exchange): Promise<void> {
  const order = await ctx.api.op(operationById('getTransportOrder'), { params });
  if (order.response.status === 404 || order.response.status === 410)
    ctx.check.fail(
      `after DELETE of transport order ${params.transportOrderId}, no event of it is listed and the order answers ${order.response.status}: the DELETE removed the order and its events, where spec 3 rule 5 says it marks the events as cancelled`,
      { exchanges: [del, order] },
    );
  const bad = recordsOf(order.response.body).filter((e) => cancelVerdict(e).notCancelled.length > 0);
  if (is2xx(order) && bad.length > 0)
    ctx.check.fail(
      `after DELETE, transport order ${params.transportOrderId} shows ${bad.length} event(s) that still say they are not cancelled`,
      { exchanges: [del, order] },
    );
}

test(
  ...checkTest(
    {
      check: 'event-cancel',
      operation: operationById('deleteTransportOrder'),
      title: 'DELETE of a transport order marks all its events cancelled where they have a cancel flag',
      writes: true,
    },
    async (ctx) => {
      const bookingId = await someCarrierBooking(ctx);
      const transportOrderId = freshId('transport-order', ctx.runId);
      const neighbourId = freshId('transport-order', ctx.runId);
      const params = { bookingId, transportOrderId };
      for (const milestone of ['putTransportOrderPickupEta', 'putTransportOrderArrivedAtPickup']) {
        const x = await ctx.api.op(operationById(milestone), { params, json: opaqueRecord(ctx.runId) });
        skipUnlessWritten(ctx, x, `a ${milestone} milestone on transport order ${transportOrderId}`);
      }
      const world = new World();
      if (worldModelOn()) {
        const neighbour = await ctx.api.op(operationById('putTransportOrderPickupEta'), {
          params: { bookingId, transportOrderId: neighbourId },
          json: opaqueRecord(ctx.runId),
        });
        skipUnlessWritten(ctx, neighbour, `a pickupEta milestone on transport order ${neighbourId}`);
        ctx.cleanup.add(`delete transport order ${neighbourId}`, () =>
          ctx.api.op(operationById('deleteTransportOrder'), { params: { bookingId, transportOrderId: neighbourId } }),
        );
        world.add(neighbourId, new TransportOrderRecord(bookingId, neighbourId));
      }
      const listEvents = () => eventsView(ctx, bookingId, transportOrderId);
      const before = await pollVisible(
        async () => ({ own: await listEvents(), neighbour: await eventsView(ctx, bookingId, neighbourId) }),
        ({ own, neighbour }) =>
          is2xx(own) &&
          eventsNaming(own, transportOrderId).length > 0 &&
          (!world.has(neighbourId) || eventsNaming(neighbour, neighbourId).length > 0),
      ).then((r) => ({ ...r, value: r.value.own }));
      if (!before.ok)
        skip.nothingToJudge(
          ctx,
          `no event of GET /carrierBookings/${bookingId}/events, nor of the order's own GET, names transport order ${transportOrderId} after two milestones: which events belong to it is not observable`,
        );
      const del = await ctx.api.op(operationById('deleteTransportOrder'), { params });
      if (!is2xx(del))
        ctx.check.fail(`DELETE of the transport order answered ${del.response.status}`, { exchanges: [del] });
      const stillNotCancelled = (x: Exchange) =>
        eventsNaming(x, transportOrderId)
          .map((e, i) => ({ key: eventKey(e, i), bad: cancelVerdict(e).notCancelled }))
          .filter((e) => e.bad.length > 0);
      const after = await pollVisible(listEvents, (x) => !is2xx(x) || stillNotCancelled(x).length === 0);
      const bad = is2xx(after.value) ? stillNotCancelled(after.value) : [];
      if (bad.length > 0)
        ctx.check.fail(
          `after DELETE of transport order ${transportOrderId}, ${bad.length} of its event(s) still say they are not cancelled after ${after.elapsedMs} ms: ${bad
            .slice(0, 5)
            .map((e) => `${e.key} (${e.bad.join(', ')})`)
            .join('; ')}`,
          { exchanges: [del, after.value] },
        );
      const judged = is2xx(after.value) ? eventsNaming(after.value, transportOrderId) : [];
      if (is2xx(after.value) && judged.length === 0) await expectMarkedNotRemoved(ctx, params, del);
      await world.settle(ctx, `DELETE of transport order ${transportOrderId}`);
      ctx.testInfo.annotations.push({
        type: 'note',
        description: `looked at: ${eventsNaming(before.value, transportOrderId).length} event(s) naming the transport order before DELETE, ${judged.length} still listed after it (answer ${after.value.response.status}), judged on their cancel flags`,
      });
    },
  ),
);
