/**
 * Offers the suite writes for itself. Ids carry the run id; every offer written
 * is cancelled again (DELETE marks it cancelled, spec 3 rule 4) once it is
 * visible, because writes are asynchronous (spec 1) and a DELETE that overtakes
 * its create could miss it.
 */
import { operationById } from '../../specs/contract.ts';
import type { FlisClient } from '../lib/client.ts';
import { type Exchange, is2xx } from '../lib/exchange.ts';
import type { PollResult } from '../lib/poll.ts';
import type { CheckContext } from '../lib/check-test.ts';
import { pollVisible } from '../lib/property.ts';
import { offerWriteBody, taggedId } from '../lib/fixtures.ts';

/** GET /offers/{offerId} answers an array of Offer (spec 4.1): visible means a 2xx with at least one element. */
export function offerVisible(x: Exchange): boolean {
  return is2xx(x) && Array.isArray(x.response.body) && x.response.body.length > 0;
}

export function waitForOffer(api: FlisClient, offerId: string): Promise<PollResult<Exchange>> {
  return pollVisible(() => api.op(operationById('getOffer'), { params: { offerId } }), offerVisible);
}

/** Best effort: wait (up to the deadline) for the offer to show, then cancel it. */
export async function cancelOffer(api: FlisClient, offerId: string): Promise<Exchange> {
  await waitForOffer(api, offerId);
  return api.op(operationById('deleteOffer'), { params: { offerId } });
}

export interface WrittenOffer {
  id: string;
  exchange: Exchange;
  /** The test cancelled it itself; the undo step then has nothing to do. */
  markCancelled(): void;
}

/** Creates an offer by upsert (PUT to a path carrying the id creates it, spec 1) and registers its cancellation. */
export async function putOffer(ctx: CheckContext, what = 'set-up offer'): Promise<WrittenOffer> {
  const id = taggedId(ctx.runId, 'offer');
  const exchange = await ctx.api.op(operationById('upsertOffer'), {
    params: { offerId: id },
    json: offerWriteBody(ctx.runId),
  });
  let cancelled = false;
  ctx.cleanup.add(`cancel ${what} ${id}`, async () => (cancelled ? undefined : cancelOffer(ctx.api, id)));
  if (!is2xx(exchange)) {
    ctx.check.fail(
      `could not write the ${what}: PUT /offers/{offerId} answered ${exchange.response.status}`,
      { exchanges: [exchange] },
      'spec 4.1',
    );
  }
  return { id, exchange, markCancelled: () => (cancelled = true) };
}

/** Writes an offer and waits until it can be read; a miss after the deadline fails (spec 1: the write must become visible). */
export async function putVisibleOffer(
  ctx: CheckContext,
  what = 'set-up offer',
): Promise<WrittenOffer & { read: Exchange }> {
  const offer = await putOffer(ctx, what);
  const seen = await waitForOffer(ctx.api, offer.id);
  if (!seen.ok) {
    ctx.check.fail(
      `the ${what} ${offer.id} (PUT answered ${offer.exchange.response.status}) was not readable through GET /offers/{offerId} within ${seen.elapsedMs} ms (FLIS_VISIBILITY_TIMEOUT_MS); last answer ${seen.value.response.status}`,
      { exchanges: [offer.exchange, seen.value] },
      'spec 1',
    );
  }
  return { ...offer, read: seen.value };
}

/** Registers cancellation of offers a write under test may have created (ids from the body or the ack). */
export function cancelLater(ctx: CheckContext, ids: readonly string[], what: string): void {
  for (const id of ids) ctx.cleanup.add(`cancel ${what} ${id}`, () => cancelOffer(ctx.api, id));
}
