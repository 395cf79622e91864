/**
 * offer-settled (spec 2.2, 2.3): the `settled` flag of a write body sets the
 * offer's `settled`. Judged as a change: the offer is read before each write,
 * and a write answered with success that leaves `settled` as it was fails
 * (spec 2.3 gives the flag no other meaning, so ignoring it is the fault).
 * Deterministic (true, then false, on every run), so a server that ignores the
 * flag fails on every seed; generated bodies elsewhere leave the flag to this check.
 */
import { operationById } from '../../specs/contract.ts';
import {
  checkTest,
  test,
  offerWriteBody,
  awaitOffer,
  writeLiveOffer,
  updateControl,
  upsertOffer,
} from '../lib/index.ts';

test(
  ...checkTest(
    {
      check: 'offer-settled',
      operation: operationById('upsertOffer'),
      title: 'settled: true, then false, in a PUT body changes the offer it reads back',
      writes: true,
    },
    async (ctx) => {
      const { settled: _settled, ...base } = offerWriteBody(ctx.runId);
      const live = await writeLiveOffer(ctx, base);
      const id = live.id;
      let before = live.before;
      const start = before.settled === true;
      // From whatever a new offer shows (its default is not shown) to the other value and back.
      for (const settled of [!start, start]) {
        const put = await upsertOffer(ctx, id, { ...base, settled });
        before = await awaitOffer(ctx, id, {
          expectations: [{ pointer: '/settled', value: settled, compare: 'exact' }],
          problem: `was written with settled: ${settled} (the PUT answered ${put.exchange.response.status}) but does not read it`,
          before,
          batchIds: put.batchIds,
          // An update that changes nothing at all is offer-upsert's fault: a plain update on a fresh offer tells.
          control: () => updateControl(ctx, base),
        });
      }
    },
  ),
);
