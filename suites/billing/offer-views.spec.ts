/**
 * view-consistency (spec 4.1, 2.2): one offer, the same in both views the contract gives it. What GET /offers lists
 * reads the same through GET /offers/{offerId}: every documented field of spec 2.2 (the last element with the offer's
 * id, spec 4.1: an array of Offer). The offers are the test's own, written, one updated and one cancelled, so that a
 * listing kept by another road than the offer itself (an index that a create fills and an update does not) shows.
 * The other direction, a live offer its GET shows and a window around it leaves out, is offer-listing's (the window's
 * completeness, suites/offers/listing.spec.ts); a listing may leave cancelled offers out (spec 4.1 does not say a
 * listing shows them). Either view may take its time to show a write (spec 1): the list is read until it agrees with
 * the offer by id, to the visibility deadline. Undocumented fields are the server's and are not compared.
 */
import type { OfferWrite } from '../../schemas/types.generated.ts';
import { operationById } from '../../specs/contract.ts';
import {
  awaitOffer,
  checkTest,
  expectationsOf,
  freshId,
  offerWriteBody,
  pollVisible,
  readOffer,
  skip,
  test,
  upsertOffer,
  runNow,
  documentedOffer,
  fieldsThatDiffer,
  offerIn,
} from '../lib/index.ts';
import { worldModelOn } from '../lib/world/index.ts';

const HOUR = 3_600_000;

type Read = Record<string, unknown>;

/**
 * Writes an offer and waits for it to read back (`before`: as it read before, for an update); what it reads is set up
 * for the comparison, owned by offer-upsert (offer-cancel for a cancellation).
 */
async function written(ctx: Parameters<typeof upsertOffer>[0], id: string, body: OfferWrite, before?: Read) {
  const put = await upsertOffer(ctx, id, body);
  return awaitOffer(ctx, id, {
    expectations: expectationsOf(body, { created: before === undefined }),
    problem: before === undefined ? 'was not created by a PUT to a new id' : 'was not updated by a PUT to its id',
    clause: 'spec 1',
    before,
    batchIds: put.batchIds,
    setupOwnedBy: body.cancel === true ? 'offer-cancel' : 'offer-upsert',
  });
}

test(
  ...checkTest(
    {
      check: 'view-consistency',
      clauses: ['spec 4.1'],
      operation: operationById('listOffers'),
      title: 'every offer GET /offers lists reads the same through GET /offers/{offerId}',
      writes: true,
    },
    async (ctx) => {
      if (!worldModelOn()) skip.nothingToJudge(ctx, 'the world model is off (FLIS_WORLD_MODEL=off, for the bench)');
      const ids = ['created', 'updated', 'cancelled'].map((k) => ctx.cleanup.offer(freshId(`views-${k}-offer`)));
      const [created, updated, cancelled] = ids as [string, string, string];
      const base = offerWriteBody(ctx.runId);
      await written(ctx, created, base);
      const toUpdate = await written(ctx, updated, base);
      const toCancel = await written(ctx, cancelled, base);
      await written(ctx, updated, { offer: { ...base.offer, offerVersion: 'updated', quantity: 7 } }, toUpdate);
      await written(ctx, cancelled, { ...base, cancel: true }, toCancel);
      ctx.cleanup.offerCancelled(cancelled);
      const now = runNow();
      const query = { start: new Date(now - 2 * HOUR).toISOString(), end: new Date(now + 2 * HOUR).toISOString() };
      // Both views are read afresh each time (by id, then the list), so what a read itself may leave (safe-reads'
      // rule) does not pass for a disagreement: they must agree on one reading of each, by the deadline.
      for (const id of ids) {
        const r = await pollVisible(
          async () => ({
            byId: await readOffer(ctx, id),
            list: await ctx.api.op(operationById('listOffers'), { query }),
          }),
          ({ byId, list }) => {
            const listed = offerIn(list.response.body, id);
            return (
              !byId.offer ||
              !listed ||
              fieldsThatDiffer(documentedOffer(listed), documentedOffer(byId.offer)).length === 0
            );
          },
        );
        const { byId, list } = r.value;
        const listed = offerIn(list.response.body, id);
        if (!byId.offer || !listed) continue;
        const differ = fieldsThatDiffer(documentedOffer(listed), documentedOffer(byId.offer));
        const first = differ[0];
        if (first)
          ctx.check.fail(
            `GET /offers lists offer ${id} otherwise than GET /offers/${id} shows it, read one after the other for ${r.elapsedMs} ms: ${differ
              .slice(0, 6)
              .map((d) => `${d.field} ${JSON.stringify(d.a)} in the list, ${JSON.stringify(d.b)} by id`)
              .join('; ')}`,
            { exchanges: [byId.exchange, list], pointer: `/${first.field}` },
            'spec 4.1',
          );
      }
    },
  ),
);
