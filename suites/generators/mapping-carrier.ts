/** mappingRequests.carrier (spec 2.3): resolve the carrier by its external id, which carries the run id. */
import fc from 'fast-check';
import type { MappingCarrier } from '../../schemas/types.generated.ts';
import { runTaggedIdArb } from './run-tagged-id.ts';

export function mappingCarrierArb(runId: string): fc.Arbitrary<MappingCarrier> {
  return fc.record({ carrierExternalId: runTaggedIdArb(runId, 'carrierext') }, { requiredKeys: [] });
}
