/** DELETE /offers/{offerId} of a live offer: cancels it (spec 3 rule 4), and no other. */
import { deleteOffer, offerIn } from '../../lib/world/index.ts';
import { type ExploreCommand, type Explored, type Real, slotId } from './model.ts';

export class DeleteOfferCommand implements ExploreCommand {
  constructor(readonly slot: number) {}

  check(m: Readonly<Explored>): boolean {
    return m.offers[this.slot] === 'live';
  }

  async run(m: Explored, real: Real): Promise<void> {
    const offer = offerIn(real.world, slotId(real, this.slot));
    const { step } = await deleteOffer(real.ctx, offer);
    m.offers[this.slot] = offer.isLive() ? 'live' : offer.isHeld() ? 'cancelled' : 'none';
    await real.settle(step);
  }

  toString(): string {
    return `deleteOffer(slot ${this.slot})`;
  }
}
