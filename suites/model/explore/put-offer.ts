/**
 * PUT /offers/{offerId} at a slot id (spec 1, 4.1): creates the offer or updates a live one. Its booking is a fresh
 * id, or none (a default several offers share). An update of a cancelled offer is left out: whether it revives the
 * offer is not shown.
 */
import { offerBody, offerIn, putOffer } from '../../lib/world/index.ts';
import { type ExploreCommand, type Explored, type Real, slotId } from './model.ts';

export class PutOfferCommand implements ExploreCommand {
  constructor(
    readonly slot: number,
    readonly withBooking: boolean,
    readonly quantity: number,
  ) {}

  check(m: Readonly<Explored>): boolean {
    return m.offers[this.slot] !== 'cancelled';
  }

  async run(m: Explored, real: Real): Promise<void> {
    const offer = offerIn(real.world, slotId(real, this.slot));
    const { step } = await putOffer(real.ctx, offer, offerBody(real.ctx, this.quantity, this.withBooking));
    m.offers[this.slot] = offer.isHeld() ? 'live' : 'none';
    await real.settle(step);
  }

  toString(): string {
    return `putOffer(slot ${this.slot}, ${this.withBooking ? 'with a booking' : 'no booking'}, quantity ${this.quantity})`;
  }
}
