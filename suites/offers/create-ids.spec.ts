/**
 * offer-create-ids (spec 4.1, spec 2.7): POST /offers creates an offer and
 * answers its id, so two POSTs create two offers under two ids, and the first
 * still reads back as written once the second is there. Any id format is the
 * server's; only sameness is judged.
 */
import { operationById } from '../../specs/contract.ts';
import {
  checkTest,
  test,
  offerWriteBody,
  freshId,
  awaitOffer,
  createOffer,
  writeControl,
  expectationsOf,
} from '../lib/index.ts';

test(
  ...checkTest(
    {
      check: 'offer-create-ids',
      operation: operationById('createOffer'),
      title: 'two POST /offers create two offers under two ids, and the first keeps its content',
      writes: true,
    },
    async (ctx) => {
      const runId = ctx.runId;
      // Distinct references, so each offer's content is its own.
      const bodies = ['a', 'b'].map((k) => {
        const { settled: _s, ...body } = offerWriteBody(runId);
        return { ...body, offer: { ...body.offer, references: [freshId(`create-${k}`, runId)] } };
      });
      const [a, b] = [await createOffer(ctx, bodies[0]!), await createOffer(ctx, bodies[1]!)];
      if (a.id === b.id)
        ctx.check.fail(`two POST /offers with different bodies both answered id ${a.id}: POST creates an offer`, {
          exchanges: [a.exchange, b.exchange],
          pointer: '/id',
        });
      for (const [i, created] of [a, b].entries())
        await awaitOffer(ctx, created.id, {
          expectations: expectationsOf(bodies[i]!, { created: true }),
          problem: `(POST ${i + 1} of 2) does not read back what that POST wrote once both were written`,
          batchIds: created.batchIds,
          control: () => writeControl(ctx, bodies[i]!),
        });
    },
  ),
);
