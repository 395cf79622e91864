/**
 * PUT /offers/{offerId} to a live offer: updates it (spec 1). The body never
 * carries cancel: true (that is cancel-by-flag); what an update does to a
 * cancelled offer is not shown, so only live offers are updated.
 */
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

export class UpdateCommand implements OfferCommand {
  constructor(
    readonly pick: number,
    readonly body: OfferWrite,
  ) {}
  check(m: Readonly<OfferModel>): boolean {
    return liveOffers(m).length > 0;
  }
  async run(m: OfferModel, real: Real): Promise<void> {
    const target = pickLive(m, this.pick);
    if (!target) throw new Error('update ran without a live offer: check() should have prevented it');
    const { batchIds } = await upsertOffer(real.ctx, target.id, this.body);
    upsertModel(m, {
      ...target,
      expectations: expectationsOf(this.body, { created: false }),
      canceled: false,
      body: this.body,
      write: { kind: 'update' },
    });
    await checkModel(real, m, this.toString(), batchIds);
  }
  toString(): string {
    return `update(live offer #${this.pick}, PUT ${fc.stringify(this.body)})`;
  }
}
