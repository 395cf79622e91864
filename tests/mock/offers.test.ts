/** Offers (spec 1, 2.2, 2.3, 3 rule 4, 4.1): asynchronous upserts, exact read-back, cancellation, bulk, window filter. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validate } from '../../schemas/registry.ts';
import type { RunningMock } from '../../mock/server.ts';
import { call, offerBody, withMock, WRITTEN_FIELDS, type Json } from './helpers.ts';
import { pollUntil } from '../../core/poll.ts';

async function readOffer(mock: RunningMock, id: string): Promise<Record<string, Json> | undefined> {
  const a = await call(mock, 'GET', `/offers/${encodeURIComponent(id)}`);
  return a.status === 200 ? a.body[0] : undefined;
}

async function visibleOffer(
  mock: RunningMock,
  id: string,
  ready: (o: Record<string, Json>) => boolean = () => true,
): Promise<Record<string, Json>> {
  const r = await pollUntil(
    () => readOffer(mock, id),
    (o) => o !== undefined && ready(o),
    { timeoutMs: 3000, intervalMs: 10 },
  );
  assert.ok(r.ok && r.value, `offer ${id} did not reach the expected state within ${r.elapsedMs} ms`);
  return r.value;
}

/** Every written field as written; a timestamp written at an offset as the same instant, answered in UTC (spec 2). */
function assertWrittenFields(offer: Record<string, Json>, written: Record<string, Json>): void {
  for (const f of WRITTEN_FIELDS) {
    if (!(f in written)) continue;
    if (f !== 'transportTimestamp') assert.deepEqual(offer[f], written[f], f);
    else {
      assert.equal(Date.parse(offer[f]), Date.parse(written[f]), `${f}: the instant written`);
      assert.match(offer[f], /Z$/, `${f}: in UTC`);
    }
  }
}

describe('offers', () => {
  it('a write with writeDelayMs becomes visible only after the delay; its batch goes PENDING -> PROCESSED', () =>
    // 1 s, not less: the "not yet visible" reads must land inside the delay even on a loaded machine.
    withMock({ writeDelayMs: 1000 }, async (mock) => {
      const start = Date.now();
      const ack = await call(mock, 'PUT', '/offers/delay-1', { json: offerBody('delay') });
      assert.equal(ack.status, 200);
      assert.equal((await call(mock, 'GET', '/offers/delay-1')).status, 404, 'visible before the delay');
      const pending = await call(mock, 'GET', `/bookings/requestsStatus/batch/${ack.body.batchId}`);
      assert.equal(pending.status, 200);
      assert.equal(pending.body.status, 'PENDING');
      await visibleOffer(mock, 'delay-1');
      assert.ok(Date.now() - start >= 990, `visible after ${Date.now() - start} ms`);
      const done = await call(mock, 'GET', `/bookings/requestsStatus/batch/${ack.body.batchId}`);
      assert.equal(done.body.status, 'PROCESSED');
      assert.deepEqual(
        done.body.items.map((i: { offerId: string }) => i.offerId),
        ['delay-1'],
      );
    }));

  it('without a delay, a write is visible at once', () =>
    withMock({}, async (mock) => {
      const ack = await call(mock, 'POST', '/offers', { json: offerBody('now') });
      assert.equal(typeof ack.body.id, 'string');
      assert.ok(await readOffer(mock, ack.body.id));
    }));

  it('reads back every written field exactly, and derives the rest', () =>
    withMock({}, async (mock) => {
      const body = offerBody('exact');
      const ack = await call(mock, 'POST', '/offers', { json: body });
      const offer = await visibleOffer(mock, ack.body.id);
      assertWrittenFields(offer, body.offer);
      assert.equal(offer.id, ack.body.id);
      assert.equal(offer.canceled, false);
      assert.equal(offer.priceStrategy, null);
      assert.ok(offer.distanceKm > 250 && offer.distanceKm < 500, `distance ${offer.distanceKm}`);
      assert.equal(offer.fromLocationDistrict, 'Greater Manchester');
      assert.equal(offer.toLocationDistrict, 'Thurrock');
      assert.equal('metadata' in offer, false);
      assert.ok(validate('offer', offer).valid);
    }));

  it('applies defaults: noPayment false, priceStrategy null', () =>
    withMock({}, async (mock) => {
      const ack = await call(mock, 'POST', '/offers', { json: { offer: { quantity: 1 } } });
      const offer = await visibleOffer(mock, ack.body.id);
      assert.equal(offer.noPayment, false);
      assert.equal(offer.priceStrategy, null);
      assert.ok(validate('offer', offer).valid);
    }));

  it('PUT to a new id creates, to an existing id merges; the same PUT twice leaves one equal offer', () =>
    withMock({}, async (mock) => {
      const body = offerBody('upsert');
      await call(mock, 'PUT', '/offers/upsert-1', { json: body });
      const first = await visibleOffer(mock, 'upsert-1');
      await call(mock, 'PUT', '/offers/upsert-1', { json: body });
      assert.deepEqual(await readOffer(mock, 'upsert-1'), first);
      assert.equal(
        (await call(mock, 'GET', '/offers')).body.filter((o: { id: string }) => o.id === 'upsert-1').length,
        1,
      );
      await call(mock, 'PUT', '/offers/upsert-1', { json: { offer: { quantity: 99, references: ['changed'] } } });
      const merged = await visibleOffer(mock, 'upsert-1', (o) => o.quantity === 99);
      assert.deepEqual(merged.references, ['changed']);
      assert.deepEqual(merged.fromLocation, body.offer.fromLocation, 'fields the update did not write are kept');
    }));

  it('cancel: true sets canceled; DELETE sets canceled and keeps the offer readable', () =>
    withMock({}, async (mock) => {
      await call(mock, 'PUT', '/offers/cancel-1', { json: { ...offerBody('c1'), cancel: true } });
      assert.equal((await visibleOffer(mock, 'cancel-1')).canceled, true);
      await call(mock, 'PUT', '/offers/cancel-2', { json: offerBody('c2') });
      assert.equal((await visibleOffer(mock, 'cancel-2')).canceled, false);
      const del = await call(mock, 'DELETE', '/offers/cancel-2');
      assert.equal(typeof del.body.batchId, 'string');
      assert.equal((await visibleOffer(mock, 'cancel-2')).canceled, true);
    }));

  it('settled sets settled', () =>
    withMock({}, async (mock) => {
      await call(mock, 'PUT', '/offers/settle-1', { json: { ...offerBody('s'), settled: true } });
      assert.equal((await visibleOffer(mock, 'settle-1')).settled, true);
    }));

  it('DELETE right after a delayed write is accepted; an unknown id is a JSON 404', () =>
    withMock({ writeDelayMs: 200 }, async (mock) => {
      await call(mock, 'PUT', '/offers/soon-1', { json: offerBody('soon') });
      assert.equal((await call(mock, 'DELETE', '/offers/soon-1')).status, 200);
      assert.equal((await visibleOffer(mock, 'soon-1', (o) => o.canceled)).canceled, true);
      const unknown = await call(mock, 'DELETE', '/offers/never-written');
      assert.equal(unknown.status, 404);
      assert.equal((await call(mock, 'GET', '/offers/never-written')).body.code, 'NOT_FOUND');
    }));

  it('bulk writes every item under its id, in one batch', () =>
    withMock({}, async (mock) => {
      const items: Record<string, Json>[] = [1, 2, 3].map((n) => ({
        ...offerBody(`bulk${n}`, { quantity: n }),
        id: `bulk-${n}`,
      }));
      const ack = await call(mock, 'POST', '/offers/bulk', { json: items });
      assert.equal(ack.body.success, true);
      for (const item of items) assertWrittenFields(await visibleOffer(mock, item.id), item.offer);
      const batch = await call(mock, 'GET', `/bookings/requestsStatus/batch/${ack.body.batchId}`);
      assert.deepEqual(
        batch.body.items.map((i: { offerId: string }) => i.offerId),
        ['bulk-1', 'bulk-2', 'bulk-3'],
      );
    }));

  it('GET /offers filters on transportTimestamp within [start, end], both ends inclusive', () =>
    withMock({}, async (mock) => {
      await call(mock, 'PUT', '/offers/win-1', {
        json: offerBody('w1', { transportTimestamp: '2040-01-01T10:00:00Z' }),
      });
      await call(mock, 'PUT', '/offers/win-2', {
        json: offerBody('w2', { transportTimestamp: '2040-01-02T10:00:00Z' }),
      });
      const ids = async (query: Record<string, string>) =>
        (await call(mock, 'GET', '/offers', { query })).body.map((o: { id: string }) => o.id);
      assert.deepEqual(await ids({ start: '2040-01-01T10:00:00Z', end: '2040-01-01T10:00:00Z' }), ['win-1']);
      assert.deepEqual(await ids({ start: '2040-01-01T11:00:00+01:00', end: '2040-01-03T00:00:00Z' }), [
        'win-1',
        'win-2',
      ]);
      assert.deepEqual(await ids({ start: '2040-01-02T00:00:00Z' }), ['win-2']);
      assert.deepEqual(await ids({ start: '2040-01-03T00:00:00Z', end: '2040-01-01T00:00:00Z' }), []);
    }));

  it('GET /offers refuses a start or end that is not a date-time with 400', () =>
    withMock({}, async (mock) => {
      for (const query of <Record<string, string>[]>[
        { start: 'yesterday' },
        { end: '2040-01-01' },
        { start: '2040-13-01T00:00:00Z' },
        { end: '2040-01-01T10:00:00' },
      ]) {
        const a = await call(mock, 'GET', '/offers', { query });
        assert.equal(a.status, 400, JSON.stringify(query));
        assert.equal(a.body.code, 'INVALID_QUERY');
      }
    }));

  it('the booking status answers for written and seeded bookings, 404 otherwise', () =>
    withMock({}, async (mock) => {
      await call(mock, 'PUT', '/offers/bk-1', { json: offerBody('bk') });
      const written = await call(mock, 'GET', '/bookings/requestsStatus/booking/bk-booking');
      assert.equal(written.status, 200);
      assert.deepEqual(written.body.offerIds, ['bk-1']);
      const seeded = (await call(mock, 'GET', '/offers')).body[0].bookingId as string;
      assert.equal((await call(mock, 'GET', `/bookings/requestsStatus/booking/${seeded}`)).status, 200);
      assert.equal((await call(mock, 'GET', '/bookings/requestsStatus/booking/nobody')).status, 404);
      assert.equal((await call(mock, 'GET', '/bookings/requestsStatus/batch/no-such-batch')).status, 404);
    }));

  it("the 'different' variant answers 201 to creates and 202 to the other acks, with uuid ids", () =>
    withMock({ variant: { createdStatus: 201, idFormat: 'uuid', extraFields: true } }, async (mock) => {
      const created = await call(mock, 'POST', '/offers', { json: offerBody('v') });
      assert.equal(created.status, 201);
      assert.match(created.body.id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      assert.equal((await call(mock, 'PUT', '/offers/v-1', { json: offerBody('v1') })).status, 202);
      assert.equal((await call(mock, 'DELETE', '/offers/v-1')).status, 202);
      assert.equal((await call(mock, 'POST', '/offers/bulk', { json: [] })).status, 202);
      const offer = await visibleOffer(mock, created.body.id);
      assert.equal(offer.tenantId, 'tenant-eu-west-7f3a', 'extra undocumented field');
      assertWrittenFields(offer, offerBody('v').offer);
    }));
});
