/**
 * The Offer record (spec 2.2) and how a write body (spec 2.3) turns into one.
 * Written fields are stored exactly as written; the fields a client never
 * writes (carrier name, corporate account, districts, distance) are derived.
 */
import { carrierByExternalId, carrierById, districtFor, type Directory } from './directory.ts';
import type { Offer as OfferShape } from '../schemas/types.generated.ts';
import { isoSeconds, sameInstantInUtc } from './formats.ts';
import { asObject, clone, isObject, numberOrUndefined, type JsonObject } from './json.ts';

export const priceStrategies = ['Deferred', 'Fixed', 'Group', 'Precision', 'Provided'] as const;
export type PriceStrategy = (typeof priceStrategies)[number];

/** The Offer response shape (spec 2.2), derived from schemas/offer.schema.json. */
export type Offer = OfferShape;

/** The `offer` fields a client writes and must read back unchanged (metadata is accepted but not returned). */
export const writtenOfferFields = [
  'references',
  'offerVersion',
  'bookingId',
  'carrierId',
  'quantity',
  'properties',
  'noPayment',
  'productSpatialRequirement',
  'productMassKg',
  'priceTransport',
  'priceFaf',
  'fromLocation',
  'toLocation',
  'transportTimestamp',
] as const;

/** Status of an offer the client has just written; spec 3 shows only "Delivered", which a new offer is not yet. */
// Stryker disable next-line StringLiteral: spec 3 the complete list of status values is not shown
const NEW_OFFER_STATUS = 'Open';

function blankOffer(id: string, dir: Directory): Offer {
  const carrier = dir.carriers[0];
  const c = dir.corporate;
  return {
    id,
    references: [],
    offerVersion: '1',
    bookingId: dir.newId('booking'),
    canceled: false,
    carrierId: carrier?.id ?? '',
    carrierExternalId: carrier?.externalId ?? '',
    carrierName: carrier?.name ?? '',
    corporateId: c.id,
    corporateName: c.name,
    corporateSubaccountId: c.subaccountId,
    corporateSubaccountName: c.subaccountName,
    corporateSubaccountIntegrationId: c.subaccountIntegrationId,
    transportRequirementsId: dir.newId('transport-requirements'),
    productCode: null,
    productCodeName: null,
    productCodeExternalId: null,
    properties: null,
    productSpatialRequirement: null,
    productMassKg: null,
    content: [],
    quantity: 1,
    noPayment: false,
    distanceKm: 0,
    sourceId: 'flis-api',
    priceTransport: null,
    priceFaf: null,
    priceStrategy: null,
    priceTransportAdjustmentReasons: [],
    priceTransportAdjustment: null,
    fromLocation: clone(c.depot),
    toLocation: clone(c.depot),
    fromLocationDistrict: '',
    fromLocationDistrictId: '',
    fromLocationRegion: '',
    toLocationDistrict: '',
    toLocationDistrictId: '',
    toLocationRegion: '',
    transportTimestamp: isoSeconds(Date.now()),
    settled: false,
    queried: false,
    status: NEW_OFFER_STATUS,
  };
}

function copyWrittenFields(offer: Offer, written: JsonObject): void {
  const target = offer as unknown as JsonObject;
  // The body passed the offer-write schema (or the lenient variant's reading of it): fields are stored as written.
  for (const field of writtenOfferFields) if (field in written) target[field] = clone(written[field]);
  const at = written.transportTimestamp;
  // Timestamps are answered in UTC (spec 2): a time written at another offset is kept as the same instant.
  if (typeof at === 'string') target.transportTimestamp = sameInstantInUtc(at);
}

function applyCarrierMapping(offer: Offer, mapping: JsonObject, written: JsonObject, dir: Directory): void {
  const externalId = asObject(mapping.carrier).carrierExternalId;
  if (typeof externalId !== 'string') {
    if ('carrierId' in written)
      offer.carrierExternalId = carrierById(dir, offer.carrierId)?.externalId ?? `EXT-${offer.carrierId}`;
    return;
  }
  offer.carrierExternalId = externalId;
  const known = carrierByExternalId(dir, externalId);
  if (known && !('carrierId' in written)) offer.carrierId = known.id;
}

function applyProductMapping(offer: Offer, mapping: JsonObject): void {
  if (!isObject(mapping.product)) return;
  const p = mapping.product;
  if ('productCode' in p) offer.productCode = clone(p.productCode);
  if ('productCodeExternalId' in p) offer.productCodeExternalId = clone(p.productCodeExternalId);
  if ('productDescription' in p) offer.productCodeName = clone(p.productDescription);
}

function applyContentMapping(offer: Offer, mapping: JsonObject): void {
  if (!('content' in mapping)) return;
  const content = mapping.content;
  offer.content = Array.isArray(content) ? clone(content) : content === null ? [] : [clone(content)];
}

/** A location described only through mappingRequests still has to come back as a Location object (spec 2.1). */
function locationFromMapping(current: JsonObject, mapping: unknown): JsonObject {
  const m = asObject(mapping);
  const next: JsonObject = { ...current };
  for (const [from, to] of [
    ['addressText', 'addressText'],
    ['locationName', 'locationName'],
    ['locationId', 'locationId'],
    ['locationExternalId', 'externalId'],
  ] as const) {
    if (typeof m[from] === 'string') next[to] = m[from];
  }
  for (const key of ['latitude', 'longitude'] as const) if (numberOrUndefined(m[key]) !== undefined) next[key] = m[key];
  return next;
}

function applyLocationMappings(offer: Offer, mapping: JsonObject, written: JsonObject): void {
  if (!('fromLocation' in written) && 'fromLocation' in mapping)
    offer.fromLocation = locationFromMapping(offer.fromLocation, mapping.fromLocation);
  if (!('toLocation' in written) && 'toLocation' in mapping)
    offer.toLocation = locationFromMapping(offer.toLocation, mapping.toLocation);
}

function haversineKm(a: JsonObject, b: JsonObject): number | undefined {
  const [lat1, lon1, lat2, lon2] = [a.latitude, a.longitude, b.latitude, b.longitude].map(numberOrUndefined);
  if (lat1 === undefined || lon1 === undefined || lat2 === undefined || lon2 === undefined) return undefined;
  const rad = Math.PI / 180;
  const h =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Fields the service computes: recomputed after every write so they follow the written ones. */
function derive(offer: Offer, dir: Directory): void {
  offer.carrierName = carrierById(dir, offer.carrierId)?.name ?? `Carrier ${String(offer.carrierId)}`;
  const from = districtFor(dir, asObject(offer.fromLocation));
  const to = districtFor(dir, asObject(offer.toLocation));
  Object.assign(offer, {
    fromLocationDistrict: from.name,
    fromLocationDistrictId: from.id,
    fromLocationRegion: from.region,
    toLocationDistrict: to.name,
    toLocationDistrictId: to.id,
    toLocationRegion: to.region,
  });
  const crowFlies = haversineKm(asObject(offer.fromLocation), asObject(offer.toLocation));
  // Road distance is longer than the great circle; 1.25 is a common planning factor.
  if (crowFlies !== undefined) offer.distanceKm = Math.round(crowFlies * 1.25 * 10) / 10;
}

/** The offer after one write body: a merge of the written fields into `current` (spec 1: upserts). */
export function applyWrite(current: Offer, body: unknown, dir: Directory): Offer {
  const next = clone(current);
  const b = asObject(body);
  const written = asObject(b.offer);
  const mapping = asObject(b.mappingRequests);
  copyWrittenFields(next, written);
  applyCarrierMapping(next, mapping, written, dir);
  applyProductMapping(next, mapping);
  applyContentMapping(next, mapping);
  applyLocationMappings(next, mapping, written);
  if (typeof b.cancel === 'boolean') next.canceled = b.cancel;
  if (typeof b.settled === 'boolean') next.settled = b.settled;
  derive(next, dir);
  return next;
}

export function createOffer(id: string, body: unknown, dir: Directory): Offer {
  return applyWrite(blankOffer(id, dir), body, dir);
}
