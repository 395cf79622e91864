/** GET /offers/{offerId} of any offer the run wrote, live or cancelled: it reads as the model says (spec 4.1). */
import { expectedOf, type OfferCommand, type OfferModel, type Real } from '../model.ts';
import { awaitOffer } from '../../lib/index.ts';

export class ReadCommand implements OfferCommand {
  constructor(readonly pick: number) {}
  check(m: Readonly<OfferModel>): boolean {
    return m.offers.length > 0;
  }
  async run(m: OfferModel, real: Real): Promise<void> {
    const o = m.offers[this.pick % m.offers.length];
    if (!o) throw new Error('read ran without an offer: check() should have prevented it');
    await awaitOffer(real.ctx, o.id, {
      expectations: expectedOf(o),
      problem: `does not read as the model says (${this.toString()})`,
    });
  }
  toString(): string {
    return `read(offer #${this.pick})`;
  }
}
