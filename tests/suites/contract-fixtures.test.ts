/**
 * The contract suite's own inputs, checked without a server: the bodies it
 * sends as valid really are valid, the ones it sends as invalid really are
 * invalid, and the clause and record-path derivations read the contract right.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validate } from '../../schemas/registry.ts';
import { operationById, operations } from '../../specs/contract.ts';
import { responseClauses, shapeClause } from '../../suites/contract/clauses.ts';
import { placeholderParams, schemaInvalidBody, validLookingBody } from '../../suites/lib/fixtures.ts';
import { recordTemplate } from '../../suites/contract/records.ts';
import { pollUntil } from '../../core/poll.ts';

const RUN_ID = 'flis-fixture-test';

test('the auth probes send bodies valid against the documented request schema, tagged with the run id', () => {
  for (const op of operations().filter((o) => o.requestSchema)) {
    const body = validLookingBody(op, RUN_ID, placeholderParams(op, RUN_ID));
    const result = validate(op.requestSchema!, body);
    assert.deepEqual(result.violations, [], `${op.operationId}: the valid-looking body is invalid`);
  }
  const offer = validLookingBody(operationById('createOffer'), RUN_ID, {}) as {
    offer: { references: string[]; bookingId: string };
  };
  assert.ok(offer.offer.references.every((r) => r.startsWith(RUN_ID)) && offer.offer.bookingId.startsWith(RUN_ID));
});

test('every write without a documented body still gets a JSON body; reads and deletes get none', () => {
  for (const op of operations()) {
    const body = validLookingBody(op, RUN_ID, placeholderParams(op, RUN_ID));
    assert.equal(body === undefined, op.method === 'get' || op.method === 'delete', op.operationId);
  }
});

test('the schema-invalid probes break their request schema', () => {
  for (const op of operations().filter((o) => o.requestSchema)) {
    assert.equal(validate(op.requestSchema!, schemaInvalidBody(op.requestSchema!)).valid, false, op.operationId);
  }
});

test('placeholder path parameters carry the run id', () => {
  const params = placeholderParams(operationById('putTransportOrderLegOffload'), RUN_ID);
  assert.deepEqual(Object.keys(params), ['bookingId', 'transportOrderId', 'legId']);
  for (const v of Object.values(params)) assert.ok(v.startsWith(RUN_ID));
});

test('response clauses name the operation clause and the shape clause of section 2', () => {
  assert.deepEqual(responseClauses(operationById('getOffer')), ['spec 4.1', 'spec 2.2']);
  assert.deepEqual(responseClauses(operationById('listInvoices')), ['spec 4.2', 'spec 2.6']);
  assert.deepEqual(responseClauses(operationById('upsertOffer')), ['spec 4.1', 'spec 2.7']);
  assert.deepEqual(responseClauses(operationById('forceBillingGroupStatus')), ['spec 4.2']);
  assert.equal(shapeClause('billing-group-details'), 'spec 2.5');
});

test('a 404 is judged against the record the path names; an upsert names only its parent', () => {
  assert.equal(recordTemplate(operationById('createBooking')), undefined);
  assert.equal(recordTemplate(operationById('bulkCreateBookings')), undefined);
  assert.equal(recordTemplate(operationById('upsertFuelDeliveryRequest')), undefined);
  assert.equal(recordTemplate(operationById('getFuelDeliveryRequest')), '/fuel/deliveryRequests/{deliveryRequestId}');
  assert.equal(recordTemplate(operationById('deleteFuelDelivery')), '/fuel/deliveries/{deliveryId}');
  assert.equal(recordTemplate(operationById('createBookingEvent')), '/bookings/{bookingId}');
  assert.equal(recordTemplate(operationById('upsertBookingEvent')), '/bookings/{bookingId}');
});

test('pollUntil returns the accepted value, or the last miss once the deadline passes', async () => {
  let n = 0;
  const hit = await pollUntil(
    async () => ++n,
    (v) => v === 3,
    { timeoutMs: 1_000, intervalMs: 1 },
  );
  assert.deepEqual([hit.value, hit.ok, hit.attempts], [3, true, 3]);
  const miss = await pollUntil(
    async () => 'never',
    (v) => v === 'yes',
    { timeoutMs: 50, intervalMs: 10 },
  );
  assert.equal(miss.ok, false);
  assert.equal(miss.value, 'never');
  assert.ok(
    miss.elapsedMs >= 50 && miss.attempts >= 2,
    `gave up after ${miss.elapsedMs} ms and ${miss.attempts} attempts`,
  );
});
