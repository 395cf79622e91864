/**
 * The integration status of a write as twins for safe reads (suites/model/twin-trial.ts): spec 1 says the status of a
 * batch or of a booking is read through the bookings status endpoints. Two offers PUT alike, each naming a booking of
 * its own; the batch status of each write (GET /bookings/requestsStatus/batch/{batchId}) and the status of each
 * booking (GET /bookings/requestsStatus/booking/{bookingId}) are compared. Their bodies are not shown (spec 4.3), so
 * the whole answer is compared, with the write's own ids written as placeholders.
 */
import { operationById } from '../../specs/contract.ts';
import { type CheckContext, freshId, is2xx, offerWriteBody } from '../lib/index.ts';
import { putOffer, type WrittenOffer } from './offer-twins.ts';
import type { Json, Twins, View } from './twin-trial.ts';

export interface WrittenStatus extends WrittenOffer {
  bookingId: string;
}

function normalised(value: unknown, r: WrittenStatus): unknown {
  if (typeof value === 'string') {
    let s = value;
    for (const [own, as] of [
      [r.batchId, '<batchId>'],
      [r.bookingId, '<bookingId>'],
      [r.reference, '<reference>'],
      [r.id, '<offerId>'],
    ] as const)
      if (own) s = s.replaceAll(own, as);
    return s;
  }
  if (Array.isArray(value)) return value.map((v) => normalised(v, r));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalised(v, r)]));
  return value;
}

function shownStatus(x: Parameters<View<WrittenStatus>['shown']>[0], r: WrittenStatus): Json | undefined {
  if (!is2xx(x) || x.response.text === '') return undefined;
  const body = normalised(x.response.body, r);
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Json) : { body };
}

export const BATCH_STATUS: View<WrittenStatus> = {
  name: 'GET /bookings/requestsStatus/batch/{batchId}',
  read: (ctx, r) => ctx.api.op(operationById('getBatchRequestsStatus'), { params: { batchId: r.batchId ?? '' } }),
  shown: shownStatus,
};

export const BOOKING_STATUS: View<WrittenStatus> = {
  name: 'GET /bookings/requestsStatus/booking/{bookingId}',
  read: (ctx, r) => ctx.api.op(operationById('getBookingRequestsStatus'), { params: { bookingId: r.bookingId } }),
  shown: shownStatus,
};

export function statusTwins(ctx: CheckContext): Twins<WrittenStatus> {
  const { settled: _settled, ...body } = offerWriteBody(ctx.runId);
  return {
    what: 'write',
    views: [BATCH_STATUS, BOOKING_STATUS],
    write: async (c) => {
      const bookingId = freshId('status-booking', c.runId);
      const written = await putOffer(c, { ...body, offer: { ...body.offer, bookingId } }, 'status');
      return { ...written, bookingId, label: `the PUT of offer ${written.id}` };
    },
    written: () => true,
  };
}
