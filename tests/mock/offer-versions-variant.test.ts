/**
 * The 'offer-versions' preset: freedoms spec 4.1 and 4.2 leave open. GET /offers
 * and GET /billingGroups refuse a list without their documented window, GET
 * /invoices one without createdSince (whether they are required is not shown),
 * and GET /offers/{offerId} answers every version of the offer, oldest first
 * (an "array of Offer", without saying why).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { variantPresets } from '../../mock/variant.ts';
import { call, offerBody, withMock } from './helpers.ts';

const WINDOW = { start: '1900-01-01T00:00:00Z', end: '2200-01-01T00:00:00Z' };

describe("the 'offer-versions' variant", () => {
  it('answers 400 to GET /offers without start or end, and lists with both', () =>
    withMock({ variant: variantPresets['offer-versions'] }, async (mock) => {
      assert.equal((await call(mock, 'GET', '/offers')).status, 400);
      assert.equal((await call(mock, 'GET', '/offers', { query: { start: WINDOW.start } })).status, 400);
      const listed = await call(mock, 'GET', '/offers', { query: WINDOW });
      assert.equal(listed.status, 200);
      assert.ok(Array.isArray(listed.body) && listed.body.length > 0, 'the seeded offers are listed');
    }));

  it('answers 400 to GET /billingGroups without start or end, and to GET /invoices without createdSince', () =>
    withMock({ variant: variantPresets['offer-versions'] }, async (mock) => {
      const days = { start: '1900-01-01', end: '2200-12-31' };
      assert.equal((await call(mock, 'GET', '/billingGroups')).status, 400);
      assert.equal((await call(mock, 'GET', '/billingGroups', { query: { state: 'Booked' } })).status, 400);
      assert.equal((await call(mock, 'GET', '/billingGroups', { query: { end: days.end } })).status, 400);
      const groups = await call(mock, 'GET', '/billingGroups', { query: days });
      assert.equal(groups.status, 200);
      assert.ok(Array.isArray(groups.body) && groups.body.length > 0, 'the seeded billing groups are listed');
      assert.equal((await call(mock, 'GET', '/invoices')).status, 400);
      assert.equal((await call(mock, 'GET', '/invoices', { query: { updatedSince: '1900-01-01' } })).status, 400);
      const invoices = await call(mock, 'GET', '/invoices', { query: { createdSince: '1900-01-01', limit: '2' } });
      assert.equal(invoices.status, 200);
      assert.equal(invoices.body.length, 2, 'the seeded invoices are listed, two to a page');
    }));

  it('answers every offerVersion written, oldest first; a write of the same version replaces it', () =>
    withMock({ variant: variantPresets['offer-versions'] }, async (mock) => {
      const body = offerBody('vv');
      const write = (offerVersion: string, quantity: number) =>
        call(mock, 'PUT', '/offers/versions-1', {
          json: { ...body, offer: { ...body.offer, offerVersion, quantity } },
        });
      await write('1', 1);
      await write('2', 2);
      await write('2', 3);
      const read = await call(mock, 'GET', '/offers/versions-1');
      assert.equal(read.status, 200);
      assert.deepEqual(
        read.body.map((o: { id: string; offerVersion: string; quantity: number }) => [
          o.id,
          o.offerVersion,
          o.quantity,
        ]),
        [
          ['versions-1', '1', 1],
          ['versions-1', '2', 3],
        ],
      );
      const listed = await call(mock, 'GET', '/offers', { query: WINDOW });
      assert.equal(listed.body.filter((o: { id: string }) => o.id === 'versions-1').length, 1, 'listed once');
    }));

  it('is off by default: one element, and GET /offers, /billingGroups and /invoices without parameters list', () =>
    withMock({}, async (mock) => {
      for (const path of ['/offers', '/billingGroups', '/invoices'])
        assert.equal((await call(mock, 'GET', path)).status, 200, path);
      const body = offerBody('vd');
      for (const offerVersion of ['1', '2'])
        await call(mock, 'PUT', '/offers/versions-2', { json: { ...body, offer: { ...body.offer, offerVersion } } });
      assert.equal((await call(mock, 'GET', '/offers/versions-2')).body.length, 1);
    }));
});
