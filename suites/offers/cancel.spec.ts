/**
 * offer-cancel (spec 3 rule 4): offers are cancelled through the `cancel` flag
 * of the write body, or through DELETE on the offer. Either way the offer then
 * reads `canceled: true`; DELETE answers with a batchId (spec 4.1). Rule 4
 * cancels *the* offer: each run also writes a neighbour, another offer of the
 * same booking, which the world model (suites/lib/world/) must find live once
 * the cancelled offer shows its cancellation.
 */
import type { OfferWrite } from '../../schemas/types.generated.ts';
import { operationById } from '../../specs/contract.ts';
import {
  type CheckContext,
  checkTest,
  pollVisible,
  readOffer,
  skip,
  test,
  target,
  offerWriteBodyArb,
  checkProperty,
  awaitOffer,
  writeLiveOffer,
  deleteOffer,
  upsertOffer,
  updateControl,
  expectationsOf,
  offerWriteBody,
  freshId,
} from '../lib/index.ts';
import { OfferNeighbour, World, worldModelOn } from '../lib/world/index.ts';

function withBooking(body: OfferWrite, bookingId: string): OfferWrite {
  return { ...body, offer: { ...body.offer, bookingId } };
}

const CANCELED = [{ pointer: '/canceled', value: true, compare: 'exact' as const }];
const runs = (): number => Math.max(1, Math.ceil(target().runs / 4));

/** The two ways spec 3 rule 4 cancels an offer; each is judged the same way on a live offer. */
const WAYS: {
  operationId: 'upsertOffer' | 'deleteOffer';
  title: string;
  unseen: string;
  cancel: (ctx: CheckContext, id: string, body: OfferWrite) => Promise<{ batchIds: string[] }>;
  /** Cancelling by the flag is an update: one that changes nothing at all is offer-upsert's fault. */
  control?: (ctx: CheckContext, body: OfferWrite) => ReturnType<typeof updateControl>;
}[] = [
  {
    operationId: 'upsertOffer',
    title: 'cancel: true in a write body cancels the offer',
    unseen: 'was written with cancel: true but does not read canceled: true',
    cancel: (ctx, id, body) => upsertOffer(ctx, id, { ...body, cancel: true }),
    control: updateControl,
  },
  {
    operationId: 'deleteOffer',
    title: 'DELETE answers a batchId and cancels the offer',
    unseen: 'was deleted (DELETE cancels, spec 3 rule 4) but does not read canceled: true',
    cancel: (ctx, id) => deleteOffer(ctx, id),
  },
];

/**
 * Rule 4 cancels the offer, and nothing but a write to it undoes that: an update of another offer of its booking (a
 * server that recomputes a booking's offers from it, say) leaves the cancelled offer cancelled, and is itself applied.
 */
async function laterNeighbourWrite(
  ctx: CheckContext,
  world: World,
  cancelled: { id: string; bookingId: string },
  neighbour: { id: string; before: Record<string, unknown>; body: OfferWrite },
): Promise<void> {
  const update: OfferWrite = {
    offer: { ...neighbour.body.offer, offerVersion: `${String(neighbour.body.offer?.offerVersion ?? '')}-later` },
  };
  const put = await upsertOffer(ctx, neighbour.id, update);
  await awaitOffer(ctx, neighbour.id, {
    expectations: expectationsOf(update, { created: false }),
    problem: 'was not updated by a PUT to its id',
    clause: 'spec 1',
    before: neighbour.before,
    batchIds: put.batchIds,
    setupOwnedBy: 'offer-upsert',
  });
  world.add(cancelled.id, new OfferNeighbour(cancelled.id, cancelled.bookingId, true));
  await world.settle(
    ctx,
    `an update of offer ${neighbour.id}, another offer of the booking of cancelled offer ${cancelled.id}`,
  );
}

for (const way of WAYS)
  test(
    ...checkTest(
      {
        check: 'offer-cancel',
        operation: operationById(way.operationId),
        title: way.title,
        writes: true,
      },
      async (ctx) => {
        await checkProperty(
          ctx,
          [offerWriteBodyArb(ctx.runId, { cancel: false })],
          async (generated) => {
            // One booking of the test's own, so the two offers share it with nothing else the run writes.
            const bookingId = freshId('booking', ctx.runId);
            const body = withBooking(generated, bookingId);
            const { id, before } = await writeLiveOffer(ctx, body);
            const world = new World();
            const neighbourBody = withBooking(offerWriteBody(ctx.runId), bookingId);
            const neighbour = worldModelOn() ? await writeLiveOffer(ctx, neighbourBody) : undefined;
            if (neighbour) world.add(neighbour.id, new OfferNeighbour(neighbour.id, bookingId));
            const ack = await way.cancel(ctx, id, body);
            const control = way.control;
            await awaitOffer(ctx, id, {
              expectations: CANCELED,
              problem: way.unseen,
              before,
              batchIds: ack.batchIds,
              control: control ? () => control(ctx, body) : undefined,
            });
            ctx.cleanup.offerCancelled(id);
            await world.settle(ctx, `${way.operationId === 'deleteOffer' ? 'DELETE' : 'cancel: true'} of offer ${id}`);
            if (neighbour)
              await laterNeighbourWrite(ctx, world, { id, bookingId }, { ...neighbour, body: neighbourBody });
          },
          { numRuns: runs(), waitsPerRun: 2, independentRuns: true },
        );
      },
    ),
  );

/**
 * Offers that share default values are not neighbours: two offers written without a bookingId, with noPayment and
 * priceStrategy left to their defaults (spec 2.2), are two offers, and a DELETE of one cancels it alone (spec 3 rule
 * 4). A server may give both the same default booking (what it assigns is not shown); cancelling is still per offer.
 */
test(
  ...checkTest(
    {
      check: 'offer-cancel',
      operation: operationById('deleteOffer'),
      title: 'DELETE cancels only its offer among offers that share default values (no bookingId, default noPayment)',
      writes: true,
    },
    async (ctx) => {
      const { bookingId: _b, noPayment: _n, ...offer } = offerWriteBody(ctx.runId).offer ?? {};
      const body: OfferWrite = { offer };
      const deleted = await writeLiveOffer(ctx, body);
      const kept = await writeLiveOffer(ctx, body);
      const world = new World();
      world.add(kept.id, new OfferNeighbour(kept.id, '(none written)'));
      await deleteOffer(ctx, deleted.id);
      // Whether the DELETE cancels the offer it names is the DELETE test's (above); this one judges the other offer.
      const seen = await pollVisible(
        () => readOffer(ctx, deleted.id),
        (read) => read.offer?.canceled === true,
      );
      if (!seen.ok)
        skip.nothingToJudge(
          ctx,
          `offer ${deleted.id} does not read canceled: true after its DELETE (the DELETE test of offer-cancel judges that): nothing to compare its neighbour with`,
        );
      ctx.cleanup.offerCancelled(deleted.id);
      await world.settle(ctx, `DELETE of offer ${deleted.id}, written without a bookingId`);
    },
  ),
);
