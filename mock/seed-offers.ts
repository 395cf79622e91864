/** Seeded offers: delivered loads across the carriers, every price strategy and a null one. */
import type { Directory } from './directory.ts';
import { isoSeconds } from './formats.ts';
import { createOffer, priceStrategies, type Offer } from './offer-model.ts';
import { locationOf, places } from './seed-directory.ts';
import { pick, seedTime, type Ref } from './seed-refs.ts';

function seededOffer(ref: Ref, dir: Directory, n: number): Offer {
  const carrier = pick(dir.carriers, n);
  const body = {
    offer: {
      references: [`ALB-${String(88_000 + n * 13)}`, `PO-${String(77_100 + n)}`],
      offerVersion: String(1 + (n % 3)),
      bookingId: ref('booking', n % 4),
      carrierId: carrier.id,
      quantity: 26 - n,
      noPayment: n === 5,
      properties: n % 2 === 0 ? { temperatureControlled: n % 4 === 0, customerRef: `CR-${String(n)}` } : null,
      productSpatialRequirement: n % 3 === 0 ? 'FULL_TRAILER' : null,
      productMassKg: 24_000 - n * 1_150,
      priceTransport: 520 + n * 41,
      priceFaf: Math.round((520 + n * 41) * 8) / 100,
      fromLocation: locationOf(pick(places, n), ref, n % places.length),
      toLocation: locationOf(pick(places, n + 3), ref, (n + 3) % places.length),
      transportTimestamp: isoSeconds(seedTime(14 + n * 6, 6 + (n % 5))),
    },
    mappingRequests: {
      product: { productCode: 'CHL-PAL', productCodeExternalId: 'PRD-CHL-PAL', productDescription: 'Chilled pallet' },
    },
    settled: n < 4,
  };
  const offer = createOffer(ref('offer', n), body, dir);
  return {
    ...offer,
    status: 'Delivered',
    queried: n === 2,
    content: [{ description: 'Chilled pallets', quantity: 26 - n }],
    priceStrategy: n < priceStrategies.length ? pick(priceStrategies, n) : null,
    priceTransportAdjustmentReasons: n === 1 ? ['Waiting time'] : [],
    priceTransportAdjustment: n === 1 ? 45 : null,
  };
}

export function seedOffers(ref: Ref, dir: Directory): Offer[] {
  return Array.from({ length: 8 }, (_, n) => seededOffer(ref, dir, n));
}
