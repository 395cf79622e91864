/**
 * Writes to offers that keep the world's model of them in step (suites/lib/world/offer-record.ts): a PUT that answered
 * 2xx holds what its body wrote, a DELETE that answered 2xx holds the offer cancelled (spec 3 rule 4), a refused write
 * frees it. The booking an offer names is a fresh id, or none (a default several offers share): what a booking's own
 * writes do to the offers naming it is not shown, so the model never ties an offer to a booking it writes.
 */
import type { OfferWrite } from '../../../schemas/types.generated.ts';
import { operationById } from '../../../specs/contract.ts';
import type { CheckContext } from '../check-test.ts';
import { type Exchange, is2xx } from '../exchange.ts';
import { offerWriteBody } from '../fixtures.ts';
import { expectationsOf } from '../readback.ts';
import { OfferRecord } from './offer-record.ts';
import { Step } from './step.ts';
import type { World } from './world.ts';

/** The offer at `id` in the world, added the first time it is asked for. */
export function offerIn(world: World, id: string): OfferRecord {
  const key = `/offers/${id}`;
  const known = world.get(key);
  if (known instanceof OfferRecord) return known;
  const offer = new OfferRecord(id);
  world.add(key, offer);
  return offer;
}

/** A complete offer body (spec 2.3) with `quantity`, naming a fresh booking or none. */
export function offerBody(ctx: CheckContext, quantity: number, withBooking: boolean): OfferWrite {
  const written = offerWriteBody(ctx.runId);
  const { bookingId, ...rest } = written.offer ?? {};
  return { ...written, offer: { ...rest, quantity, ...(withBooking ? { bookingId } : {}) } };
}

export async function putOffer(
  ctx: CheckContext,
  offer: OfferRecord,
  body: OfferWrite,
): Promise<{ x: Exchange; step: Step }> {
  ctx.cleanup.offer(offer.id);
  const x = await ctx.api.op(operationById('upsertOffer'), { params: { offerId: offer.id }, json: body });
  if (is2xx(x)) offer.wrote(expectationsOf(body, { created: !offer.isHeld() }));
  else offer.free();
  return { x, step: Step.write(`PUT /offers/${offer.id}`, [offer.key]) };
}

export async function deleteOffer(ctx: CheckContext, offer: OfferRecord): Promise<{ x: Exchange; step: Step }> {
  const x = await ctx.api.op(operationById('deleteOffer'), { params: { offerId: offer.id } });
  if (is2xx(x)) offer.cancelled();
  else offer.free();
  return { x, step: Step.write(`DELETE /offers/${offer.id}`, [offer.key]) };
}
