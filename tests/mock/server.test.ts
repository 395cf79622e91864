/** startMock's options: validation, variants (ids, extra fields), closing, and the default of one mock per call. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startMock } from '../../mock/server.ts';
import { variantPresets, type MockVariant } from '../../mock/variant.ts';
import { call, TOKEN, withMock } from './helpers.ts';

describe('startMock', () => {
  it('refuses an empty token and a negative write delay', async () => {
    await assert.rejects(startMock({ token: '' }), /token/);
    await assert.rejects(startMock({ token: TOKEN, writeDelayMs: -1 }), /writeDelayMs/);
  });

  it('refuses variant values outside their type', async () => {
    await assert.rejects(
      startMock({ token: TOKEN, variant: { createdStatus: 204 as MockVariant['createdStatus'] } }),
      /createdStatus/,
    );
    await assert.rejects(
      startMock({ token: TOKEN, variant: { idFormat: 'hex' as MockVariant['idFormat'] } }),
      /idFormat/,
    );
  });

  it("presets: 'default' is plain, 'different' changes every open choice", () => {
    assert.deepEqual(variantPresets.default, {
      createdStatus: 200,
      idFormat: 'prefixed',
      extraFields: false,
      lenientInput: false,
      maxBulkItems: 0,
    });
    const d = variantPresets.different;
    assert.notEqual(d.createdStatus, 200);
    assert.notEqual(d.idFormat, 'prefixed');
    assert.equal(d.extraFields, true);
    assert.equal(d.lenientInput, true);
    assert.ok(d.maxBulkItems > 0, 'a bulk size limit (spec 8 shows none)');
  });

  it('maxBulkItems: a larger bulk answers 413, one within it is taken', async () => {
    const mock = await startMock({ token: TOKEN, variant: { maxBulkItems: 2 } });
    try {
      const post = (n: number) =>
        fetch(`${mock.baseUrl}/offers/bulk`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify(Array.from({ length: n }, (_, i) => ({ id: `bulk-limit-${n}-${i}`, offer: {} }))),
        });
      assert.equal((await post(3)).status, 413);
      assert.ok((await post(2)).ok);
    } finally {
      await mock.close();
    }
  });

  it('close() stops serving', async () => {
    const mock = await startMock({ token: TOKEN });
    assert.equal((await call(mock, 'GET', '/billingGroups')).status, 200);
    await mock.close();
    await assert.rejects(call(mock, 'GET', '/billingGroups'));
  });

  it('two mocks are independent', () =>
    withMock({}, (a) =>
      withMock({}, async (b) => {
        assert.notEqual(a.baseUrl, b.baseUrl);
        await call(a, 'PUT', '/drivers/only-in-a', { json: {} });
        assert.equal((await call(b, 'GET', '/drivers/only-in-a')).status, 404);
      }),
    ));

  for (const [format, pattern] of [
    ['prefixed', /^[a-z-]+-\d+$/],
    ['uuid', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/],
    ['numeric', /^\d+$/],
    ['reserved', /^[a-z-]+ \d+\+ä&x=%\/#\?:$/],
  ] as const) {
    it(`idFormat '${format}' shapes seeded and new ids`, () =>
      withMock({ variant: { idFormat: format } }, async (mock) => {
        const groups = (await call(mock, 'GET', '/billingGroups')).body as { id: string; customerId: string }[];
        for (const g of groups) assert.match(g.id, pattern);
        const created = (await call(mock, 'POST', '/customers', { json: { name: 'n' } })).body;
        assert.match(created.id, pattern);
        const ack = (await call(mock, 'POST', '/offers', { json: {} })).body;
        assert.match(ack.batchId, pattern);
        // Seeded references stay consistent whatever the format.
        assert.equal((await call(mock, 'GET', `/customers/${encodeURIComponent(groups[0]!.customerId)}`)).status, 200);
      }));
  }

  it('createdStatus 202 applies to every POST create, 4.3 and offers alike', () =>
    withMock({ variant: { createdStatus: 202 } }, async (mock) => {
      assert.equal((await call(mock, 'POST', '/offers', { json: {} })).status, 202);
      assert.equal((await call(mock, 'POST', '/products', { json: { name: 'p' } })).status, 202);
      assert.equal(
        (await call(mock, 'PUT', '/products/p-1', { json: { name: 'p' } })).status,
        200,
        'a 4.3 upsert is not a create',
      );
    }));

  it('extraFields adds undocumented fields to every top-level object and list item, and nowhere inside', () =>
    withMock({ variant: { extraFields: true } }, async (mock) => {
      for (const path of ['/offers', '/billingGroups', '/invoices', '/drivers']) {
        const list = (await call(mock, 'GET', path)).body as Record<string, unknown>[];
        assert.ok(
          list.every((item) => 'tenantId' in item && 'revision' in item),
          path,
        );
      }
      const offer = (await call(mock, 'GET', '/offers')).body[0];
      assert.equal('tenantId' in offer.fromLocation, false, 'written nested values are untouched');
      assert.ok('tenantId' in (await call(mock, 'GET', '/nope')).body, 'error bodies too');
    }));

  it('without extraFields, no extra field appears', () =>
    withMock({}, async (mock) => {
      assert.equal('tenantId' in (await call(mock, 'GET', '/billingGroups')).body[0], false);
    }));
});
