/** PUT /offers/{offerId} to an id nothing has been written to: creates the offer (spec 1, 4.1). */
import fc from 'fast-check';
import type { OfferWrite } from '../../../schemas/types.generated.ts';
import { checkModel, MAX_OFFERS, upsertModel, type OfferCommand, type OfferModel, type Real } from '../model.ts';
import { upsertOffer, expectationsOf, freshId } from '../../lib/index.ts';

export class UpsertNewCommand implements OfferCommand {
  constructor(readonly body: OfferWrite) {}
  check(m: Readonly<OfferModel>): boolean {
    return m.offers.length < MAX_OFFERS;
  }
  async run(m: OfferModel, real: Real): Promise<void> {
    const id = real.ctx.cleanup.offer(freshId('offer'));
    const { batchIds } = await upsertOffer(real.ctx, id, this.body);
    upsertModel(m, {
      id,
      expectations: expectationsOf(this.body, { created: true }),
      canceled: this.body.cancel === true,
      body: this.body,
      write: { kind: 'create', by: 'PUT' },
    });
    await checkModel(real, m, this.toString(), batchIds);
  }
  toString(): string {
    return `upsert(PUT new id ${fc.stringify(this.body)})`;
  }
}
