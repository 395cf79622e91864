/** Latitudes over the whole range −90..90, the poles and the equator included. */
import fc from 'fast-check';

export const latitudeArb: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(-90, 90, 0),
  fc.double({ min: -90, max: 90, noNaN: true }),
  // Six decimals: the precision most location data really has.
  fc.integer({ min: -90_000_000, max: 90_000_000 }).map((n) => n / 1_000_000),
);
