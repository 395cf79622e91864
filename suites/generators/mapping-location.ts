/**
 * mappingRequests.fromLocation / toLocation (spec 2.3). Nullable fields are a
 * string, null or absent; the five booleans with default false are true, false
 * or left out (the default); coordinates span their whole ranges. Ids carry the run id.
 */
import fc from 'fast-check';
import type { MappingLocation } from '../../schemas/types.generated.ts';
import { latitudeArb } from './latitude.ts';
import { longitudeArb } from './longitude.ts';
import { runTaggedIdArb } from './run-tagged-id.ts';
import { unicodeTextArb } from './unicode-text.ts';

export function mappingLocationArb(runId: string): fc.Arbitrary<MappingLocation> {
  return fc.record(
    {
      locationId: fc.option(runTaggedIdArb(runId, 'loc'), { nil: null }),
      addressText: fc.option(unicodeTextArb(120), { nil: null }),
      locationExternalId: fc.option(runTaggedIdArb(runId, 'locext'), { nil: null }),
      locationName: fc.option(unicodeTextArb(40), { nil: null }),
      latitude: latitudeArb,
      longitude: longitudeArb,
      saveIfUnknown: fc.boolean(),
      locationNameResolutionEnabled: fc.boolean(),
      useDefaultParentGroup: fc.boolean(),
      parentGroupExternalId: fc.option(runTaggedIdArb(runId, 'groupext'), { nil: null }),
      parentGroupName: fc.option(unicodeTextArb(40), { nil: null }),
      saveGroupIfUnknown: fc.boolean(),
    },
    { requiredKeys: [] },
  );
}
