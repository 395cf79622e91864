/**
 * Whether an offer shows yet. Writes are asynchronous (spec 1), so a set-up offer is read until it shows, within the
 * target's visibility deadline (pollVisible), before a check or the cleanup relies on it.
 */
import { operationById } from '../../specs/contract.ts';
import type { FlisClient } from '../../core/client.ts';
import { type Exchange, is2xx } from '../../core/exchange.ts';
import type { PollResult } from '../../core/poll.ts';
import { pollVisible } from './visibility-deadline.ts';

/** GET /offers/{offerId} answers an array of Offer (spec 4.1): visible means a 2xx with at least one element. */
function offerVisible(x: Exchange): boolean {
  return is2xx(x) && Array.isArray(x.response.body) && x.response.body.length > 0;
}

export function waitForOffer(api: FlisClient, offerId: string): Promise<PollResult<Exchange>> {
  return pollVisible(() => api.op(operationById('getOffer'), { params: { offerId } }), offerVisible);
}
