/**
 * offer-upsert (spec 1, 2.3, 4.1): POST creates and answers batchId and id;
 * PUT to a new id creates; PUT to an existing id updates; each time a GET of
 * the offer (an array, spec 4.1) reflects every documented field written.
 * Every run also writes the edges the shapes allow (references out of order,
 * timestamps at offsets other than Z, numbers and coordinates at their ends):
 * each reads back as written, a timestamp as the same instant.
 */
import { offerEdgeBodies, type EdgeBody } from '../generators/offer-edge-bodies.ts';
import {
  checkTest,
  test,
  offerWriteBodyArb,
  checkProperty,
  awaitOffer,
  createOffer,
  upsertOffer,
  offerWriteBody,
  expectationsOf,
  freshId,
  mapBoundedInOrder,
} from '../lib/index.ts';
import { operationById } from '../../specs/contract.ts';
import type { OfferWrite } from '../../schemas/types.generated.ts';

/** A body without the settled flag, which offer-settled owns. */
export function withoutSettled(body: OfferWrite): OfferWrite {
  const { settled: _settled, ...rest } = body;
  return rest;
}

test(
  ...checkTest(
    {
      check: 'offer-upsert',
      operation: operationById('upsertOffer'),
      title: 'POST creates, PUT creates a new id and updates an existing one',
      writes: true,
    },
    async (ctx) => {
      // The flags stay out: cancelling is offer-cancel's concern (and what an update does to a cancelled offer is not
      // shown), settled offer-settled's: one wrong flag fails its own check, not this one too.
      const body = offerWriteBodyArb(ctx.runId, { cancel: false }).map(withoutSettled);
      // The update writes at least one documented field, or there is nothing to see it change.
      const change = body.filter((b) => expectationsOf(b, { created: false }).some((e) => e.pointer !== '/canceled'));
      await checkProperty(
        ctx,
        [body, change],
        async (first, second) => {
          const created = await createOffer(ctx, first);
          await awaitOffer(ctx, created.id, {
            expectations: expectationsOf(first, { created: true }),
            problem: 'did not read back what POST /offers wrote',
            batchIds: created.batchIds,
          });
          const id = ctx.cleanup.offer(freshId('offer'));
          const put = await upsertOffer(ctx, id, first);
          const before = await awaitOffer(ctx, id, {
            expectations: expectationsOf(first, { created: true }),
            problem: 'was not created by a PUT to a new id',
            batchIds: put.batchIds,
          });
          const update = await upsertOffer(ctx, id, second);
          await awaitOffer(ctx, id, {
            expectations: expectationsOf(second, { created: false }),
            problem: 'was not updated by a PUT to its id',
            before,
            batchIds: update.batchIds,
          });
        },
        { waitsPerRun: 3, independentRuns: true },
      );
    },
  ),
);

test(
  ...checkTest(
    {
      check: 'offer-upsert',
      operation: operationById('upsertOffer'),
      title: 'a body with every documented field reads back field by field, on every run',
      writes: true,
    },
    async (ctx) => {
      // Generated bodies leave fields out at random; this one writes all of them, so a field that never reads back
      // as written is found on every seed.
      const body = withoutSettled(offerWriteBody(ctx.runId));
      const id = ctx.cleanup.offer(freshId('offer'));
      const put = await upsertOffer(ctx, id, body);
      await awaitOffer(ctx, id, {
        expectations: expectationsOf(body, { created: true }),
        problem: 'did not read back a complete body',
        batchIds: put.batchIds,
      });
    },
  ),
);

test(
  ...checkTest(
    {
      check: 'offer-upsert',
      operation: operationById('upsertOffer'),
      title: 'the edges the shapes allow read back as written, on every run',
      writes: true,
    },
    async (ctx) => {
      const complete = withoutSettled(offerWriteBody(ctx.runId));
      const writeEdge = async ({ edge, offer, offset }: EdgeBody): Promise<void> => {
        const body: OfferWrite = { ...complete, offer: { ...complete.offer, ...offer } };
        const id = ctx.cleanup.offer(freshId('offer'));
        const x = await ctx.api.op(operationById('upsertOffer'), { params: { offerId: id }, json: body });
        // Spec 2 says timestamps are in UTC: a server may refuse one written at another offset. Taken, it is kept.
        if (offset && x.response.status >= 400 && x.response.status < 500) {
          ctx.testInfo.annotations.push({ type: 'note', description: `${edge}: refused with ${x.response.status}` });
          return;
        }
        ctx.check.expectSuccess(x, `PUT /offers/${id}`);
        ctx.check.expectSchema(x, 'batch-ack', 'spec 2.7');
        const batchId = (x.response.body as { batchId: string }).batchId;
        await awaitOffer(ctx, id, {
          expectations: expectationsOf(body, { created: true }),
          problem: `did not read back a body with ${edge}`,
          batchIds: [batchId],
        });
      };
      await mapBoundedInOrder(offerEdgeBodies(ctx.runId), writeEdge);
    },
  ),
);
