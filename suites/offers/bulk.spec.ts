/**
 * offer-bulk (spec 2.3, 2.7, 4.1): POST /offers/bulk answers `success` and
 * `batchId`, and every item becomes readable under its own id with its own
 * content: none lost, none mixed up. An item whose fields do not read back as
 * written is offer-upsert's failure when the same body PUT alone does not read
 * back either: offer-bulk then reports itself blocked by it.
 */
import fc from 'fast-check';
import { operationById } from '../../specs/contract.ts';
import {
  checkTest,
  test,
  target,
  bulkItemArb,
  checkProperty,
  awaitOffer,
  bulkWriteOffers,
  writeControl,
  expectationsOf,
  freshId,
} from '../lib/index.ts';

/** Maximum bulk size: not shown (spec 8); ten is a size no bulk endpoint should refuse. */
const MAX_ITEMS = 10;

test(
  ...checkTest(
    {
      check: 'offer-bulk',
      operation: operationById('bulkWriteOffers'),
      title: 'every bulk item is stored under its own id with its own content',
      writes: true,
    },
    async (ctx) => {
      const items = fc.array(bulkItemArb(ctx.runId, { cancel: false }), { minLength: 1, maxLength: MAX_ITEMS });
      await checkProperty(
        ctx,
        [items],
        async (generated) => {
          // Fresh ids at run time: a shrink replays the same items, which must not find the last attempt's offers.
          const sent = generated.map((item) => ({ ...item, id: ctx.cleanup.offer(freshId('bulk')) }));
          const ack = await bulkWriteOffers(ctx, sent);
          for (const [i, item] of sent.entries()) {
            // Reading back a written field is offer-upsert's rule: the same item PUT alone tells whose fault it is.
            await awaitOffer(ctx, item.id, {
              expectations: expectationsOf(item, { created: true }),
              problem: `(bulk item ${i} of ${sent.length}) does not read back as that item`,
              batchIds: ack.batchIds,
              control: () => writeControl(ctx, item),
            });
          }
        },
        { numRuns: Math.max(1, Math.ceil(target().runs / 2)), waitsPerRun: 2, independentRuns: true },
      );
    },
  ),
);
