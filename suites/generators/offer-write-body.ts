/**
 * The offer write body of POST /offers and PUT /offers/{offerId} (spec 2.3).
 * `offer` is always there (a write without one says nothing to read back);
 * mappingRequests, cancel and settled may each be absent. Pass `cancel: false`
 * to leave the cancel flag out or false, for flows that cancel on purpose.
 */
import fc from 'fast-check';
import type { OfferWrite } from '../../schemas/types.generated.ts';
import { mappingRequestsArb } from './mapping-requests.ts';
import { offerWriteOfferArb, type OfferWriteOfferOptions } from './offer-write-offer.ts';

export interface OfferWriteBodyOptions extends OfferWriteOfferOptions {
  /** false: never `cancel: true` (the flow decides when to cancel). Default: any. */
  cancel?: boolean;
}

export function offerWriteBodyArb(runId: string, options: OfferWriteBodyOptions = {}): fc.Arbitrary<OfferWrite> {
  return fc.record(
    {
      offer: offerWriteOfferArb(runId, options),
      mappingRequests: mappingRequestsArb(runId),
      cancel: options.cancel === false ? fc.constant(false) : fc.boolean(),
      settled: fc.boolean(),
    },
    { requiredKeys: ['offer'] },
  );
}
