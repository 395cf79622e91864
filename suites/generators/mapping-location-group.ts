/**
 * mappingRequests.fromLocationGroup / toLocationGroup (spec 2.3): nullable ids
 * (string, null or absent, carrying the run id) and usePrimaryLocation (default
 * false, so sometimes left out).
 */
import fc from 'fast-check';
import type { MappingLocationGroup } from '../../schemas/types.generated.ts';
import { runTaggedIdArb } from './run-tagged-id.ts';

export function mappingLocationGroupArb(runId: string): fc.Arbitrary<MappingLocationGroup> {
  return fc.record(
    {
      groupId: fc.option(runTaggedIdArb(runId, 'group'), { nil: null }),
      externalId: fc.option(runTaggedIdArb(runId, 'groupext'), { nil: null }),
      usePrimaryLocation: fc.boolean(),
      subLocationExternalId: fc.option(runTaggedIdArb(runId, 'sublocext'), { nil: null }),
    },
    { requiredKeys: [] },
  );
}
