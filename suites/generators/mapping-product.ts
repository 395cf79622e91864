/**
 * mappingRequests.product (spec 2.3). All three fields are nullable with no type
 * shown; they are sent as strings (the names say codes and a description),
 * null, or left out. Codes carry the run id.
 */
import fc from 'fast-check';
import type { MappingProduct } from '../../schemas/types.generated.ts';
import { runTaggedIdArb } from './run-tagged-id.ts';
import { unicodeTextArb } from './unicode-text.ts';

export function mappingProductArb(runId: string): fc.Arbitrary<MappingProduct> {
  return fc.record(
    {
      productCode: fc.option(runTaggedIdArb(runId, 'product'), { nil: null }),
      productCodeExternalId: fc.option(runTaggedIdArb(runId, 'productext'), { nil: null }),
      productDescription: fc.option(unicodeTextArb(80), { nil: null }),
    },
    { requiredKeys: [] },
  );
}
