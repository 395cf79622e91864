/**
 * Each fault switch changes exactly the behaviour it names: every probe runs
 * twice, against a conformant mock (asserting the contract holds) and against
 * a mock with only that fault (asserting it is broken in the named way). The
 * table is a Record over FaultName, so a fault without a probe does not compile.
 */
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { faultDescriptions, faultNames, type FaultName } from '../../mock/faults.ts';
import { isDateTime } from '../../mock/formats.ts';
import type { RunningMock } from '../../mock/server.ts';
import { startMock } from '../../mock/server.ts';
import { validate } from '../../schemas/registry.ts';
import { call, fill, offerBody, specOperations, TOKEN, withMock, type Json } from './helpers.ts';

type Probe = (mock: RunningMock, faulty: boolean) => Promise<void>;

const firstGroup = async (mock: RunningMock) =>
  (await call(mock, 'GET', '/billingGroups')).body[0] as { id: string; status: string; customerId: string };
const firstInvoiceId = async (mock: RunningMock) => (await call(mock, 'GET', '/invoices')).body[0].id as string;
const offer = async (mock: RunningMock, id: string) => {
  const a = await call(mock, 'GET', `/offers/${id}`);
  return a.status === 200 ? (a.body[0] as Record<string, Json>) : undefined;
};
const statusOf = async (mock: RunningMock, id: string) =>
  (await call(mock, 'GET', `/billingGroups/${id}`)).body.status as string;

const probes: Record<FaultName, Probe> = {
  'offer-quantity-as-string': async (mock, faulty) => {
    const offers = (await call(mock, 'GET', '/offers')).body as { id: string; quantity: unknown }[];
    assert.ok(offers.every((o) => typeof o.quantity === (faulty ? 'string' : 'number')));
    assert.equal(typeof (await offer(mock, offers[0]!.id))?.quantity, faulty ? 'string' : 'number');
  },
  'offer-unknown-price-strategy': async (mock, faulty) => {
    const offers = (await call(mock, 'GET', '/offers')).body as { priceStrategy: unknown }[];
    assert.equal(
      offers.every((o) => o.priceStrategy === 'Dynamic'),
      faulty,
    );
    assert.equal(validate('offer-list', offers).valid, !faulty);
  },
  'billing-group-missing-status': async (mock, faulty) => {
    const list = (await call(mock, 'GET', '/billingGroups')).body as Record<string, unknown>[];
    assert.equal(
      list.every((g) => !('status' in g)),
      faulty,
    );
    const single = (await call(mock, 'GET', `/billingGroups/${String(list[0]!.id)}`)).body;
    assert.equal('status' in single, !faulty);
  },
  'invoice-bad-created-timestamp': async (mock, faulty) => {
    const id = await firstInvoiceId(mock);
    for (const path of ['/invoices', `/invoices/${id}`, `/invoicesBillingGroupDetailsSnapshot/${id}`]) {
      const body = (await call(mock, 'GET', path)).body;
      const created = (Array.isArray(body) ? body[0] : body).created as string;
      assert.equal(isDateTime(created), !faulty, `${path}: ${created}`);
    }
  },
  'ack-missing-batch-id': async (mock, faulty) => {
    const a = await call(mock, 'PUT', '/offers/fault-ack', { json: offerBody('ack') });
    assert.ok(a.status >= 200 && a.status < 300);
    assert.equal('batchId' in a.body, !faulty);
  },
  'auth-missing-token-accepted': async (mock, faulty) => {
    for (const op of specOperations().filter((o) => o.method === 'GET')) {
      const a = await call(mock, 'GET', fill(op.path), { token: null });
      assert.equal(a.status === 401, !faulty, `GET ${op.path}: ${a.status}`);
    }
    assert.equal(
      (await call(mock, 'PUT', '/offers/fault-auth', { token: null, json: offerBody('auth') })).status === 401,
      !faulty,
    );
  },
  'auth-wrong-token-accepted': async (mock, faulty) => {
    assert.equal((await call(mock, 'GET', '/billingGroups', { token: 'not-the-token' })).status, faulty ? 200 : 401);
    assert.equal(
      (await call(mock, 'GET', '/billingGroups', { token: null })).status,
      401,
      'a missing token is still refused',
    );
  },
  'route-missing': async (mock, faulty) => {
    assert.equal((await call(mock, 'GET', '/fuel/pickups')).status, faulty ? 404 : 200);
    assert.equal((await call(mock, 'GET', '/fuel/deliveries')).status, 200);
  },
  'deprecated-removed': async (mock, faulty) => {
    const deprecated = specOperations().filter((o) => o.deprecated);
    assert.equal(deprecated.length, 8);
    for (const op of deprecated) {
      const a = await call(
        mock,
        op.method,
        fill(op.path),
        op.method === 'POST' || op.method === 'PUT' ? { json: op.path.endsWith('bulk') ? [] : {} } : {},
      );
      assert.equal(a.status === 410, faulty, `${op.method} ${op.path}: ${a.status}`);
    }
    assert.equal((await call(mock, 'GET', '/fuel/bulkTankDeliveryRequests/x')).status, 404, 'the replacement stays');
  },
  'bad-input-500': async (mock, faulty) => {
    const expected = faulty ? 500 : 400;
    assert.equal((await call(mock, 'POST', '/offers', { raw: '{oops' })).status, expected);
    assert.equal(
      (await call(mock, 'PUT', '/offers/fault-500', { json: { offer: { quantity: 'x' } } })).status,
      expected,
    );
    assert.equal((await call(mock, 'POST', '/offers/bulk', { json: [{ offer: {} }] })).status, expected);
    assert.equal(
      (await call(mock, 'PUT', '/drivers/d', { raw: '{oops' })).status,
      400,
      'other operations keep answering 400',
    );
    assert.equal((await call(mock, 'GET', '/offers', { token: null })).status, 401, 'auth errors stay 401');
  },
  'text-content-type': async (mock, faulty) => {
    const a = await call(mock, 'GET', '/billingGroups');
    assert.equal(a.contentType.startsWith('text/plain'), faulty, a.contentType);
    assert.ok(Array.isArray(JSON.parse(a.text)));
    assert.match((await call(mock, 'GET', '/invoices')).contentType, /^application\/json/);
  },
  'cancel-flag-ignored': async (mock, faulty) => {
    await call(mock, 'PUT', '/offers/fault-cancel', { json: { ...offerBody('cf'), cancel: true } });
    assert.equal((await offer(mock, 'fault-cancel'))?.canceled, !faulty);
  },
  'delete-not-cancel': async (mock, faulty) => {
    await call(mock, 'PUT', '/offers/fault-del', { json: offerBody('del') });
    const a = await call(mock, 'DELETE', '/offers/fault-del');
    assert.equal(typeof a.body.batchId, 'string');
    assert.equal((await offer(mock, 'fault-del'))?.canceled, !faulty);
  },
  'update-not-applied': async (mock, faulty) => {
    await call(mock, 'PUT', '/offers/fault-upd', { json: offerBody('upd', { quantity: 1 }) });
    await call(mock, 'PUT', '/offers/fault-upd', { json: { offer: { quantity: 99 } } });
    assert.equal((await offer(mock, 'fault-upd'))?.quantity, faulty ? 1 : 99);
  },
  'bulk-item-dropped': async (mock, faulty) => {
    const items = ['bd-1', 'bd-2', 'bd-3'].map((id) => ({ id, ...offerBody(id) }));
    assert.equal((await call(mock, 'POST', '/offers/bulk', { json: items })).body.success, true);
    assert.ok(await offer(mock, 'bd-1'));
    assert.ok(await offer(mock, 'bd-2'));
    assert.equal((await offer(mock, 'bd-3')) === undefined, faulty);
  },
  'bulk-items-mixed': async (mock, faulty) => {
    const items = [
      { id: 'bm-1', ...offerBody('bm1', { quantity: 1 }) },
      { id: 'bm-2', ...offerBody('bm2', { quantity: 2 }) },
    ];
    await call(mock, 'POST', '/offers/bulk', { json: items });
    assert.equal((await offer(mock, 'bm-1'))?.quantity, faulty ? 2 : 1);
    assert.equal((await offer(mock, 'bm-2'))?.quantity, faulty ? 1 : 2);
  },
  'forced-status-not-removed': async (mock, faulty) => {
    const g = await firstGroup(mock);
    await call(mock, 'PUT', `/billingGroups/${g.id}/status`, { json: { status: 'Forced-x' } });
    assert.deepEqual((await call(mock, 'DELETE', `/billingGroups/${g.id}/status`)).body, { success: true });
    assert.equal(await statusOf(mock, g.id), faulty ? 'Forced-x' : g.status);
    // The single DELETE only: bulkStatusUpdate with deleteStatus still removes (one fault, one failing check).
    await call(mock, 'POST', '/billingGroups/bulkStatusUpdate', {
      json: [{ billingGroupId: g.id, deleteStatus: true }],
    });
    assert.equal(await statusOf(mock, g.id), g.status);
  },
  'delete-status-ignored': async (mock, faulty) => {
    const g = await firstGroup(mock);
    await call(mock, 'PUT', `/billingGroups/${g.id}/status`, { json: { status: 'Forced-y' } });
    await call(mock, 'POST', '/billingGroups/bulkStatusUpdate', {
      json: [{ billingGroupId: g.id, status: 'Forced-z', deleteStatus: true }],
    });
    assert.equal(await statusOf(mock, g.id), faulty ? 'Forced-z' : g.status);
  },
  'forced-status-ignored': async (mock, faulty) => {
    const g = await firstGroup(mock);
    assert.deepEqual(
      (await call(mock, 'PUT', `/billingGroups/${g.id}/status`, { json: { status: 'Forced-w' } })).body,
      { success: true },
    );
    assert.equal(await statusOf(mock, g.id), faulty ? g.status : 'Forced-w');
    // The single PUT only: bulkStatusUpdate still forces (one fault, one failing check).
    await call(mock, 'POST', '/billingGroups/bulkStatusUpdate', {
      json: [{ billingGroupId: g.id, status: 'Forced-v', deleteStatus: false }],
    });
    assert.equal(await statusOf(mock, g.id), 'Forced-v');
  },
  'billing-filter-ignored': async (mock, faulty) => {
    const all = (await call(mock, 'GET', '/billingGroups')).body as { customerId: string }[];
    const filtered = (await call(mock, 'GET', '/billingGroups', { query: { customerId: all[0]!.customerId } }))
      .body as unknown[];
    assert.equal(filtered.length === all.length, faulty);
    assert.ok(
      (await call(mock, 'GET', '/billingGroups', { query: { inactive: 'true' } })).body.length < all.length,
      'other filters still work',
    );
  },
  'page-repeats': async (mock, faulty) => {
    const ids = async (page: string) =>
      ((await call(mock, 'GET', '/invoices', { query: { limit: '5', page } })).body as { id: string }[]).map(
        (i) => i.id,
      );
    const [p1, p2] = [await ids('1'), await ids('2')];
    assert.equal(p1.length, 5);
    assert.equal(JSON.stringify(p1) === JSON.stringify(p2), faulty);
  },
  'limit-ignored': async (mock, faulty) => {
    const all = (await call(mock, 'GET', '/invoices')).body as { id: string }[];
    const limited = (await call(mock, 'GET', '/invoices', { query: { limit: '3' } })).body as unknown[];
    assert.equal(limited.length, faulty ? all.length : 3);
    const page2 = (await call(mock, 'GET', '/invoices', { query: { page: '2' } })).body as { id: string }[];
    assert.ok(page2.length > 0 && page2[0]!.id !== all[0]!.id, 'pages still work');
  },
  'created-since-ignored': async (mock, faulty) => {
    const all = (await call(mock, 'GET', '/invoices')).body as { created: string }[];
    const since = (await call(mock, 'GET', '/invoices', { query: { createdSince: all[12]!.created.slice(0, 10) } }))
      .body as unknown[];
    assert.equal(since.length === all.length, faulty);
  },
  'invalid-body-accepted': async (mock, faulty) => {
    const a = await call(mock, 'PUT', '/offers/fault-invalid', { json: { offer: { quantity: 'ten' } } });
    assert.equal(a.status, faulty ? 200 : 400);
    assert.equal(typeof a.body.batchId === 'string', faulty);
    const post = await call(mock, 'POST', '/offers', { json: 'not an object' });
    assert.equal(post.status, faulty ? 200 : 400, 'even a body of the wrong type never becomes a 5xx');
  },
  'snapshot-has-billing-groups': async (mock, faulty) => {
    const snap = (await call(mock, 'GET', `/invoicesBillingGroupDetailsSnapshot/${await firstInvoiceId(mock)}`)).body;
    assert.equal('billingGroups' in snap, faulty);
    assert.ok(Array.isArray(snap.billingGroupDetails));
  },
  'batch-status-missing': async (mock, faulty) => {
    const ack = await call(mock, 'PUT', '/offers/fault-batch', { json: offerBody('batch') });
    assert.equal(
      (await call(mock, 'GET', `/bookings/requestsStatus/batch/${ack.body.batchId}`)).status,
      faulty ? 404 : 200,
    );
  },
  'price-strategy-stored': async (mock, faulty) => {
    const written = offerBody('ps');
    await call(mock, 'PUT', '/offers/fault-ps', {
      json: { ...written, offer: { ...written.offer, priceStrategy: 'Bogus' } },
    });
    assert.equal((await offer(mock, 'fault-ps'))?.priceStrategy, faulty ? 'Bogus' : null);
    await call(mock, 'PUT', '/offers/fault-ps-plain', { json: offerBody('ps-plain') });
    assert.equal(
      (await offer(mock, 'fault-ps-plain'))?.priceStrategy,
      null,
      'an offer written without one stays valid',
    );
  },
  'offer-timestamp-not-utc': async (mock, faulty) => {
    const offers = (await call(mock, 'GET', '/offers')).body as { id: string; transportTimestamp: string }[];
    const stamps = [offers[0]!.transportTimestamp, (await offer(mock, offers[0]!.id))?.transportTimestamp];
    for (const t of stamps) {
      assert.ok(isDateTime(String(t)), String(t));
      assert.equal(String(t).endsWith('+02:00'), faulty, String(t));
    }
  },
  'booking-event-delete-removes': async (mock, faulty) => {
    assert.equal((await call(mock, 'PUT', '/bookings/fault-b', { json: { note: 'x' } })).status, 200);
    assert.equal((await call(mock, 'PUT', '/bookings/fault-b/events/fault-e', { json: { note: 'x' } })).status, 200);
    assert.equal((await call(mock, 'DELETE', '/bookings/fault-b/events/fault-e')).status, 200);
    const after = await call(mock, 'GET', '/bookings/fault-b/events/fault-e');
    assert.equal(after.status, faulty ? 404 : 200);
    if (!faulty) assert.equal(after.body.canceled, true);
  },
  'transport-order-events-not-cancelled': async (mock, faulty) => {
    const bookingId = (await call(mock, 'GET', '/carrierBookings')).body[0].id as string;
    const to = `/carrierBookings/${bookingId}/transportOrder/fault-to`;
    assert.equal((await call(mock, 'PUT', `${to}/pickupEta`, { json: { eta: 'soon' } })).status, 200);
    assert.equal((await call(mock, 'DELETE', to)).status, 200);
    const events = (await call(mock, 'GET', `/carrierBookings/${bookingId}/events`)).body as Record<string, unknown>[];
    const mine = events.filter((e) => e.transportOrderId === 'fault-to');
    assert.equal(mine.length, 1);
    assert.equal(mine[0]!.canceled, !faulty);
  },
  'auth-near-miss-token-accepted': async (mock, faulty) => {
    const swapped = [...TOKEN].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
    for (const near of [TOKEN.slice(0, -1), `${TOKEN}x`, swapped]) {
      const r = await call(mock, 'GET', '/billingGroups', { token: near });
      assert.equal(r.status, faulty ? 200 : 401, near === swapped ? 'case changed' : `length ${near.length}`);
    }
    assert.equal((await call(mock, 'GET', '/billingGroups', { token: 'unrelated-token-value' })).status, 401);
  },
  'api-prefix-wrong': async (mock, faulty) => {
    assert.equal(new URL(mock.baseUrl).pathname, faulty ? '/api/v0' : '/apis/v0');
    assert.equal((await call(mock, 'GET', '/billingGroups')).status, 200);
  },
  'billing-filter-drops-match': async (mock, faulty) => {
    const all = (await call(mock, 'GET', '/billingGroups')).body as { id: string; inactive: boolean }[];
    const active = all.filter((g) => !g.inactive).map((g) => g.id);
    const filtered = (await call(mock, 'GET', '/billingGroups', { query: { inactive: 'false' } })).body as {
      id: string;
    }[];
    assert.deepEqual(
      filtered.map((g) => g.id),
      faulty ? active.slice(0, -1) : active,
    );
    // A window around every group leaves none out, so it is the whole list the checks compare with: nothing dropped.
    const whole = await call(mock, 'GET', '/billingGroups', { query: { start: '1900-01-01', end: '2200-12-31' } });
    assert.deepEqual(
      (whole.body as { id: string }[]).map((g) => g.id),
      all.map((g) => g.id),
      'the whole window lists every group',
    );
  },
  'record-route-missing': async (mock, faulty) => {
    assert.equal((await call(mock, 'PUT', '/orders/fault-order', { json: { note: 'x' } })).status, 200);
    assert.equal((await call(mock, 'GET', '/orders/fault-order')).status, faulty ? 404 : 200);
    assert.equal((await call(mock, 'GET', '/orders')).status, 200);
  },
  'updated-since-drops-match': async (mock, faulty) => {
    const all = (await call(mock, 'GET', '/invoices')).body as { id: string }[];
    const since = (await call(mock, 'GET', '/invoices', { query: { updatedSince: '2000-01-01' } })).body as unknown[];
    assert.equal(since.length, faulty ? all.length - 1 : all.length);
  },
  'bulk-cancel-ignored': async (mock, faulty) => {
    const item = { ...offerBody('bulk-cancel'), id: 'fault-bulk-cancel', cancel: true };
    assert.equal((await call(mock, 'POST', '/offers/bulk', { json: [item] })).status, 200);
    assert.equal((await offer(mock, 'fault-bulk-cancel'))?.canceled, !faulty);
    assert.equal(
      (await call(mock, 'PUT', '/offers/fault-single-cancel', { json: { ...offerBody('s'), cancel: true } })).status,
      200,
    );
    assert.equal((await offer(mock, 'fault-single-cancel'))?.canceled, true);
  },
  // Issue 17 sections 1, 2 and 4 (verdicts-a).
  'auth-forgotten-on-invoice-read': async (mock, faulty) => {
    const id = await firstInvoiceId(mock);
    assert.equal((await call(mock, 'GET', `/invoices/${id}`, { token: null })).status, faulty ? 200 : 401);
    assert.equal((await call(mock, 'GET', '/invoices/no-such-invoice', { token: null })).status, faulty ? 404 : 401);
    assert.equal((await call(mock, 'GET', `/invoicesBillingGroupDetailsSnapshot/${id}`, { token: null })).status, 401);
  },
  'offer-window-ignored': async (mock, faulty) => {
    const all = (await call(mock, 'GET', '/offers')).body as unknown[];
    const query = { start: '1971-01-01T00:00:00Z', end: '1971-01-02T00:00:00Z' };
    assert.equal(((await call(mock, 'GET', '/offers', { query })).body as unknown[]).length, faulty ? all.length : 0);
  },
  'offer-window-widened': async (mock, faulty) => {
    const [first] = (await call(mock, 'GET', '/offers')).body as { transportTimestamp: string }[];
    const t = Date.parse(first!.transportTimestamp);
    const window = (from: number, to: number) => ({
      start: new Date(t + from * 3_600_000).toISOString(),
      end: new Date(t + to * 3_600_000).toISOString(),
    });
    const listed = async (from: number, to: number) =>
      ((await call(mock, 'GET', '/offers', { query: window(from, to) })).body as unknown[]).length > 0;
    assert.equal(await listed(6, 24), faulty);
    assert.equal(await listed(-24, -6), faulty);
    assert.equal(await listed(13, 24), false);
  },
  'billing-window-widened': async (mock, faulty) => {
    const g = await firstGroup(mock);
    const { date } = (await call(mock, 'GET', `/billingGroups/${g.id}`)).body as { date: string };
    const next = new Date(Date.parse(date) + 86_400_000).toISOString().slice(0, 10);
    const listed = (await call(mock, 'GET', '/billingGroups', { query: { start: next } })).body as { id: string }[];
    assert.equal(
      listed.some((x) => x.id === g.id),
      faulty,
    );
  },
  'created-since-widened': async (mock, faulty) => {
    const all = (await call(mock, 'GET', '/invoices')).body as { id: string; created: string }[];
    const first = all[0]!;
    const next = new Date(Date.parse(first.created) + 86_400_000).toISOString().slice(0, 10);
    const since = (await call(mock, 'GET', '/invoices', { query: { createdSince: next } })).body as { id: string }[];
    assert.equal(
      since.some((i) => i.id === first.id),
      faulty,
    );
  },
  'updated-since-on-created': async (mock, faulty) => {
    const all = (await call(mock, 'GET', '/invoices')).body as { id: string; created: string; updated: string }[];
    const later = all.find((i) => Date.parse(i.updated) - Date.parse(i.created) > 2 * 86_400_000)!;
    const date = new Date(Date.parse(later.created) + 86_400_000).toISOString().slice(0, 10);
    const since = (await call(mock, 'GET', '/invoices', { query: { updatedSince: date } })).body as { id: string }[];
    assert.equal(
      since.some((i) => i.id === later.id),
      !faulty,
    );
  },
  'empty-list-null': async (mock, faulty) => {
    const none = await call(mock, 'GET', '/billingGroups', { query: { customerId: 'no-such-customer' } });
    assert.deepEqual(none.body, faulty ? null : []);
    const old = await call(mock, 'GET', '/offers', {
      query: { start: '1971-01-01T00:00:00Z', end: '1971-01-02T00:00:00Z' },
    });
    assert.deepEqual(old.body, faulty ? null : []);
    const future = await call(mock, 'GET', '/invoices', { query: { createdSince: '2999-01-01' } });
    assert.deepEqual(future.body, faulty ? null : []);
    assert.ok(Array.isArray((await call(mock, 'GET', '/invoices')).body));
  },
  // Issue 17 sections 3 and 5.
  'settled-ignored': async (mock, faulty) => {
    assert.equal(
      (await call(mock, 'PUT', '/offers/fault-settled', { json: { ...offerBody('st'), settled: true } })).status,
      200,
    );
    assert.equal((await offer(mock, 'fault-settled'))?.settled, !faulty);
    const item = { ...offerBody('st-bulk'), id: 'fault-settled-bulk', settled: true };
    assert.equal((await call(mock, 'POST', '/offers/bulk', { json: [item] })).status, 200);
    assert.equal((await offer(mock, 'fault-settled-bulk'))?.settled, true);
  },
  'offer-readback-field-wrong': async (mock, faulty) => {
    const body = offerBody('rb');
    assert.equal((await call(mock, 'PUT', '/offers/fault-readback', { json: body })).status, 200);
    const written = (body.offer as { offerVersion: string }).offerVersion;
    assert.equal((await offer(mock, 'fault-readback'))?.offerVersion, faulty ? `${written}.0` : written);
  },
  'offer-create-id-reused': async (mock, faulty) => {
    const a = await call(mock, 'POST', '/offers', { json: offerBody('c1') });
    const b = await call(mock, 'POST', '/offers', { json: offerBody('c2') });
    assert.equal(a.body.id === b.body.id, faulty);
  },
  'billing-group-get-wrong': async (mock, faulty) => {
    const list = (await call(mock, 'GET', '/billingGroups')).body as { id: string }[];
    const single = (await call(mock, 'GET', `/billingGroups/${list[0]!.id}`)).body as { id: string };
    assert.equal(single.id === list[0]!.id, !faulty);
  },
  'invoice-get-wrong': async (mock, faulty) => {
    const id = await firstInvoiceId(mock);
    for (const path of [`/invoices/${id}`, `/invoicesBillingGroupDetailsSnapshot/${id}`])
      assert.equal((await call(mock, 'GET', path)).body.id === id, !faulty, path);
  },
  'transport-order-delete-removes': async (mock, faulty) => {
    const bookingId = (await call(mock, 'GET', '/carrierBookings')).body[0].id as string;
    const to = `/carrierBookings/${bookingId}/transportOrder/fault-to-removed`;
    assert.equal((await call(mock, 'PUT', `${to}/pickupEta`, { json: { eta: 'soon' } })).status, 200);
    assert.equal((await call(mock, 'DELETE', to)).status, 200);
    const events = (await call(mock, 'GET', `/carrierBookings/${bookingId}/events`)).body as Record<string, unknown>[];
    assert.equal(events.filter((e) => e.transportOrderId === 'fault-to-removed').length, faulty ? 0 : 1);
    assert.equal((await call(mock, 'GET', to)).status, faulty ? 404 : 200);
  },
  'delete-after-update-ignored': async (mock, faulty) => {
    for (const id of ['fault-dau-fresh', 'fault-dau-updated'])
      await call(mock, 'PUT', `/offers/${id}`, { json: offerBody(id, { quantity: 1 }) });
    await call(mock, 'PUT', '/offers/fault-dau-updated', { json: { offer: { quantity: 2 } } });
    for (const id of ['fault-dau-fresh', 'fault-dau-updated'])
      assert.equal(typeof (await call(mock, 'DELETE', `/offers/${id}`)).body.batchId, 'string');
    assert.equal((await offer(mock, 'fault-dau-fresh'))?.canceled, true, 'an offer never updated is cancelled');
    assert.equal((await offer(mock, 'fault-dau-updated'))?.canceled, !faulty);
  },
  'transport-order-delete-cancels-neighbours': async (mock, faulty) => {
    const bookingId = (await call(mock, 'GET', '/carrierBookings')).body[0].id as string;
    const base = `/carrierBookings/${bookingId}/transportOrder`;
    for (const to of ['fault-to-named', 'fault-to-neighbour'])
      assert.equal((await call(mock, 'PUT', `${base}/${to}/pickupEta`, { json: { eta: 'soon' } })).status, 200);
    assert.equal((await call(mock, 'DELETE', `${base}/fault-to-named`)).status, 200);
    const events = (await call(mock, 'GET', `/carrierBookings/${bookingId}/events`)).body as Record<string, unknown>[];
    const canceled = (to: string) => events.find((e) => e.transportOrderId === to)?.canceled;
    assert.equal(canceled('fault-to-named'), true, 'the deleted order has its events cancelled either way');
    assert.equal(canceled('fault-to-neighbour'), faulty, 'the other order of the booking');
  },
  'offer-delete-cancels-booking': async (mock, faulty) => {
    const ids = ['fault-odcb-named', 'fault-odcb-neighbour', 'fault-odcb-elsewhere'];
    for (const id of ids)
      await call(mock, 'PUT', `/offers/${id}`, {
        json: offerBody(id, { bookingId: id.endsWith('elsewhere') ? 'booking-odcb-2' : 'booking-odcb-1' }),
      });
    assert.equal(typeof (await call(mock, 'DELETE', '/offers/fault-odcb-named')).body.batchId, 'string');
    assert.equal((await offer(mock, 'fault-odcb-named'))?.canceled, true, 'the deleted offer is cancelled either way');
    assert.equal((await offer(mock, 'fault-odcb-neighbour'))?.canceled, faulty, 'an offer of the same booking');
    assert.equal((await offer(mock, 'fault-odcb-elsewhere'))?.canceled, false, 'an offer of another booking');
  },
  'snapshot-other-invoice-groups': async (mock, faulty) => {
    const [first] = (await call(mock, 'GET', '/invoices')).body as { id: string; billingGroupIds: string[] }[];
    assert.ok(first);
    const snapshot = (await call(mock, 'GET', `/invoicesBillingGroupDetailsSnapshot/${first.id}`)).body;
    const ids = (snapshot.billingGroupDetails as { id: string }[]).map((d) => d.id).sort();
    assert.equal(snapshot.id, first.id, 'the snapshot is still that invoice');
    assert.equal(JSON.stringify(ids) === JSON.stringify([...first.billingGroupIds].sort()), !faulty);
  },
  'forced-status-list-stale': async (mock, faulty) => {
    const g = await firstGroup(mock);
    await call(mock, 'PUT', `/billingGroups/${g.id}/status`, { json: { status: 'Forced-stale' } });
    assert.equal(await statusOf(mock, g.id), 'Forced-stale', 'GET by id shows the forced status either way');
    const listed = ((await call(mock, 'GET', '/billingGroups')).body as { id: string; status: string }[]).find(
      (x) => x.id === g.id,
    );
    assert.equal(listed?.status, faulty ? g.status : 'Forced-stale');
    const filtered = (await call(mock, 'GET', '/billingGroups?state=Forced-stale')).body as { id: string }[];
    assert.equal(
      filtered.some((x) => x.id === g.id),
      !faulty,
    );
  },
  'booking-event-delete-cancels-booking-events': async (mock, faulty) => {
    const booking = '/bookings/fault-bedc-booking';
    assert.equal((await call(mock, 'PUT', booking, { json: { note: 'x' } })).status, 200);
    for (const e of ['named', 'neighbour'])
      assert.equal((await call(mock, 'PUT', `${booking}/events/fault-bedc-${e}`, { json: { note: e } })).status, 200);
    assert.equal((await call(mock, 'DELETE', `${booking}/events/fault-bedc-named`)).status, 200);
    const canceled = async (e: string) => (await call(mock, 'GET', `${booking}/events/fault-bedc-${e}`)).body.canceled;
    assert.equal(await canceled('named'), true, 'the deleted event is marked either way');
    assert.equal(await canceled('neighbour'), faulty ? true : undefined, 'the other event of the booking');
  },
  'offer-get-wrong': async (mock, faulty) => {
    const listed = (await call(mock, 'GET', '/offers')).body as { id: string }[];
    for (const { id } of listed.slice(0, 2)) {
      const answered = (await offer(mock, id))?.id;
      assert.equal(answered === id, !faulty, id);
      assert.ok(
        listed.some((o) => o.id === answered),
        'the answer is another stored offer, with its own id',
      );
    }
  },
  'bulk-batch-id-reused': async (mock, faulty) => {
    const bulk = async (tag: string) =>
      (await call(mock, 'POST', '/offers/bulk', { json: [{ id: `fault-batch-${tag}`, ...offerBody(tag) }] })).body;
    const [a, b] = [await bulk('b1'), await bulk('b2')];
    assert.equal(a.batchId === b.batchId, faulty);
    const status = (await call(mock, 'GET', `/bookings/requestsStatus/batch/${a.batchId as string}`)).text;
    assert.equal(status.includes('fault-batch-b1'), !faulty, 'the first batch speaks of its own write');
  },
  'references-sorted': async (mock, faulty) => {
    const body = offerBody('rs');
    const references = ['rs-c', 'rs-a', 'rs-b'];
    await call(mock, 'PUT', '/offers/fault-refs', { json: { ...body, offer: { ...body.offer, references } } });
    assert.deepEqual((await offer(mock, 'fault-refs'))?.references, faulty ? [...references].sort() : references);
    assert.equal((await offer(mock, 'fault-refs'))?.offerVersion, body.offer.offerVersion, 'other fields as written');
  },
  'timestamp-offset-dropped': async (mock, faulty) => {
    const body = offerBody('ts');
    const transportTimestamp = '2030-06-15T12:00:00+02:00';
    await call(mock, 'PUT', '/offers/fault-offset', {
      json: { ...body, offer: { ...body.offer, transportTimestamp } },
    });
    const read = (await offer(mock, 'fault-offset'))?.transportTimestamp as string;
    assert.ok(read.endsWith('Z'), `answered in UTC: ${read}`);
    assert.equal(Date.parse(read) === Date.parse(transportTimestamp), !faulty, read);
    if (faulty) assert.equal(Date.parse(read), Date.parse('2030-06-15T12:00:00Z'));
  },
  'invoice-json-bom': async (mock, faulty) => {
    const id = await firstInvoiceId(mock);
    const res = await fetch(`${mock.baseUrl}/invoices/${id}`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const bytes = Buffer.from(await res.arrayBuffer());
    assert.equal(bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf])), faulty);
    assert.equal(JSON.parse(new TextDecoder().decode(bytes)).id, id, 'the JSON after it is the invoice');
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
  },
  'catalogue-write-refused': async (mock, faulty) => {
    const put = await call(mock, 'PUT', '/largeContracts/fault-contract', { json: { name: 'lc' } });
    assert.equal(put.status, faulty ? 403 : 200);
    const order = await call(mock, 'PUT', '/orders/fault-order', { json: { name: 'o' } });
    assert.equal(order.status, 200, 'other catalogue writes are served');
    assert.equal((await call(mock, 'PUT', '/largeContracts/x', { json: {}, token: null })).status, 401);
  },
  'half-open-window-500': async (mock, faulty) => {
    for (const query of [{ start: '2025-01-01T00:00:00Z' }, { end: '2030-01-01T00:00:00Z' }])
      assert.equal((await call(mock, 'GET', '/offers', { query })).status, faulty ? 500 : 200, JSON.stringify(query));
    const both = { start: '2025-01-01T00:00:00Z', end: '2030-01-01T00:00:00Z' };
    assert.equal((await call(mock, 'GET', '/offers', { query: both })).status, 200, 'a whole window is listed');
  },
  'created-since-hours-early': async (mock, faulty) => {
    const all = (await call(mock, 'GET', '/invoices')).body as { id: string; created: string }[];
    // An invoice created after 10:00 UTC: reading its next day 14 hours early takes it in.
    const late = all.find((i) => new Date(i.created).getUTCHours() >= 10)!;
    const next = new Date(Date.parse(late.created) + 86_400_000).toISOString().slice(0, 10);
    const since = (await call(mock, 'GET', '/invoices', { query: { createdSince: next } })).body as { id: string }[];
    assert.equal(
      since.some((i) => i.id === late.id),
      faulty,
    );
    const early = all.find((i) => new Date(i.created).getUTCHours() < 10);
    if (early) {
      const day = new Date(Date.parse(early.created) + 86_400_000).toISOString().slice(0, 10);
      const got = (await call(mock, 'GET', '/invoices', { query: { createdSince: day } })).body as { id: string }[];
      assert.ok(!got.some((i) => i.id === early.id), 'an invoice from before 10:00 of the day before stays out');
    }
  }, // Issue 31: billing groups and invoices both ways, across operations, with combined parameters, at the edges.
  'bulk-removal-only-bulk-forced': async (mock, faulty) => {
    const [a, b] = (await call(mock, 'GET', '/billingGroups')).body as { id: string; status: string }[];
    await call(mock, 'PUT', `/billingGroups/${a!.id}/status`, { json: { status: 'By-put' } });
    await call(mock, 'POST', '/billingGroups/bulkStatusUpdate', {
      json: [{ billingGroupId: a!.id, deleteStatus: true }],
    });
    assert.equal(await statusOf(mock, a!.id), faulty ? 'By-put' : a!.status, 'a bulk removal of a PUT-forced status');
    await call(mock, 'POST', '/billingGroups/bulkStatusUpdate', {
      json: [{ billingGroupId: b!.id, status: 'By-bulk' }],
    });
    await call(mock, 'POST', '/billingGroups/bulkStatusUpdate', {
      json: [{ billingGroupId: b!.id, deleteStatus: true }],
    });
    assert.equal(await statusOf(mock, b!.id), b!.status, 'a bulk removal of a bulk-forced status works either way');
  },
  'put-over-bulk-ignored': async (mock, faulty) => {
    const [a, b] = (await call(mock, 'GET', '/billingGroups')).body as { id: string }[];
    await call(mock, 'POST', '/billingGroups/bulkStatusUpdate', {
      json: [{ billingGroupId: a!.id, status: 'By-bulk' }],
    });
    await call(mock, 'PUT', `/billingGroups/${a!.id}/status`, { json: { status: 'By-put' } });
    assert.equal(await statusOf(mock, a!.id), faulty ? 'By-bulk' : 'By-put');
    await call(mock, 'PUT', `/billingGroups/${b!.id}/status`, { json: { status: 'One' } });
    await call(mock, 'PUT', `/billingGroups/${b!.id}/status`, { json: { status: 'Two' } });
    assert.equal(await statusOf(mock, b!.id), 'Two', 'a PUT over a PUT replaces it either way');
  },
  'bulk-first-item-decides': async (mock, faulty) => {
    const [a, b] = (await call(mock, 'GET', '/billingGroups')).body as { id: string; status: string }[];
    await call(mock, 'PUT', `/billingGroups/${b!.id}/status`, { json: { status: 'Forced-b' } });
    await call(mock, 'POST', '/billingGroups/bulkStatusUpdate', {
      json: [
        { billingGroupId: a!.id, status: 'Forced-a' },
        { billingGroupId: b!.id, deleteStatus: true },
      ],
    });
    assert.equal(await statusOf(mock, a!.id), 'Forced-a', 'the first item forces either way');
    assert.equal(await statusOf(mock, b!.id), faulty ? 'Forced-b' : b!.status, 'the second item removes');
  },
  'status-write-any-case': async (mock, faulty) => {
    const g = await firstGroup(mock);
    const twin = g.id.toUpperCase();
    const put = await call(mock, 'PUT', `/billingGroups/${twin}/status`, { json: { status: 'By-twin' } });
    assert.equal(put.status, faulty ? 200 : 404);
    assert.equal(await statusOf(mock, g.id), faulty ? 'By-twin' : g.status);
    assert.equal((await call(mock, 'GET', `/billingGroups/${twin}`)).status, 404, 'a GET of the twin stays 404');
  },
  'list-leaves-out-forced': async (mock, faulty) => {
    const g = await firstGroup(mock);
    await call(mock, 'PUT', `/billingGroups/${g.id}/status`, { json: { status: 'Forced-out' } });
    const whole = (await call(mock, 'GET', '/billingGroups')).body as { id: string }[];
    assert.equal(
      whole.some((x) => x.id === g.id),
      !faulty,
    );
    const state = (await call(mock, 'GET', '/billingGroups', { query: { state: 'Forced-out' } })).body as {
      id: string;
    }[];
    assert.deepEqual(
      state.map((x) => x.id),
      [g.id],
      'the state filter lists it either way',
    );
  },
  'billing-list-needs-filter': async (mock, faulty) => {
    const whole = (await call(mock, 'GET', '/billingGroups', { query: { start: '1900-01-01', end: '2200-12-31' } }))
      .body as unknown[];
    assert.equal(whole.length === 0, faulty);
    const active = (await call(mock, 'GET', '/billingGroups', { query: { inactive: 'false' } })).body as unknown[];
    assert.ok(active.length > 0, 'a filtered list shows groups either way');
  },
  'details-inactive-default': async (mock, faulty) => {
    const groups = (await call(mock, 'GET', '/billingGroups')).body as { id: string; inactive: boolean }[];
    const inactive = groups.find((g) => g.inactive)!;
    const details = (await call(mock, 'GET', `/billingGroups/${inactive.id}/details`)).body;
    assert.equal(details.inactive, !faulty);
    assert.equal((await call(mock, 'GET', `/billingGroups/${inactive.id}`)).body.inactive, true);
  },
  'invoice-groups-drop-inactive': async (mock, faulty) => {
    const groups = (await call(mock, 'GET', '/billingGroups')).body as { id: string; inactive: boolean }[];
    const inactive = new Set(groups.filter((g) => g.inactive).map((g) => g.id));
    const invoices = (await call(mock, 'GET', '/invoices')).body as { id: string; billingGroupIds: string[] }[];
    const naming = invoices.find((i) => i.billingGroupIds.some((id) => inactive.has(id)))!;
    const single = (await call(mock, 'GET', `/invoices/${naming.id}`)).body;
    const ids = (single.billingGroups as { id: string }[]).map((g) => g.id);
    assert.equal(
      naming.billingGroupIds.every((id) => ids.includes(id)),
      !faulty,
    );
    const snapshot = (await call(mock, 'GET', `/invoicesBillingGroupDetailsSnapshot/${naming.id}`)).body;
    assert.equal((snapshot.billingGroupDetails as unknown[]).length, naming.billingGroupIds.length, 'snapshot whole');
  },
  'unpaged-invoices-drop-drafts': async (mock, faulty) => {
    const unpaged = (await call(mock, 'GET', '/invoices')).body as { status: string }[];
    assert.equal(
      unpaged.some((i) => i.status === 'Draft'),
      !faulty,
    );
    const page = (await call(mock, 'GET', '/invoices', { query: { limit: '50', page: '1' } })).body as {
      status: string;
    }[];
    assert.ok(
      page.some((i) => i.status === 'Draft'),
      'a page shows drafts either way',
    );
  },
  'billing-customer-overrides-filters': async (mock, faulty) => {
    const groups = (await call(mock, 'GET', '/billingGroups')).body as { customerId: string; inactive: boolean }[];
    const c = groups[0]!.customerId;
    const listed = (await call(mock, 'GET', '/billingGroups', { query: { customerId: c, inactive: 'true' } })).body as {
      customerId: string;
      inactive: boolean;
    }[];
    assert.equal(
      listed.every((g) => g.inactive),
      !faulty,
    );
    assert.ok(listed.every((g) => g.customerId === c));
  },
  'invoice-filter-after-paging': async (mock, faulty) => {
    const all = (await call(mock, 'GET', '/invoices')).body as { id: string; updated: string }[];
    const date = [...all.map((i) => i.updated)].sort()[Math.floor(all.length / 2)]!.slice(0, 10);
    const since = (await call(mock, 'GET', '/invoices', { query: { updatedSince: date } })).body as { id: string }[];
    const paged = (await call(mock, 'GET', '/invoices', { query: { updatedSince: date, limit: '3', page: '1' } }))
      .body as { id: string }[];
    assert.deepEqual(
      paged.map((i) => i.id),
      faulty ? paged.map((i) => i.id) : since.slice(0, 3).map((i) => i.id),
    );
    assert.equal(paged.length < 3, faulty, 'the first page is cut before the filter');
  },
  'created-since-dropped-with-updated': async (mock, faulty) => {
    const all = (await call(mock, 'GET', '/invoices')).body as { created: string }[];
    const date = [...all.map((i) => i.created)].sort()[Math.floor(all.length / 2)]!.slice(0, 10);
    const both = (await call(mock, 'GET', '/invoices', { query: { createdSince: date, updatedSince: '2000-01-01' } }))
      .body as { created: string }[];
    assert.equal(
      both.some((i) => i.created.slice(0, 10) < date),
      faulty,
    );
    const alone = (await call(mock, 'GET', '/invoices', { query: { createdSince: date } })).body as {
      created: string;
    }[];
    assert.ok(
      alone.every((i) => i.created.slice(0, 10) >= date),
      'createdSince alone holds either way',
    );
  },
  'limit-ignored-with-updated-since': async (mock, faulty) => {
    const withSince = (await call(mock, 'GET', '/invoices', { query: { updatedSince: '2000-01-01', limit: '2' } }))
      .body as unknown[];
    assert.equal(withSince.length > 2, faulty);
    assert.equal(((await call(mock, 'GET', '/invoices', { query: { limit: '2' } })).body as unknown[]).length, 2);
  },
  'page-boundary-skips-ties': async (mock, faulty) => {
    const all = (await call(mock, 'GET', '/invoices')).body as { id: string; created: string }[];
    const seen: string[] = [];
    for (let page = 1; page <= all.length + 1; page++) {
      const got = (await call(mock, 'GET', '/invoices', { query: { limit: '1', page: String(page) } })).body as {
        id: string;
      }[];
      if (got.length === 0) break;
      seen.push(...got.map((i) => i.id));
    }
    assert.equal(seen.length === all.length, !faulty, `${seen.length} of ${all.length} invoices paged`);
  },
  'billing-group-id-any-case': async (mock, faulty) => {
    const g = await firstGroup(mock);
    const twin = await call(mock, 'GET', `/billingGroups/${g.id.toUpperCase()}`);
    assert.equal(twin.status, faulty ? 200 : 404);
    if (faulty) assert.equal(twin.body.id, g.id);
  },
  'invoice-id-any-case': async (mock, faulty) => {
    const id = await firstInvoiceId(mock);
    for (const path of [`/invoices/${id.toUpperCase()}`, `/invoicesBillingGroupDetailsSnapshot/${id.toUpperCase()}`]) {
      const twin = await call(mock, 'GET', path);
      assert.equal(twin.status, faulty ? 200 : 404, path);
    }
  },
  'record-child-overwrites-parent': async (mock, faulty) => {
    assert.equal((await call(mock, 'PUT', '/orders/fault-cop', { json: { note: 'order' } })).status, 200);
    const child = await call(mock, 'PUT', '/orders/fault-cop/attachment/fault-cop-a', { json: { note: 'attachment' } });
    assert.equal(child.status, 200);
    assert.equal((await call(mock, 'GET', '/orders/fault-cop')).body.note, faulty ? 'attachment' : 'order');
  },
  'record-ids-fold-case': async (mock, faulty) => {
    for (const id of ['fault-fc-ab', 'fault-fc-AB'])
      assert.equal((await call(mock, 'PUT', `/drivers/${id}`, { json: { note: id } })).status, 200);
    assert.equal((await call(mock, 'GET', '/drivers/fault-fc-ab')).body.note, faulty ? 'fault-fc-AB' : 'fault-fc-ab');
  },
  'record-posted-not-updated': async (mock, faulty) => {
    const made = await call(mock, 'POST', '/customers', { json: { id: 'fault-pnu', note: 'posted' } });
    const id = String(made.body.id);
    assert.equal((await call(mock, 'PUT', `/customers/${id}`, { json: { note: 'put' } })).status, 200);
    assert.equal((await call(mock, 'GET', `/customers/${id}`)).body.note, faulty ? 'posted' : 'put');
    assert.equal((await call(mock, 'PUT', '/customers/fault-pnu-put', { json: { note: 'a' } })).status, 200);
    assert.equal((await call(mock, 'PUT', '/customers/fault-pnu-put', { json: { note: 'b' } })).status, 200);
    assert.equal((await call(mock, 'GET', '/customers/fault-pnu-put')).body.note, 'b', 'one made by PUT is updated');
  },
  'record-list-omits-updated': async (mock, faulty) => {
    for (const note of ['first', 'second'])
      assert.equal((await call(mock, 'PUT', '/orders/fault-lou', { json: { note } })).status, 200);
    assert.equal((await call(mock, 'GET', '/orders/fault-lou')).body.note, 'second');
    const listed = (await call(mock, 'GET', '/orders')).body as { id: string }[];
    assert.equal(
      listed.some((o) => o.id === 'fault-lou'),
      !faulty,
    );
  },
  'record-list-keeps-deleted': async (mock, faulty) => {
    assert.equal((await call(mock, 'PUT', '/orders/fault-lkd', { json: { note: 'x' } })).status, 200);
    assert.equal((await call(mock, 'DELETE', '/orders/fault-lkd')).status, 200);
    assert.equal((await call(mock, 'GET', '/orders/fault-lkd')).status, 404);
    const listed = (await call(mock, 'GET', '/orders')).body as { id: string }[];
    assert.equal(
      listed.some((o) => o.id === 'fault-lkd'),
      faulty,
    );
  },
  'record-second-delete-ignored': async (mock, faulty) => {
    const path = '/largeContracts/fault-sdi';
    assert.equal((await call(mock, 'PUT', path, { json: { note: 'x' } })).status, 200);
    assert.equal((await call(mock, 'DELETE', path)).status, 200);
    assert.equal((await call(mock, 'GET', path)).status, 404, 'the first DELETE removes it either way');
    assert.equal((await call(mock, 'PUT', path, { json: { note: 'y' } })).status, 200);
    assert.equal((await call(mock, 'DELETE', path)).status, 200);
    assert.equal((await call(mock, 'GET', path)).status, faulty ? 200 : 404);
  },
  'offer-read-marks-queried': async (mock, faulty) => {
    await call(mock, 'PUT', '/offers/fault-queried', { json: offerBody('queried') });
    assert.equal((await offer(mock, 'fault-queried'))?.queried, false, 'the first read shows it as written');
    assert.equal((await offer(mock, 'fault-queried'))?.queried, faulty, 'the second read shows what the first left');
  },
  'record-read-stamps-viewed': async (mock, faulty) => {
    await call(mock, 'PUT', '/orders/fault-viewed', { json: { name: 'viewed' } });
    assert.equal('lastViewedAt' in (await call(mock, 'GET', '/orders/fault-viewed')).body, false);
    assert.equal('lastViewedAt' in (await call(mock, 'GET', '/orders/fault-viewed')).body, faulty);
    const listed = ((await call(mock, 'GET', '/orders')).body as Json[]).find((o) => o.id === 'fault-viewed');
    assert.equal('lastViewedAt' in listed, faulty, 'the list shows what the GET by id left');
  },
  'batch-status-read-once': async (mock, faulty) => {
    const { batchId } = (await call(mock, 'PUT', '/offers/fault-read-once', { json: offerBody('read-once') })).body;
    assert.equal((await call(mock, 'GET', `/bookings/requestsStatus/batch/${batchId}`)).status, 200);
    assert.equal((await call(mock, 'GET', `/bookings/requestsStatus/batch/${batchId}`)).status, faulty ? 404 : 200);
  },
  'forced-status-expires': async (mock, faulty) => {
    const g = await firstGroup(mock);
    await call(mock, 'PUT', `/billingGroups/${g.id}/status`, { json: { status: 'Forced-expiring' } });
    assert.equal(await statusOf(mock, g.id), 'Forced-expiring', 'the forced status shows at once');
    // Time is what this fault bends: past its second, the faulty mock shows the group's own status again.
    await delay(1_100);
    assert.equal(await statusOf(mock, g.id), faulty ? g.status : 'Forced-expiring');
  },
  'deleted-record-returns': async (mock, faulty) => {
    await call(mock, 'PUT', '/orders/fault-returns', { json: { name: 'returns' } });
    assert.equal((await call(mock, 'DELETE', '/orders/fault-returns')).status, 200);
    assert.equal((await call(mock, 'GET', '/orders/fault-returns')).status, 404, 'gone at once');
    // Time is what this fault bends: past its second, the faulty mock answers the record again.
    await delay(1_100);
    assert.equal((await call(mock, 'GET', '/orders/fault-returns')).status, faulty ? 200 : 404);
  },
  'offer-ids-case-folded': async (mock, faulty) => {
    await call(mock, 'PUT', '/offers/fault-case-ab', { json: offerBody('lower', { quantity: 1 }) });
    await call(mock, 'PUT', '/offers/fault-case-AB', { json: offerBody('upper', { quantity: 2 }) });
    assert.equal((await offer(mock, 'fault-case-ab'))?.quantity, faulty ? 2 : 1);
    assert.equal((await offer(mock, 'fault-case-AB'))?.quantity, 2);
  },
  'delete-cancels-unbooked-offers': async (mock, faulty) => {
    const unbooked = (tag: string) => {
      const { bookingId: _b, ...rest } = offerBody('unbooked').offer as Json;
      return { offer: { ...rest, references: [tag] } };
    };
    for (const id of ['fault-unbooked-a', 'fault-unbooked-b'])
      await call(mock, 'PUT', `/offers/${id}`, { json: unbooked(id) });
    await call(mock, 'PUT', '/offers/fault-booked', { json: offerBody('unbooked') });
    await call(mock, 'DELETE', '/offers/fault-unbooked-a');
    assert.equal((await offer(mock, 'fault-unbooked-a'))?.canceled, true);
    assert.equal(
      (await offer(mock, 'fault-unbooked-b'))?.canceled,
      faulty,
      'another offer written without a bookingId',
    );
    assert.equal((await offer(mock, 'fault-booked'))?.canceled, false, 'an offer of a booking');
  },
  'booking-write-uncancels': async (mock, faulty) => {
    for (const id of ['fault-uncancel-a', 'fault-uncancel-b'])
      await call(mock, 'PUT', `/offers/${id}`, { json: offerBody('uncancel') });
    await call(mock, 'DELETE', '/offers/fault-uncancel-a');
    assert.equal((await offer(mock, 'fault-uncancel-a'))?.canceled, true);
    await call(mock, 'PUT', '/offers/fault-uncancel-b', { json: { offer: { quantity: 9 } } });
    assert.equal((await offer(mock, 'fault-uncancel-a'))?.canceled, !faulty);
  },
  'bulk-update-of-single-offer-ignored': async (mock, faulty) => {
    await call(mock, 'PUT', '/offers/fault-single', { json: offerBody('single', { quantity: 1 }) });
    await call(mock, 'POST', '/offers/bulk', {
      json: [
        { id: 'fault-single', offer: { quantity: 2 } },
        { ...offerBody('fresh', { quantity: 3 }), id: 'fault-bulk-new' },
      ],
    });
    assert.equal((await offer(mock, 'fault-single'))?.quantity, faulty ? 1 : 2);
    assert.equal((await offer(mock, 'fault-bulk-new'))?.quantity, 3, 'a bulk item that creates is written');
  },
  'offer-list-one-per-timestamp': async (mock, faulty) => {
    const at = '2031-05-05T05:05:05.000Z';
    for (const id of ['fault-same-time-a', 'fault-same-time-b'])
      await call(mock, 'PUT', `/offers/${id}`, { json: offerBody(id, { transportTimestamp: at }) });
    const listed = (await call(mock, 'GET', '/offers', { query: { start: at, end: at } })).body as { id: string }[];
    assert.deepEqual(
      listed.map((o) => o.id).sort(),
      faulty ? ['fault-same-time-b'] : ['fault-same-time-a', 'fault-same-time-b'],
    );
  },
  'offer-list-stale-after-update': async (mock, faulty) => {
    await call(mock, 'PUT', '/offers/fault-stale', { json: offerBody('stale', { quantity: 1 }) });
    await call(mock, 'PUT', '/offers/fault-stale', { json: { offer: { quantity: 2 } } });
    assert.equal((await offer(mock, 'fault-stale'))?.quantity, 2, 'GET by id shows the update');
    const listed = ((await call(mock, 'GET', '/offers')).body as Json[]).find((o) => o.id === 'fault-stale');
    assert.equal(listed.quantity, faulty ? 1 : 2);
  },
};

describe('fault switches', () => {
  it('every fault has a one-line description', () => {
    assert.deepEqual(Object.keys(faultDescriptions).sort(), [...faultNames].sort());
    for (const name of faultNames) assert.match(faultDescriptions[name], /^[^\n]{20,200}$/, name);
  });

  it('startMock refuses an unknown fault name and lists the allowed ones', async () => {
    await assert.rejects(startMock({ token: TOKEN, faults: ['no-such-fault' as FaultName] }), (err: Error) => {
      assert.match(err.message, /no-such-fault/);
      for (const name of faultNames) assert.ok(err.message.includes(name), name);
      return true;
    });
  });

  for (const name of faultNames) {
    describe(name, () => {
      it('the conformant mock keeps the contract', () => withMock({}, (mock) => probes[name](mock, false)));
      it('the fault breaks it as named', () => withMock({ faults: [name] }, (mock) => probes[name](mock, true)));
    });
  }
});
