/** An item of POST /offers/bulk: an offer write body plus its `id` (spec 2.3), which carries the run id. */
import fc from 'fast-check';
import type { OfferBulkItem } from '../../schemas/types.generated.ts';
import { offerWriteBodyArb, type OfferWriteBodyOptions } from './offer-write-body.ts';
import { runTaggedIdArb } from './run-tagged-id.ts';

export function bulkItemArb(runId: string, options: OfferWriteBodyOptions = {}): fc.Arbitrary<OfferBulkItem> {
  return fc
    .tuple(runTaggedIdArb(runId, 'bulk'), offerWriteBodyArb(runId, options))
    .map(([id, body]) => ({ id, ...body }));
}
