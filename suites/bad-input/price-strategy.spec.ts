/**
 * unknown-price-strategy (spec 2.2, spec 3; spec 2.3). The offer write body of
 * spec 2.3 has no `priceStrategy` field, and undocumented fields are not
 * forbidden, so a server may ignore an unknown priceStrategy in a write: that
 * is not asserted to be refused. What can honestly be asserted: the write is
 * not a 5xx, and if it is accepted, the stored offer's priceStrategy is still
 * one of the enum of spec 2.2 / spec 3 (or null, its default): the unknown
 * value never becomes the offer's.
 */
import fc from 'fast-check';
import { operationById } from '../../specs/contract.ts';
import {
  checkTest,
  test,
  skip,
  target,
  offerWriteBodyArb,
  RESPONSE_SCHEMA,
  awaitOffer,
  freshId,
} from '../lib/index.ts';

const ENUM: readonly unknown[] = ['Deferred', 'Fixed', 'Group', 'Precision', 'Provided', null];

test(
  ...checkTest(
    {
      check: 'unknown-price-strategy',
      operation: operationById('upsertOffer'),
      title: "an unknown priceStrategy in a write never becomes the offer's",
      writes: true,
    },
    async (ctx) => {
      const t = target();
      const [base] = fc.sample(offerWriteBodyArb(ctx.runId, { cancel: false }), { seed: t.seed, numRuns: 1 });
      const unknown = `Bogus-${ctx.runId}`;
      const id = ctx.cleanup.offer(freshId('price'));
      const x = await ctx.api.op(operationById('upsertOffer'), {
        params: { offerId: id },
        json: { ...base, offer: { ...base?.offer, priceStrategy: unknown } },
      });
      ctx.check.expectNo5xx(x, `a write with priceStrategy '${unknown}'`);
      if (x.response.status >= 400) return; // Refusing it is conformant too.
      ctx.check.expectSuccess(x, `PUT /offers/${id}`);
      const offer = await awaitOffer(ctx, id, {
        expectations: [],
        problem: 'was accepted but never became readable',
        clause: 'spec 1',
        ownFields: ['priceStrategy'],
      });
      const read = ctx.api.exchanges.at(-1);
      if (offer.priceStrategy === unknown) {
        ctx.check.fail(
          `offer ${id} was written with priceStrategy '${unknown}' and now reads it, outside the enum of spec 2.2 (${ENUM.map(String).join(', ')})`,
          { exchanges: read ? [read] : [], pointer: '/0/priceStrategy' },
        );
      }
      if (!ENUM.includes(offer.priceStrategy))
        skip.blockedBy(
          ctx,
          RESPONSE_SCHEMA,
          read,
          `GET /offers/${id}: priceStrategy ${JSON.stringify(offer.priceStrategy)} is outside the enum of spec 2.2, not the value written`,
        );
    },
  ),
);
