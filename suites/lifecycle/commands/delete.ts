/** DELETE /offers/{offerId}: cancels the offer (spec 3 rule 4); everything else it held stays as it was. */
import {
  checkModel,
  liveOffers,
  pickLive,
  upsertModel,
  type OfferCommand,
  type OfferModel,
  type Real,
} from '../model.ts';
import { deleteOffer } from '../../lib/index.ts';

export class DeleteCommand implements OfferCommand {
  constructor(readonly pick: number) {}
  check(m: Readonly<OfferModel>): boolean {
    return liveOffers(m).length > 0;
  }
  async run(m: OfferModel, real: Real): Promise<void> {
    const target = pickLive(m, this.pick);
    if (!target) throw new Error('delete ran without a live offer: check() should have prevented it');
    const { batchIds } = await deleteOffer(real.ctx, target.id);
    upsertModel(m, { ...target, canceled: true, deleted: true });
    await checkModel(real, m, this.toString(), batchIds);
    // Only once it reads cancelled: an offer the server left live must still be cleaned up.
    real.ctx.cleanup.offerCancelled(target.id);
  }
  toString(): string {
    return `delete(live offer #${this.pick})`;
  }
}
