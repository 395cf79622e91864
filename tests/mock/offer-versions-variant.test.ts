/**
 * The 'offer-versions' preset: two freedoms spec 4.1 leaves open. GET /offers
 * refuses a list without its documented window (whether start and end are
 * required is not shown), and GET /offers/{offerId} answers every version of
 * the offer, oldest first (an "array of Offer", without saying why).
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

  it('is off by default: one element, and GET /offers without a window lists', () =>
    withMock({}, async (mock) => {
      assert.equal((await call(mock, 'GET', '/offers')).status, 200);
      const body = offerBody('vd');
      for (const offerVersion of ['1', '2'])
        await call(mock, 'PUT', '/offers/versions-2', { json: { ...body, offer: { ...body.offer, offerVersion } } });
      assert.equal((await call(mock, 'GET', '/offers/versions-2')).body.length, 1);
    }));
});
