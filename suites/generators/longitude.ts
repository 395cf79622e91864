/** Longitudes over the whole range −180..180, the antimeridian and Greenwich included. */
import fc from 'fast-check';

export const longitudeArb: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(-180, 180, 0),
  fc.double({ min: -180, max: 180, noNaN: true }),
  fc.integer({ min: -180_000_000, max: 180_000_000 }).map((n) => n / 1_000_000),
);
