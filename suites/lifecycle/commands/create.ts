/** POST /offers: a new offer under an id the server assigns (spec 4.1). */
import fc from 'fast-check';
import type { OfferWrite } from '../../../schemas/types.generated.ts';
import { checkModel, MAX_OFFERS, upsertModel, type OfferCommand, type OfferModel, type Real } from '../model.ts';
import { createOffer, expectationsOf } from '../../lib/index.ts';

export class CreateCommand implements OfferCommand {
  constructor(readonly body: OfferWrite) {}
  check(m: Readonly<OfferModel>): boolean {
    return m.offers.length < MAX_OFFERS;
  }
  async run(m: OfferModel, real: Real): Promise<void> {
    const { id, batchIds } = await createOffer(real.ctx, this.body);
    upsertModel(m, {
      id,
      expectations: expectationsOf(this.body, { created: true }),
      canceled: this.body.cancel === true,
      body: this.body,
      write: { kind: 'create', by: 'POST' },
    });
    await checkModel(real, m, this.toString(), batchIds);
  }
  toString(): string {
    return `create(POST ${fc.stringify(this.body)})`;
  }
}
