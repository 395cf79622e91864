/**
 * offer-cancel (spec 3 rule 4): offers are cancelled through the `cancel` flag
 * of the write body, or through DELETE on the offer. Either way the offer then
 * reads `canceled: true`; DELETE answers with a batchId (spec 4.1).
 */
import type { OfferWrite } from '../../schemas/types.generated.ts';
import { operationById } from '../../specs/contract.ts';
import { offerWriteBodyArb } from '../generators/offer-write-body.ts';
import { type CheckContext, checkTest, test } from '../lib/check-test.ts';
import { checkProperty } from '../lib/property.ts';
import { target } from '../lib/target.ts';
import { awaitOffer, deleteOffer, updateControl, upsertOffer, writeLiveOffer } from '../lib/offer-api.ts';

const CANCELED = [{ pointer: '/canceled', value: true, compare: 'exact' as const }];
const runs = (): number => Math.max(1, Math.ceil(target().runs / 4));

/** The two ways spec 3 rule 4 cancels an offer; each is judged the same way on a live offer. */
const WAYS: {
  operationId: 'upsertOffer' | 'deleteOffer';
  title: string;
  unseen: string;
  cancel: (flow: CheckContext, id: string, body: OfferWrite) => Promise<{ batchIds: string[] }>;
  /** Cancelling by the flag is an update: one that changes nothing at all is offer-upsert's fault. */
  control?: (flow: CheckContext, body: OfferWrite) => Promise<string | undefined>;
}[] = [
  {
    operationId: 'upsertOffer',
    title: 'cancel: true in a write body cancels the offer',
    unseen: 'was written with cancel: true but does not read canceled: true',
    cancel: (flow, id, body) => upsertOffer(flow, id, { ...body, cancel: true }),
    control: updateControl,
  },
  {
    operationId: 'deleteOffer',
    title: 'DELETE answers a batchId and cancels the offer',
    unseen: 'was deleted (DELETE cancels, spec 3 rule 4) but does not read canceled: true',
    cancel: (flow, id) => deleteOffer(flow, id),
  },
];

for (const way of WAYS)
  test(
    ...checkTest(
      {
        check: 'offer-cancel',
        clause: 'spec 3 rule 4',
        operation: operationById(way.operationId),
        title: way.title,
        writes: true,
      },
      async (flow) => {
        await checkProperty(
          flow,
          [offerWriteBodyArb(target().runId, { cancel: false })],
          async (body) => {
            const { id, before } = await writeLiveOffer(flow, body);
            const ack = await way.cancel(flow, id, body);
            const control = way.control;
            await awaitOffer(flow, id, CANCELED, way.unseen, undefined, {
              before,
              batchIds: ack.batchIds,
              ...(control ? { control: () => control(flow, body) } : {}),
            });
            flow.cleanup.offerCancelled(id);
          },
          { numRuns: runs(), waitsPerRun: 2, independentRuns: true },
        );
      },
    ),
  );
