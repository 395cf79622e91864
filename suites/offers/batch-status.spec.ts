/**
 * batch-status (spec 1): "a write returns a batchId, and the integration status
 * of a batch or of a booking is read through the bookings status endpoints".
 * Every batchId an offer write answers (POST, PUT, DELETE, bulk) is looked up
 * at /bookings/requestsStatus/batch/{batchId}, and the booking an offer names at
 * /bookings/requestsStatus/booking/{bookingId}. Their bodies are not shown
 * (spec 4.3), so only what spec 1 promises is asserted: a 2xx answer with a
 * body (its content type is json-content-type's to judge). A status may take a
 * while to exist, so each is polled up to the deadline.
 *
 * The batch lookups are contract (spec 1: a write returns a batchId, and the
 * status of a batch is read there). The booking lookup is advisory: the offer
 * only names a booking id the client chose, and the spec does not say such a
 * booking gets an integration status of its own.
 */
import fc from 'fast-check';
import { operationById } from '../../specs/contract.ts';
import {
  type CheckContext,
  checkTest,
  test,
  type Severity,
  target,
  offerWriteBodyArb,
  pollVisible,
  bulkWriteOffers,
  createOffer,
  deleteOffer,
  upsertOffer,
  freshId,
} from '../lib/index.ts';

function answersStatus(status: number, text: string): boolean {
  return status >= 200 && status < 300 && text !== '';
}

async function expectStatusAnswers(
  ctx: CheckContext,
  operationId: 'getBatchRequestsStatus' | 'getBookingRequestsStatus',
  params: Record<string, string>,
  what: string,
  severity: Severity = 'contract',
): Promise<void> {
  const op = operationById(operationId);
  const r = await pollVisible(
    () => ctx.api.op(op, { params }),
    (x) => answersStatus(x.response.status, x.response.text),
  );
  if (r.ok) return;
  const x = r.value;
  ctx.check.fail(
    `${what}: ${op.method.toUpperCase()} ${op.path} answered ${x.response.status} ${x.response.headers['content-type'] ?? '(no content-type)'} for ${r.elapsedMs} ms; spec 1 says its status is read there`,
    { exchanges: [x], operationId: op.operationId, method: op.method, path: op.path, severity },
  );
}

test(
  ...checkTest(
    {
      check: 'batch-status',
      operation: operationById('getBatchRequestsStatus'),
      title: 'every batchId and booking id of an offer write has a readable status',
      writes: true,
    },
    async (ctx) => {
      const t = target();
      const [a, b, c] = fc.sample(offerWriteBodyArb(ctx.runId, { cancel: false }), { seed: t.seed, numRuns: 3 });
      if (!a || !b || !c) throw new Error('fc.sample returned fewer than 3 bodies');
      const id = ctx.cleanup.offer(freshId('offer'));
      const bookingId = `${id}-booking`;
      const created = await createOffer(ctx, { ...a, offer: { ...a.offer, bookingId } });
      const put = await upsertOffer(ctx, id, b);
      const bulk = await bulkWriteOffers(ctx, [{ ...c, id: ctx.cleanup.offer(freshId('bulk')) }]);
      const deleted = await deleteOffer(ctx, id);
      for (const [what, ack] of [
        ['POST /offers', created],
        ['PUT /offers/{offerId}', put],
        ['POST /offers/bulk', bulk],
        ['DELETE /offers/{offerId}', deleted],
      ] as const) {
        await expectStatusAnswers(
          ctx,
          'getBatchRequestsStatus',
          { batchId: ack.batchId },
          `the batchId '${ack.batchId}' of ${what}`,
        );
      }
      await expectStatusAnswers(
        ctx,
        'getBookingRequestsStatus',
        { bookingId },
        `booking '${bookingId}', named by the offer POST /offers wrote`,
        'advisory',
      );
    },
  ),
);
