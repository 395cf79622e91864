/**
 * The lenient variant (variant.ts `lenientInput`, part of the `different`
 * preset) reads what it can: a JSON body under another content type, a bulk
 * item without id, a wrongly typed field dropped. It still answers only valid
 * shapes, and the default mock still refuses the same input with a 4xx.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validate } from '../../schemas/registry.ts';
import { call, offerBody, withMock } from './helpers.ts';

const lenient = { variant: { lenientInput: true } };

describe('lenient input variant', () => {
  it('reads a JSON body sent as text/plain; the default mock answers 415', async () => {
    const raw = JSON.stringify(offerBody('plain'));
    await withMock(lenient, async (mock) => {
      const a = await call(mock, 'PUT', '/offers/lenient-plain', { raw, contentType: 'text/plain' });
      assert.ok(a.status >= 200 && a.status < 300, `answered ${a.status}`);
      const read = await call(mock, 'GET', '/offers/lenient-plain');
      assert.equal(read.body[0].offerVersion, '3');
    });
    await withMock({}, async (mock) => {
      assert.equal((await call(mock, 'PUT', '/offers/strict-plain', { raw, contentType: 'text/plain' })).status, 415);
    });
  });

  it('gives a bulk item without id an id of its own', () =>
    withMock(lenient, async (mock) => {
      const a = await call(mock, 'POST', '/offers/bulk', { json: [offerBody('no-id')] });
      assert.ok(a.status >= 200 && a.status < 300, `answered ${a.status}`);
      const listed = (await call(mock, 'GET', '/offers')).body as { bookingId: string }[];
      assert.ok(listed.some((o) => o.bookingId === 'no-id-booking'));
    }));

  it('drops a wrongly typed field, stores the rest, and still answers valid offers', () =>
    withMock(lenient, async (mock) => {
      const body = offerBody('typed');
      const a = await call(mock, 'PUT', '/offers/lenient-typed', {
        json: { ...body, offer: { ...body.offer, quantity: 'twelve', transportTimestamp: '2021-02-30T10:00:00Z' } },
      });
      assert.ok(a.status >= 200 && a.status < 300, `answered ${a.status}`);
      const read = await call(mock, 'GET', '/offers/lenient-typed');
      assert.equal(typeof read.body[0].quantity, 'number');
      assert.equal(read.body[0].offerVersion, '3');
      assert.ok(validate('offer-list', read.body).valid);
    }));

  it('refuses with a 400 what cannot be read as an offer at all', () =>
    withMock(lenient, async (mock) => {
      assert.equal((await call(mock, 'PUT', '/offers/lenient-42', { json: 42 })).status, 400);
      assert.equal((await call(mock, 'POST', '/offers/bulk', { json: { offer: {} } })).status, 400);
      assert.equal((await call(mock, 'POST', '/offers', { raw: '{"offer": ', contentType: 'text/plain' })).status, 415);
    }));
});
