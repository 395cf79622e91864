/**
 * offer-upsert (spec 1, 2.3, 4.1): POST creates and answers batchId and id;
 * PUT to a new id creates; PUT to an existing id updates; each time a GET of
 * the offer (an array, spec 4.1) reflects every documented field written.
 */
import { offerWriteBodyArb } from '../generators/offer-write-body.ts';
import { checkTest, test } from '../lib/check-test.ts';
import { withCleanup } from '../lib/cleanup.ts';
import { checkProperty } from '../lib/property.ts';
import { target } from '../lib/target.ts';
import { operationById } from '../../specs/contract.ts';
import { awaitOffer, createOffer, upsertOffer } from './offer-api.ts';
import { expectationsOf } from './readback.ts';

const CLAUSE = 'spec 1, spec 2.3, spec 4.1';

test(
  ...checkTest(
    {
      check: 'offer-upsert',
      clause: CLAUSE,
      operation: operationById('upsertOffer'),
      title: 'POST creates, PUT creates a new id and updates an existing one',
      writes: true,
    },
    (ctx) =>
      withCleanup(ctx, async (flow) => {
        // The flag stays out: cancelling is offer-cancel's concern, and what an update does to a cancelled offer is not shown.
        const body = offerWriteBodyArb(target().runId, { cancel: false });
        // The update writes at least one documented field, or there is nothing to see it change.
        const change = body.filter((b) => expectationsOf(b, { created: false }).some((e) => e.pointer !== '/canceled'));
        await checkProperty(
          flow,
          [body, change],
          async (first, second) => {
            const created = await createOffer(flow, first);
            await awaitOffer(
              flow,
              created.id,
              expectationsOf(first, { created: true }),
              'did not read back what POST /offers wrote',
            );
            const id = flow.cleanup.newOfferId();
            await upsertOffer(flow, id, first);
            await awaitOffer(
              flow,
              id,
              expectationsOf(first, { created: true }),
              'was not created by a PUT to a new id',
            );
            await upsertOffer(flow, id, second);
            await awaitOffer(
              flow,
              id,
              expectationsOf(second, { created: false }),
              'was not updated by a PUT to its id',
            );
          },
          { waitsPerRun: 3 },
        );
      }),
  ),
);
