/**
 * The id formats of mock/ids.ts. `reserved` makes ids with every character a URL path segment and a query value must
 * have percent-encoded (spec 2: identifiers are strings, nothing more), so whatever puts an id into a URL is proven to
 * encode it: the mock routes them percent-encoded and reads them back as the same id.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { idFactory } from '../../mock/ids.ts';
import { variantPresets } from '../../mock/variant.ts';
import { call, withMock } from './helpers.ts';

const MUST_ENCODE = [' ', '+', '&', '=', '%', '/', '#', '?', ':', 'ä'];

describe('mock ids', () => {
  it("'reserved' ids hold every character a path segment and a query value must encode, and stay unique", () => {
    const ids = idFactory('reserved');
    const made = [ids.next('offer'), ids.next('offer'), ids.next('invoice')];
    assert.equal(new Set(made).size, 3, `unique: ${made.join(' | ')}`);
    for (const id of made) {
      for (const c of MUST_ENCODE) assert.ok(id.includes(c), `${JSON.stringify(id)} holds ${JSON.stringify(c)}`);
      assert.notEqual(encodeURIComponent(id), id);
      assert.equal(JSON.parse(JSON.stringify(id)), id, 'a JSON string as it is');
      assert.ok(!id.split('/').some((seg) => seg === '.' || seg === '..'), `${id}: no dot segment`);
    }
    assert.match(made[2]!, /^invoice /, 'the kind leads, as in the prefixed format');
  });

  it("the 'offer-versions' preset hands out 'reserved' ids", () => {
    assert.equal(variantPresets['offer-versions'].idFormat, 'reserved');
  });

  it('seeded records with reserved ids are read by id percent-encoded, and found by a query value', () =>
    withMock({ variant: { idFormat: 'reserved' } }, async (mock) => {
      const groups = (await call(mock, 'GET', '/billingGroups')).body as { id: string; customerId: string }[];
      const group = groups[0]!;
      assert.ok(group.id.includes('%') && group.id.includes('/'), `seeded id ${group.id} is a reserved one`);
      const byId = await call(mock, 'GET', `/billingGroups/${encodeURIComponent(group.id)}`);
      assert.equal(byId.status, 200, byId.text);
      assert.equal(byId.body.id, group.id);
      const details = await call(mock, 'GET', `/billingGroups/${encodeURIComponent(group.id)}/details`);
      assert.equal(details.status, 200, details.text);
      const customer = await call(mock, 'GET', `/customers/${encodeURIComponent(group.customerId)}`);
      assert.equal(customer.status, 200, customer.text);
      const ofCustomer = await call(mock, 'GET', '/billingGroups', { query: { customerId: group.customerId } });
      assert.ok(
        (ofCustomer.body as { id: string }[]).some((g) => g.id === group.id),
        `GET /billingGroups?customerId=${group.customerId} lists ${group.id}`,
      );
      const invoices = (await call(mock, 'GET', '/invoices')).body as { id: string }[];
      const invoice = await call(mock, 'GET', `/invoices/${encodeURIComponent(invoices[0]!.id)}`);
      assert.equal(invoice.status, 200, invoice.text);
      assert.equal(invoice.body.id, invoices[0]!.id);
    }));
});
