/**
 * offer-cancel (spec 3 rule 4): offers are cancelled through the `cancel` flag
 * of the write body, or through DELETE on the offer. Either way the offer then
 * reads `canceled: true`; DELETE answers with a batchId (spec 4.1).
 */
import { operationById } from '../../specs/contract.ts';
import { offerWriteBodyArb } from '../generators/offer-write-body.ts';
import { checkTest, test } from '../lib/check-test.ts';
import { checkProperty } from '../lib/property.ts';
import { target } from '../lib/target.ts';
import { awaitOffer, deleteOffer, updateControl, upsertOffer, writeLiveOffer } from '../lib/offer-api.ts';

const CANCELED = [{ pointer: '/canceled', value: true, compare: 'exact' as const }];
const runs = (): number => Math.max(1, Math.ceil(target().runs / 4));

test(
  ...checkTest(
    {
      check: 'offer-cancel',
      clause: 'spec 3 rule 4',
      operation: operationById('upsertOffer'),
      title: 'cancel: true in a write body cancels the offer',
      writes: true,
    },
    async (flow) => {
      await checkProperty(
        flow,
        [offerWriteBodyArb(target().runId, { cancel: false })],
        async (body) => {
          const { id, before } = await writeLiveOffer(flow, body);
          const put = await upsertOffer(flow, id, { ...body, cancel: true });
          await awaitOffer(
            flow,
            id,
            CANCELED,
            'was written with cancel: true but does not read canceled: true',
            undefined,
            // Cancelling by the flag is an update: one that changes nothing at all is offer-upsert's fault.
            { before, batchIds: put.batchIds, control: () => updateControl(flow, body) },
          );
          flow.cleanup.offerCancelled(id);
        },
        { numRuns: runs(), waitsPerRun: 2, independentRuns: true },
      );
    },
  ),
);

test(
  ...checkTest(
    {
      check: 'offer-cancel',
      clause: 'spec 3 rule 4',
      operation: operationById('deleteOffer'),
      title: 'DELETE answers a batchId and cancels the offer',
      writes: true,
    },
    async (flow) => {
      await checkProperty(
        flow,
        [offerWriteBodyArb(target().runId, { cancel: false })],
        async (body) => {
          const { id, before } = await writeLiveOffer(flow, body);
          const del = await deleteOffer(flow, id);
          await awaitOffer(
            flow,
            id,
            CANCELED,
            'was deleted (DELETE cancels, spec 3 rule 4) but does not read canceled: true',
            undefined,
            { before, batchIds: del.batchIds },
          );
          flow.cleanup.offerCancelled(id);
        },
        { numRuns: runs(), waitsPerRun: 2, independentRuns: true },
      );
    },
  ),
);
