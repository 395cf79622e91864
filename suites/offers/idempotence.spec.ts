/**
 * offer-idempotent (spec 1: writes are upserts): the same PUT twice leaves one
 * offer under the id, with the content written. GET /offers/{offerId} answers
 * an array of Offer (spec 4.1) without saying why: a server may answer every
 * version of the offer, so only two elements of the same version (the same
 * offerVersion) are two copies of one write.
 */
import { operationById } from '../../specs/contract.ts';
import { offerWriteBodyArb } from '../generators/offer-write-body.ts';
import { checkTest, test } from '../lib/check-test.ts';
import { checkProperty } from '../lib/property.ts';
import { target } from '../lib/target.ts';
import { awaitOffer, writeLiveOffer } from '../lib/offers/await-offer.ts';
import { readOffer, upsertOffer, writtenVersion } from '../lib/offers/flow-steps.ts';
import { expectationsOf } from '../lib/readback.ts';

test(
  ...checkTest(
    {
      check: 'offer-idempotent',
      clause: 'spec 1, spec 4.1',
      operation: operationById('upsertOffer'),
      title: 'the same PUT twice leaves one offer with the same content',
      writes: true,
    },
    async (flow) => {
      await checkProperty(
        flow,
        [offerWriteBodyArb(target().runId, { cancel: false })],
        async (body) => {
          // The first PUT must read as written before the second says anything: that is offer-upsert's rule.
          const { id, before } = await writeLiveOffer(flow, body);
          const second = await upsertOffer(flow, id, body);
          await awaitOffer(flow, id, {
            expectations: expectationsOf(body, { created: true }),
            problem: 'does not hold what the repeated PUT wrote',
            before,
            batchIds: second.batchIds,
          });
          const read = await readOffer(flow, id);
          const version = (o: Record<string, unknown>) => JSON.stringify(o.offerVersion);
          const seen = writtenVersion(read, expectationsOf(body, { created: true }));
          const written = seen ? version(seen) : undefined;
          const copies = read.versions.filter((o) => version(o) === written).length;
          if (copies > 1)
            flow.check.fail(
              `GET /offers/${id} answers ${copies} offers with that id after the same PUT twice; an upsert keeps one`,
              { exchanges: [read.exchange] },
            );
        },
        { numRuns: Math.ceil(target().runs / 2), waitsPerRun: 1, independentRuns: true },
      );
    },
  ),
);
