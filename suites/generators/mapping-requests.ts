/**
 * The `mappingRequests` object of an offer write body (spec 2.3), every part
 * optional. `content` is nullable with no type shown, so it is null or absent.
 */
import fc from 'fast-check';
import type { MappingRequests } from '../../schemas/types.generated.ts';
import { mappingCarrierArb } from './mapping-carrier.ts';
import { mappingLocationGroupArb } from './mapping-location-group.ts';
import { mappingLocationArb } from './mapping-location.ts';
import { mappingProductArb } from './mapping-product.ts';

export function mappingRequestsArb(runId: string): fc.Arbitrary<MappingRequests> {
  return fc.record(
    {
      carrier: mappingCarrierArb(runId),
      content: fc.constant(null),
      product: mappingProductArb(runId),
      fromLocation: mappingLocationArb(runId),
      toLocation: mappingLocationArb(runId),
      fromLocationGroup: mappingLocationGroupArb(runId),
      toLocationGroup: mappingLocationGroupArb(runId),
    },
    { requiredKeys: [] },
  );
}
