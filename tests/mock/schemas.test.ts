/**
 * Every documented response (spec 4.1, 4.2) validates against its schema in
 * schemas/, for the default mock and for the 'different' variant with a write delay.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validate, type SchemaName } from '../../schemas/registry.ts';
import type { RunningMock } from '../../mock/server.ts';
import { variantPresets } from '../../mock/variant.ts';
import { call, firstId, offerBody, withMock, type Answer } from './helpers.ts';
import { pollUntil } from '../../core/poll.ts';

function assertValid(schema: SchemaName, a: Answer, what: string): void {
  assert.ok(a.status >= 200 && a.status < 300, `${what}: status ${a.status} ${a.text}`);
  assert.match(a.contentType, /^application\/json/, what);
  const result = validate(schema, a.body);
  assert.ok(result.valid, `${what} breaks ${schema}: ${JSON.stringify(result.violations)}`);
}

async function exerciseDocumented(mock: RunningMock): Promise<void> {
  const created = await call(mock, 'POST', '/offers', { json: offerBody('schema-post') });
  assertValid('batch-ack-create', created, 'POST /offers');
  const put = await call(mock, 'PUT', '/offers/schema-put-1', { json: offerBody('schema-put') });
  assertValid('batch-ack', put, 'PUT /offers/{id}');
  const visible = await pollUntil(
    () => call(mock, 'GET', '/offers/schema-put-1'),
    (a) => a.status === 200,
    { timeoutMs: 3000, intervalMs: 10 },
  );
  assert.ok(visible.ok, 'the PUT offer never became visible');
  assertValid('offer-list', visible.value, 'GET /offers/{id}');
  assert.equal(visible.value.body.length, 1);
  assertValid('batch-ack', await call(mock, 'DELETE', '/offers/schema-put-1'), 'DELETE /offers/{id}');
  assertValid(
    'bulk-ack',
    await call(mock, 'POST', '/offers/bulk', {
      json: [
        { id: 'schema-b1', ...offerBody('b1') },
        { id: 'schema-b2', ...offerBody('b2') },
      ],
    }),
    'POST /offers/bulk',
  );
  const list = await call(mock, 'GET', '/offers');
  assertValid('offer-list', list, 'GET /offers');
  assert.ok(list.body.length >= 8);
  assertValid(
    'offer-list',
    await call(mock, 'GET', '/offers', { query: { start: '2025-01-01T00:00:00Z', end: '2031-01-01T00:00:00Z' } }),
    'GET /offers?start&end',
  );

  const groups = await call(mock, 'GET', '/billingGroups');
  assertValid('billing-group-list', groups, 'GET /billingGroups');
  assert.ok(groups.body.length >= 10);
  for (const g of groups.body) {
    assertValid('billing-group', await call(mock, 'GET', `/billingGroups/${g.id}`), 'GET /billingGroups/{id}');
    assertValid(
      'billing-group-details',
      await call(mock, 'GET', `/billingGroups/${g.id}/details`),
      'GET /billingGroups/{id}/details',
    );
  }
  const groupId = groups.body[0].id as string;
  assertValid(
    'success-ack',
    await call(mock, 'PUT', `/billingGroups/${groupId}/status`, { json: { status: 'Invoiced' } }),
    'PUT status',
  );
  assertValid('success-ack', await call(mock, 'DELETE', `/billingGroups/${groupId}/status`), 'DELETE status');
  assertValid(
    'success-ack',
    await call(mock, 'POST', '/billingGroups/bulkStatusUpdate', {
      json: [
        { billingGroupId: groupId, status: 'Booked', deleteStatus: false },
        { billingGroupId: groupId, deleteStatus: true },
      ],
    }),
    'bulkStatusUpdate',
  );

  const invoices = await call(mock, 'GET', '/invoices');
  assertValid('invoice-list', invoices, 'GET /invoices');
  assert.ok(invoices.body.length >= 20);
  for (const inv of invoices.body) {
    const single = await call(mock, 'GET', `/invoices/${inv.id}`);
    assertValid('invoice', single, 'GET /invoices/{id}');
    assert.equal(single.body.billingGroupDetails, undefined);
    const snapshot = await call(mock, 'GET', `/invoicesBillingGroupDetailsSnapshot/${inv.id}`);
    assertValid('invoice-snapshot', snapshot, 'GET snapshot');
    assert.equal(
      snapshot.body.billingGroups,
      undefined,
      'the snapshot carries billingGroupDetails in place of billingGroups',
    );
  }
  assertValid(
    'invoice-list',
    await call(mock, 'GET', '/invoices', { query: { limit: '5', page: '2' } }),
    'GET /invoices paged',
  );
}

describe('documented responses validate against schemas/', () => {
  it('default mock', () => withMock({}, exerciseDocumented));

  it("'different' variant with a 300 ms write delay", () =>
    withMock({ variant: variantPresets.different, writeDelayMs: 300 }, exerciseDocumented));

  it('numeric ids', () => withMock({ variant: { idFormat: 'numeric' } }, exerciseDocumented));

  it('every seeded offer validates and uses a documented price strategy or null', () =>
    withMock({}, async (mock) => {
      const list = await call(mock, 'GET', '/offers');
      const strategies = new Set(list.body.map((o: { priceStrategy: unknown }) => o.priceStrategy));
      assert.deepEqual([...strategies].sort(), ['Deferred', 'Fixed', 'Group', 'Precision', 'Provided', null].sort());
      for (const o of list.body) assert.ok(validate('offer', o).valid);
    }));

  it('details of a billing group match the group', () =>
    withMock({}, async (mock) => {
      const id = await firstId(mock, '/billingGroups');
      const [group, details] = [
        await call(mock, 'GET', `/billingGroups/${id}`),
        await call(mock, 'GET', `/billingGroups/${id}/details`),
      ];
      for (const f of ['id', 'humanReadableId', 'customerId', 'customerName', 'inactive', 'status', 'date'])
        assert.deepEqual(details.body[f], group.body[f], f);
      assert.equal(typeof details.body.crnNumberByCustomerId[group.body.customerId], 'string');
    }));
});
