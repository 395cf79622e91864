/** What a receiver may judge about a delivery (spec 6), and nothing more. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { validateDelivery } from '../../webhooks/validate-delivery.ts';

const post = (body: unknown) =>
  validateDelivery('POST', 'application/json', typeof body === 'string' ? body : JSON.stringify(body));

describe('validateDelivery', () => {
  it('accepts each of the 8 types with any payload but BOOKING, and extra envelope fields', () => {
    for (const type of [
      'FUEL_PICKUP',
      'FUEL_DELIVERY',
      'FUEL_DISPATCH_GROUP_CHECKED',
      'FUEL_SHIFT_CHECKED',
      'INVOICE',
      'BILLING_GROUP_DETAILS',
      'FACT',
    ]) {
      assert.deepEqual(post({ type, payload: 'not shown, anything goes', deliveryId: 7 }).violations, [], type);
    }
    assert.deepEqual(post({ type: 'BOOKING', payload: { id: 'b1' } }).violations, []);
  });

  it('rejects a missing type or payload, an unknown type, and a body that is not JSON', () => {
    assert.equal(post({ eventType: 'BOOKING', data: {} }).violations[0]?.check, 'webhook-envelope');
    assert.match(post({ type: 'SHIPMENT', payload: {} }).violations[0]?.message ?? '', /\/type/);
    assert.match(post('{not json').violations[0]?.message ?? '', /not JSON/);
    assert.match(
      validateDelivery('PUT', 'application/json', '{"type":"FACT","payload":{}}').violations[0]?.message ?? '',
      /POST/,
    );
  });

  it('requires the BOOKING payload to be the entity (an object)', () => {
    const v = post({ type: 'BOOKING', payload: ['b1'] }).violations;
    assert.equal(v[0]?.check, 'webhook-payload');
    assert.equal(v[0]?.pointer, '/payload');
  });
});
