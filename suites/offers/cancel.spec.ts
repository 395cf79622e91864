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
import { offerWriteBodyArb } from '../generators/offer-write-body.ts';
import { type CheckContext, checkTest, test } from '../lib/index.ts';
import { checkProperty } from '../lib/property.ts';
import { target } from '../lib/target.ts';
import { awaitOffer, writeLiveOffer } from '../lib/offers/await-offer.ts';
import { deleteOffer, upsertOffer } from '../lib/offers/flow-steps.ts';
import { updateControl } from '../lib/offers/controls.ts';
import { offerWriteBody } from '../lib/fixtures.ts';
import { freshId } from '../lib/fresh-id.ts';
import { OfferNeighbour } from '../lib/world/offers.ts';
import { World, worldModelOn } from '../lib/world/world.ts';

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
            if (worldModelOn()) {
              const neighbour = await writeLiveOffer(ctx, withBooking(offerWriteBody(ctx.runId), bookingId));
              world.add(neighbour.id, new OfferNeighbour(neighbour.id, bookingId));
            }
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
          },
          { numRuns: runs(), waitsPerRun: 2, independentRuns: true },
        );
      },
    ),
  );
