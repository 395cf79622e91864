/**
 * What the contract suite sends: ids tagged with the run id (so anything the
 * suite leaves behind on a deployment can be found and attributed), valid write
 * bodies built from the documented shapes of spec 2.3 and 4.2, and deliberately
 * bad bodies for the no-5xx probes.
 */
import { validate, type SchemaName } from '../../schemas/registry.ts';
import type {
  BillingGroupStatusUpdateItem,
  Location,
  OfferBulkItem,
  OfferWrite,
} from '../../schemas/types.generated.ts';
import type { Operation } from '../../specs/contract.ts';
import { runNow } from './clock.ts';
import { freshId } from './fresh-id.ts';

/** Values for every path parameter of an operation, naming records that should not exist. */
export function placeholderParams(op: Operation, runId: string): Record<string, string> {
  return Object.fromEntries(op.pathParams.map((p) => [p, `${runId}-${p}-placeholder`]));
}

function location(name: string, runId: string, lat: number, lon: number): Location {
  return {
    addressText: `${name}, Testing Road 1`,
    latitude: lat,
    longitude: lon,
    locationName: name,
    locationId: `${runId}-location-${name.toLowerCase()}`,
    externalId: `${runId}-ext-${name.toLowerCase()}`,
    timezone: 'Europe/Berlin',
    properties: null,
  };
}

/** A complete offer write body (spec 2.3); every reference carries the run id. */
export function offerWriteBody(runId: string): OfferWrite {
  return {
    offer: {
      references: [freshId('ref', runId)],
      offerVersion: '1',
      bookingId: freshId('booking', runId),
      carrierId: `${runId}-carrier`,
      quantity: 3,
      properties: null,
      noPayment: false,
      fromLocation: location('Hamburg', runId, 53.55, 9.99),
      toLocation: location('Munich', runId, 48.14, 11.58),
      transportTimestamp: new Date(runNow()).toISOString(),
    },
    cancel: false,
    settled: false,
  };
}

/**
 * Writes that leave out what the others always carry: one coordinate of a location each (every other one there, so
 * a server that computes from the four sees exactly one missing), and the transportTimestamp (the spec marks no field
 * of 2.1 or 2.3 required). A server may refuse them (required-ness is its choice); the offers they make are still
 * Offers, distanceKm a number and transportTimestamp a date-time (spec 2.2), whatever a server computes them from.
 */
export function sparseOfferWriteBodies(runId: string): OfferWrite[] {
  const drop = (side: 'fromLocation' | 'toLocation', coordinate: 'latitude' | 'longitude'): OfferWrite => {
    const body = offerWriteBody(runId);
    const { transportTimestamp: _at, ...offer } = body.offer ?? {};
    const { [coordinate]: _gone, ...location } = offer[side] ?? {};
    return { ...body, offer: { ...offer, [side]: location } };
  };
  return [
    drop('fromLocation', 'latitude'),
    drop('fromLocation', 'longitude'),
    drop('toLocation', 'latitude'),
    drop('toLocation', 'longitude'),
  ];
}

/**
 * A write whose transportTimestamp is the run's time at +02:00: a server may refuse it, or keep the instant, but
 * answers it in UTC (spec 2: timestamps are date-times in UTC), not as written.
 */
export function offsetOfferWriteBody(runId: string): OfferWrite {
  const body = offerWriteBody(runId);
  const local = new Date(runNow() + 2 * 3_600_000).toISOString().slice(0, 19);
  return { ...body, offer: { ...body.offer, transportTimestamp: `${local}+02:00` } };
}

export function offerBulkItem(runId: string): OfferBulkItem {
  return { id: freshId('offer', runId), ...offerWriteBody(runId) };
}

/** Status "Booked" is the one value spec 3 shows, so it is the one a suite may write without guessing. */
export const SHOWN_BILLING_GROUP_STATUS = 'Booked';

export function statusUpdateItem(
  billingGroupId: string,
  status = SHOWN_BILLING_GROUP_STATUS,
): BillingGroupStatusUpdateItem {
  return { billingGroupId, status, deleteStatus: false };
}

/**
 * A body the operation would accept if it were authorised: the documented shape
 * for 4.1/4.2, a small JSON object for 4.3 (whose bodies are not shown). Used by
 * the auth probes so that only the missing or wrong token can explain a refusal.
 */
export function validLookingBody(op: Operation, runId: string, params: Record<string, string>): unknown {
  if (op.method === 'get' || op.method === 'delete') return undefined;
  const byRequestSchema: Partial<Record<SchemaName, () => unknown>> = {
    'offer-write': () => offerWriteBody(runId),
    'offer-bulk': () => [offerBulkItem(runId)],
    'billing-group-status': () => ({ status: SHOWN_BILLING_GROUP_STATUS }),
    'billing-group-status-update': () => [
      statusUpdateItem(params.billingGroupId ?? `${runId}-billingGroupId-placeholder`),
    ],
  };
  const make = op.requestSchema ? byRequestSchema[op.requestSchema] : undefined;
  if (op.requestSchema && !make)
    throw new Error(
      `no valid body for request schema ${op.requestSchema} of ${op.operationId}: add one to suites/lib/fixtures.ts`,
    );
  return make ? make() : opaqueRecord(runId);
}

/** For 4.3, whose request bodies are not shown: an object that says where it came from. */
export function opaqueRecord(runId: string): Record<string, string> {
  return { id: freshId('record', runId), reference: runId, note: 'written by flis-conformance' };
}

export const MALFORMED_JSON = '{"offer": {"quantity": 3,';

/**
 * A body that breaks the request schema of an operation in one obvious way
 * (a wrong type), so a 2xx can only mean the server did not validate it.
 */
const schemaInvalidBodies: Partial<Record<SchemaName, unknown>> = {
  'offer-write': { offer: { quantity: 'many' } },
  'offer-bulk': [{ id: 42, offer: { quantity: 'many' } }],
  'billing-group-status': { status: 42 },
  'billing-group-status-update': [{ billingGroupId: 42, deleteStatus: 'yes' }],
};

export function schemaInvalidBody(schema: SchemaName): unknown {
  if (!(schema in schemaInvalidBodies))
    throw new Error(`no schema-invalid body for ${schema}: add one to suites/lib/fixtures.ts`);
  const body = schemaInvalidBodies[schema];
  // A probe that the schema accepts would prove nothing; refuse to send it.
  if (validate(schema, body).valid)
    throw new Error(`the schema-invalid body for ${schema} is valid against it: fix suites/lib/fixtures.ts`);
  return body;
}
