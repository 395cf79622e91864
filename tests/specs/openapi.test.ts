import assert from 'node:assert/strict';
import { test } from 'node:test';
import { schemaNames } from '../../schemas/registry.ts';
import { fillPath, matchOperation, OPENAPI_FILE, openapiDocument, operations } from '../../specs/contract.ts';
import { redoclyLint } from './redocly.ts';

test('every operation of spec 4.1 (6), 4.2 (9) and 4.3 (110) is in the document: 125', () => {
  const ops = operations();
  assert.equal(ops.length, 125);
  assert.equal(ops.filter((o) => o.clause === 'spec 4.1').length, 6);
  assert.equal(ops.filter((o) => o.clause === 'spec 4.2').length, 9);
  assert.equal(ops.filter((o) => o.clause === 'spec 4.3').length, 110);
});

test('operationIds are unique and every operation has a tag and requires service_auth_application (spec 5)', () => {
  const ids = operations().map((o) => o.operationId);
  assert.equal(new Set(ids).size, ids.length);
  const doc = openapiDocument();
  for (const op of operations()) {
    const raw = doc.paths[op.path][op.method];
    assert.deepEqual(raw.security, [{ service_auth_application: [] }], op.operationId);
    assert.equal(raw.tags.length, 1, op.operationId);
  }
  assert.equal(doc.components.securitySchemes.service_auth_application.type, 'oauth2');
});

test('exactly the 8 operations of spec 9 rule 3 are deprecated', () => {
  const deprecated = operations()
    .filter((o) => o.deprecated)
    .map((o) => `${o.method.toUpperCase()} ${o.path}`)
    .sort();
  assert.deepEqual(deprecated, [
    'DELETE /fuel/deliveries/{deliveryId}',
    'DELETE /fuel/deliveryRequests/{deliveryRequestId}',
    'GET /fuel/deliveryRequests/{deliveryRequestId}',
    'POST /bookings',
    'POST /bookings/bulk',
    'POST /bookings/{bookingId}/events',
    'PUT /fuel/deliveries/{deliveryId}',
    'PUT /fuel/deliveryRequests/{deliveryRequestId}',
  ]);
});

test('the documented operations reference their request and response schemas in schemas/', () => {
  const documented = operations().filter((o) => o.documented);
  for (const op of documented) {
    assert.ok(op.responseSchema && schemaNames.includes(op.responseSchema), `${op.operationId} has a response schema`);
  }
  const bodies = Object.fromEntries(
    documented.filter((o) => o.requestSchema).map((o) => [o.operationId, o.requestSchema]),
  );
  assert.deepEqual(bodies, {
    createOffer: 'offer-write',
    upsertOffer: 'offer-write',
    bulkWriteOffers: 'offer-bulk',
    bulkUpdateBillingGroupStatus: 'billing-group-status-update',
    forceBillingGroupStatus: 'billing-group-status',
  });
});

test('the documented query parameters carry their types (spec 4.1, 4.2)', () => {
  const q = (id: string) => operations().find((o) => o.operationId === id)!.query;
  assert.deepEqual(
    q('listOffers').map((p) => [p.name, p.format]),
    [
      ['start', 'date-time'],
      ['end', 'date-time'],
    ],
  );
  assert.deepEqual(
    q('listBillingGroups').map((p) => [p.name, p.type]),
    [
      ['start', 'string'],
      ['end', 'string'],
      ['state', 'string'],
      ['customerId', 'string'],
      ['inactive', 'boolean'],
    ],
  );
  assert.deepEqual(
    q('listInvoices').map((p) => [p.name, p.type]),
    [
      ['createdSince', 'string'],
      ['updatedSince', 'string'],
      ['limit', 'integer'],
      ['page', 'integer'],
    ],
  );
});

test('4.3 operations say what is not shown and constrain no body', () => {
  const doc = openapiDocument();
  for (const op of operations().filter((o) => !o.documented)) {
    const raw = doc.paths[op.path][op.method];
    assert.ok(raw['x-flis-not-shown'].includes('response body'), op.operationId);
    assert.deepEqual(raw.responses['2XX'].content['application/json'].schema, {}, op.operationId);
  }
});

test('the 8 webhook types of spec 6 are under webhooks', () => {
  assert.deepEqual(Object.keys(openapiDocument().webhooks).sort(), [
    'BILLING_GROUP_DETAILS',
    'BOOKING',
    'FACT',
    'FUEL_DELIVERY',
    'FUEL_DISPATCH_GROUP_CHECKED',
    'FUEL_PICKUP',
    'FUEL_SHIFT_CHECKED',
    'INVOICE',
  ]);
});

test('matchOperation prefers literal segments and fillPath encodes ids', () => {
  assert.equal(matchOperation('POST', '/customers/bulk')?.operationId, 'bulkWriteCustomers');
  assert.equal(matchOperation('GET', '/customers/c-1')?.operationId, 'getCustomer');
  assert.equal(matchOperation('GET', '/bookings/requestsStatus/batch/b1')?.operationId, 'getBatchRequestsStatus');
  assert.equal(matchOperation('PATCH', '/offers/x'), undefined);
  assert.equal(fillPath('/offers/{offerId}', { offerId: 'a/b' }), '/offers/a%2Fb');
});

test('specs/openapi.yaml passes the Redocly linter with zero errors and zero warnings (offline, telemetry off)', () => {
  const report = redoclyLint(OPENAPI_FILE);
  assert.equal(report.totals.errors, 0, JSON.stringify(report.problems.slice(0, 5)));
  assert.equal(report.totals.warnings, 0, JSON.stringify(report.problems.slice(0, 5)));
  assert.equal(report.status, 0);
});
