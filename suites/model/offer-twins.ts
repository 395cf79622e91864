/**
 * Offers as twins for safe reads (suites/model/twin-trial.ts): two offers PUT with the same body (spec 2.3), each
 * with a reference of its own, compared in every view the contract gives an offer: GET /offers/{offerId} (an array of
 * Offer, spec 4.1: the element with the offer's id) and GET /offers over a window around the time of writing, which
 * holds the offer whichever timestamp the server filters on (spec 4.3: not shown). Every documented field of spec 2.2
 * is compared but the id and the offer's own reference; undocumented fields are the server's (a time of retrieval, a
 * revision) and are not.
 */
import { createHash } from 'node:crypto';
import type { OfferWrite } from '../../schemas/types.generated.ts';
import { operationById } from '../../specs/contract.ts';
import {
  type CheckContext,
  type Exchange,
  freshId,
  is2xx,
  offerWriteBody,
  runNow,
  expectationsOf,
  mismatches,
  documentedOffer,
  offerIn,
} from '../lib/index.ts';
import { WHOLE_LIST_BELOW } from '../lib/world/index.ts';
import type { Json, Twins, View, Written } from './twin-trial.ts';

export interface WrittenOffer extends Written {
  id: string;
  reference: string;
  body: OfferWrite;
  batchId: string | undefined;
}

const HOUR = 3_600_000;

/** Two hours either side of the run's clock: the transport timestamps written and the times of writing. */
export function nearWindow(): { start: string; end: string } {
  const now = runNow();
  return { start: new Date(now - 2 * HOUR).toISOString(), end: new Date(now + 2 * HOUR).toISOString() };
}

function shownIn(x: Exchange, r: WrittenOffer): Json | undefined {
  if (!is2xx(x)) return undefined;
  const offer = offerIn(x.response.body, r.id);
  return offer ? documentedOffer(offer, r.reference) : undefined;
}

export const OFFER_BY_ID: View<WrittenOffer> = {
  name: 'GET /offers/{offerId}',
  schema: 'offer-list',
  read: (ctx, r) => ctx.api.op(operationById('getOffer'), { params: { offerId: r.id } }),
  shown: shownIn,
};

export const OFFER_LISTED: View<WrittenOffer> = {
  name: 'GET /offers?start&end',
  schema: 'offer-list',
  read: (ctx) => ctx.api.op(operationById('listOffers'), { query: nearWindow() }),
  shown: shownIn,
  // What a list holds beyond a page is not shown (spec 8): a long one may leave an offer out.
  mayLeaveOut: (x) => !Array.isArray(x.response.body) || x.response.body.length >= WHOLE_LIST_BELOW,
};

/**
 * The body both twins are written with, but for each one's own reference: a transportTimestamp of the pair's own within
 * the window (other tests write the run's clock), so a listing keyed by timestamp has only the twins to choose from.
 */
function twinBody(runId: string): OfferWrite {
  const { settled: _settled, ...body } = offerWriteBody(runId);
  const own = Number.parseInt(createHash('sha256').update(freshId('twin-time', runId)).digest('hex').slice(0, 8), 16);
  const at = new Date(runNow() - HOUR + (own % HOUR)).toISOString();
  return { ...body, offer: { ...body.offer, transportTimestamp: at } };
}

/** PUT /offers/{offerId} of `body` with a reference of the offer's own; registered for cleanup. */
export async function putOffer(ctx: CheckContext, body: OfferWrite, kind = 'twin'): Promise<WrittenOffer> {
  const id = ctx.cleanup.offer(freshId(`${kind}-offer`, ctx.runId));
  const reference = `${id}-ref`;
  const written: OfferWrite = { ...body, offer: { ...body.offer, references: [reference] } };
  const sentAt = Date.now();
  const x = await ctx.api.op(operationById('upsertOffer'), { params: { offerId: id }, json: written });
  ctx.check.expectSuccess(x, `PUT /offers/${id}`);
  ctx.check.expectSchema(x, 'batch-ack', 'spec 2.7');
  const batchId = (x.response.body as { batchId?: unknown } | undefined)?.batchId;
  return {
    id,
    label: `offer ${id}`,
    reference,
    body: written,
    batchId: typeof batchId === 'string' ? batchId : undefined,
    sentAt,
    answeredAt: Date.now(),
  };
}

export function offerTwins(ctx: CheckContext): Twins<WrittenOffer> {
  const body = twinBody(ctx.runId);
  return {
    what: 'offer',
    views: [OFFER_BY_ID, OFFER_LISTED],
    write: (c) => putOffer(c, body),
    written: (shown, r) =>
      mismatches({ ...shown, references: [r.reference] }, expectationsOf(r.body, { created: true })).length === 0,
  };
}
