/**
 * The Location object of spec 2.1, as an offer write carries it. Every field is
 * optional in the spec, so each may be absent; `properties` may also be null.
 * Ids carry the run id.
 */
import fc from 'fast-check';
import type { Location } from '../../schemas/types.generated.ts';
import { keyValueArb } from './key-value.ts';
import { latitudeArb } from './latitude.ts';
import { longitudeArb } from './longitude.ts';
import { runTaggedIdArb } from './run-tagged-id.ts';
import { timeZoneArb } from './time-zone.ts';
import { unicodeTextArb } from './unicode-text.ts';

export function locationArb(runId: string): fc.Arbitrary<Location> {
  return fc.record(
    {
      addressText: unicodeTextArb(120),
      latitude: latitudeArb,
      longitude: longitudeArb,
      locationName: unicodeTextArb(40),
      locationId: runTaggedIdArb(runId, 'loc'),
      externalId: runTaggedIdArb(runId, 'locext'),
      timezone: timeZoneArb,
      properties: fc.option(keyValueArb, { nil: null }),
    },
    { requiredKeys: [] },
  );
}
