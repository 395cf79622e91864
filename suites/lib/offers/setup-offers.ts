/**
 * Set-up offers, for checks that judge something else (the contract suite: an offer to read, list, address or
 * cancel): a PUT whose ack is not judged, registered for cleanup, which cancels it once it shows when the test ends
 * (a DELETE that overtakes its create could miss it).
 */
import type { OfferWrite } from '../../../schemas/types.generated.ts';
import { operationById } from '../../../specs/contract.ts';
import type { CheckContext } from '../check-context.ts';
import { type Exchange, is2xx } from '../../../core/exchange.ts';
import { offerWriteBody } from '../fixtures.ts';
import { freshId } from '../fresh-id.ts';
import { pollVisible } from '../visibility-deadline.ts';
import { waitForOffer } from '../offer-visible.ts';

export interface WrittenOffer {
  id: string;
  exchange: Exchange;
}

/**
 * Creates an offer by upsert (PUT to a path carrying the id creates it, spec 1), registered for cleanup, which
 * cancels it once it shows (a test that cancels it itself says so with `ctx.cleanup.offerCancelled`).
 */
export async function putOffer(ctx: CheckContext, what = 'set-up offer'): Promise<WrittenOffer> {
  const id = ctx.cleanup.offer(freshId('offer', ctx.runId), { awaitVisible: true });
  const exchange = await ctx.api.op(operationById('upsertOffer'), {
    params: { offerId: id },
    json: offerWriteBody(ctx.runId),
  });
  if (!is2xx(exchange)) {
    ctx.check.fail(
      `could not write the ${what}: PUT /offers/{offerId} answered ${exchange.response.status}`,
      { exchanges: [exchange] },
      'spec 4.1',
    );
  }
  return { id, exchange };
}

/**
 * The read of an offer written with `body`, once it shows; undefined when the server refuses the write (4xx: a
 * field it needs is left out, which is its right) or it does not show in time (visibility is another check's).
 */
export async function readOfferWrittenAs(ctx: CheckContext, body: OfferWrite): Promise<Exchange | undefined> {
  const id = freshId('offer', ctx.runId);
  const exchange = await ctx.api.op(operationById('upsertOffer'), { params: { offerId: id }, json: body });
  if (!is2xx(exchange)) return undefined;
  ctx.cleanup.offer(id, { awaitVisible: true });
  const seen = await waitForOffer(ctx.api, id);
  return seen.ok ? seen.value : undefined;
}

/**
 * The read of offer `id` after a PUT of `body` to it shows `offerVersion` (a server may answer earlier versions beside
 * it: spec 4.1 says "array of Offer"); undefined when the PUT is refused or the version does not show in time.
 */
export async function readOfferUpdatedTo(
  ctx: CheckContext,
  id: string,
  body: OfferWrite,
  offerVersion: string,
): Promise<Exchange | undefined> {
  const put = await ctx.api.op(operationById('upsertOffer'), { params: { offerId: id }, json: body });
  if (!is2xx(put)) return undefined;
  const shows = (x: Exchange) =>
    is2xx(x) &&
    Array.isArray(x.response.body) &&
    x.response.body.some((o) => (o as { offerVersion?: unknown } | null)?.offerVersion === offerVersion);
  const seen = await pollVisible(() => ctx.api.op(operationById('getOffer'), { params: { offerId: id } }), shows);
  return seen.ok ? seen.value : undefined;
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
