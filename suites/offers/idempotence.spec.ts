/**
 * offer-idempotent (spec 1: writes are upserts): the same PUT twice leaves one
 * offer under the id, with the content written. GET /offers/{offerId} answers
 * an array of Offer (spec 4.1) without saying why: a server may answer every
 * version of the offer, so only two elements of the same version (the same
 * offerVersion) are two copies of one write.
 */
import { operationById } from '../../specs/contract.ts';
import {
  checkTest,
  test,
  target,
  offerWriteBodyArb,
  checkProperty,
  awaitOffer,
  writeLiveOffer,
  expectationsOf,
  readOffer,
  upsertOffer,
  writtenVersion,
} from '../lib/index.ts';

test(
  ...checkTest(
    {
      check: 'offer-idempotent',
      operation: operationById('upsertOffer'),
      title: 'the same PUT twice leaves one offer with the same content',
      writes: true,
    },
    async (ctx) => {
      await checkProperty(
        ctx,
        [offerWriteBodyArb(ctx.runId, { cancel: false })],
        async (body) => {
          // The first PUT must read as written before the second says anything: that is offer-upsert's rule.
          const { id, before } = await writeLiveOffer(ctx, body);
          const second = await upsertOffer(ctx, id, body);
          await awaitOffer(ctx, id, {
            expectations: expectationsOf(body, { created: true }),
            problem: 'does not hold what the repeated PUT wrote',
            before,
            batchIds: second.batchIds,
          });
          const read = await readOffer(ctx, id);
          const version = (o: Record<string, unknown>) => JSON.stringify(o.offerVersion);
          const seen = writtenVersion(read, expectationsOf(body, { created: true }));
          const written = seen ? version(seen) : undefined;
          const copies = read.versions.filter((o) => version(o) === written).length;
          if (copies > 1)
            ctx.check.fail(
              `GET /offers/${id} answers ${copies} offers with that id after the same PUT twice; an upsert keeps one`,
              { exchanges: [read.exchange] },
            );
        },
        { numRuns: Math.ceil(target().runs / 2), waitsPerRun: 1, independentRuns: true },
      );
    },
  ),
);
