/**
 * The `offer` object of an offer write body (spec 2.3). All fields optional
 * (the spec marks none required). Fields whose type the spec does not show
 * (productSpatialRequirement, productMassKg, metadata, priceTransport, priceFaf)
 * are only ever null or absent: any other value would be a guess at a type a
 * conformant server may refuse. `noPayment` is sometimes left out to exercise
 * its default (false). References: empty, one, or long lists, and lists in
 * descending order (a JSON array reads back in the order written; the listed
 * edges of offer-edge-bodies.ts reach it on every run).
 */
import fc from 'fast-check';
import type { OfferWriteOffer } from '../../schemas/types.generated.ts';
import { dateTimeArb } from './date-time.ts';
import { keyValueArb } from './key-value.ts';
import { locationArb } from './location.ts';
import { runTaggedIdArb } from './run-tagged-id.ts';

export interface OfferWriteOfferOptions {
  /** The transportTimestamp values to draw from; default: any UTC date-time of dateTimeArb. */
  transportTimestamp?: fc.Arbitrary<string>;
}

const quantityArb = fc.oneof(
  fc.integer({ min: 0, max: 1_000_000 }),
  // Three decimals: fractional quantities (tonnes, cubic metres) without float noise.
  fc.integer({ min: 0, max: 1_000_000_000 }).map((n) => n / 1000),
);

const untypedArb = fc.constant(null);

export function offerWriteOfferArb(runId: string, options: OfferWriteOfferOptions = {}): fc.Arbitrary<OfferWriteOffer> {
  return fc.record(
    {
      references: fc.oneof(
        fc.constant([] as string[]),
        fc.array(runTaggedIdArb(runId, 'ref'), { minLength: 1, maxLength: 3 }),
        fc.array(runTaggedIdArb(runId, 'ref'), { minLength: 20, maxLength: 60 }),
        fc.array(runTaggedIdArb(runId, 'ref'), { minLength: 2, maxLength: 5 }).map((xs) => [...xs].sort().reverse()),
      ),
      offerVersion: runTaggedIdArb(runId, 'v'),
      bookingId: runTaggedIdArb(runId, 'booking'),
      carrierId: runTaggedIdArb(runId, 'carrier'),
      quantity: quantityArb,
      properties: fc.option(keyValueArb, { nil: null }),
      noPayment: fc.boolean(),
      productSpatialRequirement: untypedArb,
      productMassKg: untypedArb,
      metadata: untypedArb,
      priceTransport: untypedArb,
      priceFaf: untypedArb,
      fromLocation: locationArb(runId),
      toLocation: locationArb(runId),
      transportTimestamp: options.transportTimestamp ?? dateTimeArb(),
    },
    { requiredKeys: [] },
  );
}
