/** Section 4.3 resources: a JSON store with upserts, creates, bulk, search, analytics and the cancellations of spec 3 rule 5. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RunningMock } from '../../mock/server.ts';
import { startMock } from '../../mock/server.ts';
import { call, firstId, TOKEN } from './helpers.ts';

describe('catalogue (spec 4.3)', () => {
  let mock: RunningMock;
  before(async () => {
    mock = await startMock({ token: TOKEN, variant: { createdStatus: 201 } });
  });
  after(() => mock.close());

  it('PUT upserts the body under the path id and GET reads it back; PUT again replaces it', async () => {
    const body = { registration: 'AB12 CDE', make: 'MAN', axles: 3, tags: ['a', 'b'], nested: { k: null } };
    const put = await call(mock, 'PUT', '/tractorUnits/tu-test-1', { json: { ...body, id: 'ignored' } });
    assert.equal(put.status, 200);
    assert.deepEqual(put.body, { ...body, id: 'tu-test-1' });
    assert.deepEqual((await call(mock, 'GET', '/tractorUnits/tu-test-1')).body, { ...body, id: 'tu-test-1' });
    await call(mock, 'PUT', '/tractorUnits/tu-test-1', { json: { registration: 'ZZ99 ZZZ' } });
    assert.deepEqual((await call(mock, 'GET', '/tractorUnits/tu-test-1')).body, {
      registration: 'ZZ99 ZZZ',
      id: 'tu-test-1',
    });
    assert.ok((await call(mock, 'GET', '/tractorUnits')).body.some((t: { id: string }) => t.id === 'tu-test-1'));
  });

  it('a PUT without a body stores an empty record', async () => {
    const a = await call(mock, 'PUT', '/trailers/tr-empty');
    assert.equal(a.status, 200);
    assert.deepEqual(a.body, { id: 'tr-empty' });
  });

  it('GET of an unknown record is a JSON 404', async () => {
    for (const path of [
      '/customers/nope',
      '/bookings/nope',
      '/largeContracts/nope',
      '/orders/nope/attachment/nope',
      '/fuel/dispatchGroup/nope',
      '/carrierBookings/nope',
    ]) {
      const a = await call(mock, 'GET', path);
      assert.equal(a.status, 404, path);
      assert.equal(a.body.code, 'NOT_FOUND', path);
    }
  });

  it('POST creates with an id the mock chooses, answering createdStatus', async () => {
    const a = await call(mock, 'POST', '/customers', { json: { name: 'Wessex Timber', id: 'client-chosen' } });
    assert.equal(a.status, 201);
    assert.notEqual(a.body.id, 'client-chosen');
    assert.equal((await call(mock, 'GET', `/customers/${a.body.id}`)).body.name, 'Wessex Timber');
    const f = await call(mock, 'POST', '/fulfilmentRequests', { json: { orderId: 'o-1' } });
    assert.equal(f.status, 201);
    assert.equal(typeof f.body.id, 'string');
  });

  it('bulk writes answer one result per item and store them', async () => {
    const a = await call(mock, 'POST', '/products/bulk', {
      json: [{ id: 'p-bulk-1', name: 'Grit' }, { name: 'Salt' }],
    });
    assert.equal(a.status, 200);
    assert.equal(a.body.length, 2);
    assert.deepEqual(
      a.body.map((r: { success: boolean }) => r.success),
      [true, true],
    );
    assert.equal(a.body[0].id, 'p-bulk-1');
    assert.equal((await call(mock, 'GET', `/products/${a.body[1].id}`)).body.name, 'Salt');
  });

  it('POST /customers/search matches free text and fields', async () => {
    const byText = (await call(mock, 'POST', '/customers/search', { json: { query: 'harbour' } })).body;
    assert.deepEqual(
      byText.map((c: { name: string }) => c.name),
      ['Harbour Foods Ltd'],
    );
    const byField = (await call(mock, 'POST', '/customers/search', { json: { externalId: 'pbs-1187' } })).body;
    assert.deepEqual(
      byField.map((c: { name: string }) => c.name),
      ['Pennine Building Supplies'],
    );
    assert.deepEqual((await call(mock, 'POST', '/customers/search', { json: { query: 'no such customer' } })).body, []);
    assert.ok((await call(mock, 'POST', '/customers/search')).body.length >= 4, 'no criteria lists everyone');
  });

  it('POST /analytics/sla answers on-time figures, with or without a window', async () => {
    const all = (await call(mock, 'POST', '/analytics/sla', { json: {} })).body;
    assert.equal(all.bookings, all.onTime + all.late);
    assert.ok(all.bookings >= 4 && all.late >= 1);
    const none = (await call(mock, 'POST', '/analytics/sla', { json: { from: '1990-01-01', to: '1990-12-31' } })).body;
    assert.equal(none.bookings, 0);
    assert.equal(none.onTimeRate, null);
    assert.equal((await call(mock, 'POST', '/analytics/sla', { json: { from: 'last week' } })).status, 400);
  });

  it('DELETE on a booking event keeps it, marked canceled (spec 3 rule 5)', async () => {
    const bookingId = await firstId(mock, '/bookings');
    const events = (await call(mock, 'GET', `/bookings/${bookingId}/events`)).body;
    assert.ok(events.length > 0);
    const eventId = events[0].id as string;
    assert.equal((await call(mock, 'DELETE', `/bookings/${bookingId}/events/${eventId}`)).status, 200);
    const after = await call(mock, 'GET', `/bookings/${bookingId}/events/${eventId}`);
    assert.equal(after.status, 200);
    assert.equal(after.body.canceled, true);
    const other = (await call(mock, 'GET', `/bookings/${bookingId}/events`)).body.find(
      (e: { id: string }) => e.id !== eventId,
    );
    assert.equal(other.canceled, false, 'only that event');
  });

  it('DELETE on a transport order cancels all its events (spec 3 rule 5)', async () => {
    const booking = (await call(mock, 'GET', '/carrierBookings')).body[0];
    const toId = booking.transportOrderIds[0] as string;
    const base = `/carrierBookings/${booking.id}/transportOrder/${toId}`;
    for (const suffix of ['pickupEta', 'pickup', 'leg/leg-9/uplift', 'delivery/upload/attachment/att-1']) {
      assert.equal(
        (await call(mock, 'PUT', `${base}/${suffix}`, { json: { at: '2025-10-01T10:00:00Z' } })).status,
        200,
        suffix,
      );
    }
    const before = (await call(mock, 'GET', base)).body;
    assert.ok(before.events.length >= 4 && before.events.every((e: { canceled: boolean }) => !e.canceled));
    assert.equal((await call(mock, 'DELETE', base)).body.success, true);
    const afterDelete = (await call(mock, 'GET', base)).body;
    assert.equal(afterDelete.events.length, before.events.length);
    assert.ok(afterDelete.events.every((e: { canceled: boolean; cancelled: boolean }) => e.canceled && e.cancelled));
    const listed = (await call(mock, 'GET', `/carrierBookings/${booking.id}/events`)).body.filter(
      (e: { transportOrderId: string }) => e.transportOrderId === toId,
    );
    assert.ok(listed.length >= 4 && listed.every((e: { canceled: boolean }) => e.canceled));
  });

  it('a milestone PUT is idempotent and needs an existing carrier booking', async () => {
    const booking = (await call(mock, 'GET', '/carrierBookings')).body[1];
    const path = `/carrierBookings/${booking.id}/transportOrder/to-new/gateIn`;
    const first = await call(mock, 'PUT', path, { json: { gate: 'B' } });
    const second = await call(mock, 'PUT', path, { json: { gate: 'B' } });
    assert.equal(first.body.id, second.body.id);
    assert.equal(
      (await call(mock, 'GET', `/carrierBookings/${booking.id}/transportOrder/to-new`)).body.status,
      'GATED_IN',
    );
    assert.equal((await call(mock, 'PUT', '/carrierBookings/nope/transportOrder/x/pickup', { json: {} })).status, 404);
  });

  it('acceptance and acknowledge update the carrier booking', async () => {
    const id = await firstId(mock, '/carrierBookings');
    assert.equal(
      (
        await call(mock, 'PUT', `/carrierBookings/${id}/acceptance`, {
          json: { accepted: false, reason: 'No capacity' },
        })
      ).body.status,
      'REJECTED',
    );
    assert.equal(
      (await call(mock, 'PUT', `/carrierBookings/${id}/acceptance`, { json: { status: 'ACCEPTED' } })).body.status,
      'ACCEPTED',
    );
    assert.equal((await call(mock, 'PUT', `/carrierBookings/${id}/acknowledge`)).body.acknowledged, true);
    assert.equal((await call(mock, 'GET', `/carrierBookings/${id}`)).body.acknowledged, true);
  });

  it('DELETE removes a plain record and answers JSON; a second DELETE is a 404', async () => {
    await call(mock, 'PUT', '/largeContracts/lc-del', { json: { name: 'temp' } });
    const a = await call(mock, 'DELETE', '/largeContracts/lc-del');
    assert.deepEqual(a.body, { success: true, id: 'lc-del' });
    assert.equal((await call(mock, 'GET', '/largeContracts/lc-del')).status, 404);
    assert.equal((await call(mock, 'DELETE', '/largeContracts/lc-del')).status, 404);
  });

  it('fuel reads: by vehicle, by shift, a dispatch group trip, storages with their latest measurement', async () => {
    const activity = (await call(mock, 'GET', '/fuel/activities')).body[0];
    const byVehicle = (await call(mock, 'GET', `/fuel/activities/vehicle/${activity.vehicleId}`)).body;
    assert.ok(
      byVehicle.length >= 2 && byVehicle.every((a: { vehicleId: string }) => a.vehicleId === activity.vehicleId),
    );
    assert.deepEqual((await call(mock, 'GET', '/fuel/activities/shift/unknown-shift')).body, []);
    const trip = (await call(mock, 'GET', `/fuel/dispatchGroup/${activity.dispatchGroupId}`)).body;
    assert.ok(trip.pickups.length >= 1 && trip.deliveries.length >= 1 && trip.inventoryAdjustments.length >= 1);
    const delivery = (await call(mock, 'GET', '/fuel/deliveries')).body[0];
    assert.ok(
      (await call(mock, 'GET', `/fuel/deliveryRequests/${delivery.deliveryRequestId}/deliveries`)).body.length >= 1,
    );
    const storage = (await call(mock, 'GET', `/fuel/locations/${delivery.locationId}/storages`)).body[0];
    await call(mock, 'PUT', `/fuel/locations/${delivery.locationId}/storages/${storage.id}/measurement/m-new`, {
      json: { levelLitres: 123 },
    });
    const updated = (await call(mock, 'GET', `/fuel/locations/${delivery.locationId}/storages`)).body.find(
      (s: { id: string }) => s.id === storage.id,
    );
    assert.equal(updated.latestMeasurement.levelLitres, 123);
  });

  it('upserts of children keep the parent id from the path', async () => {
    const a = await call(mock, 'PUT', '/orders/o-9/attachment/a-9', { json: { fileName: 'x.pdf', orderId: 'other' } });
    assert.deepEqual(a.body, { fileName: 'x.pdf', orderId: 'o-9', id: 'a-9' });
    assert.equal((await call(mock, 'GET', '/orders/o-9/attachment/a-9')).body.fileName, 'x.pdf');
  });
});
