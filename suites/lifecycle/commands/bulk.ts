/**
 * POST /offers/bulk mixing new ids and live offers (spec 2.3, 4.1): each item
 * creates or updates the offer under its own id. One item per id: what a bulk
 * does with two items for the same id is not shown.
 */
import fc from 'fast-check';
import type { OfferWrite } from '../../../schemas/types.generated.ts';
import {
  checkModel,
  MAX_OFFERS,
  pickLive,
  upsertModel,
  type OfferCommand,
  type OfferModel,
  type Real,
} from '../model.ts';
import { bulkWriteOffers, expectationsOf, freshId } from '../../lib/index.ts';

export interface BulkEntry {
  /** Index of a live offer to update, or 'new'. */
  target: number | 'new';
  body: OfferWrite;
}

export class BulkCommand implements OfferCommand {
  constructor(readonly entries: BulkEntry[]) {}
  check(m: Readonly<OfferModel>): boolean {
    return m.offers.length + this.entries.length <= MAX_OFFERS + 2;
  }
  async run(m: OfferModel, real: Real): Promise<void> {
    const used = new Set<string>();
    const items = this.entries.map((e) => {
      const existing = e.target === 'new' ? undefined : pickLive(m, e.target);
      const id = existing && !used.has(existing.id) ? existing.id : real.ctx.cleanup.offer(freshId('bulk'));
      used.add(id);
      return { item: { ...e.body, id }, created: id !== existing?.id, existing };
    });
    const sent = items.map((i) => i.item);
    const { batchIds } = await bulkWriteOffers(real.ctx, sent);
    for (const [index, { item, created, existing }] of items.entries())
      upsertModel(m, {
        ...(created ? {} : existing),
        id: item.id,
        expectations: expectationsOf(item, { created }),
        canceled: false,
        body: item,
        write: { kind: 'bulk', items: sent, index, updated: !created },
      });
    await checkModel(real, m, this.toString(), batchIds);
  }
  toString(): string {
    return `bulk(${this.entries.map((e) => `${e.target === 'new' ? 'new id' : `live offer #${e.target}`}: ${fc.stringify(e.body)}`).join('; ')})`;
  }
}
