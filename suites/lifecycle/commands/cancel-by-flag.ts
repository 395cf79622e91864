/** PUT /offers/{offerId} with cancel: true: cancels the offer (spec 3 rule 4) and applies the rest of the body. */
import fc from 'fast-check';
import type { OfferWrite } from '../../../schemas/types.generated.ts';
import {
  checkModel,
  liveOffers,
  pickLive,
  upsertModel,
  type OfferCommand,
  type OfferModel,
  type Real,
} from '../model.ts';
import { upsertOffer, expectationsOf } from '../../lib/index.ts';

export class CancelByFlagCommand implements OfferCommand {
  constructor(
    readonly pick: number,
    readonly body: OfferWrite,
  ) {}
  check(m: Readonly<OfferModel>): boolean {
    return liveOffers(m).length > 0;
  }
  async run(m: OfferModel, real: Real): Promise<void> {
    const target = pickLive(m, this.pick);
    if (!target) throw new Error('cancel ran without a live offer: check() should have prevented it');
    const body = { ...this.body, cancel: true };
    const { batchIds } = await upsertOffer(real.ctx, target.id, body);
    upsertModel(m, {
      ...target,
      expectations: expectationsOf(body, { created: false }),
      canceled: true,
      body,
      write: { kind: 'update' },
    });
    await checkModel(real, m, this.toString(), batchIds);
    // Only once it reads cancelled: an offer the server left live must still be cleaned up.
    real.ctx.cleanup.offerCancelled(target.id);
  }
  toString(): string {
    return `cancelByFlag(live offer #${this.pick}, PUT ${fc.stringify({ ...this.body, cancel: true })})`;
  }
}
