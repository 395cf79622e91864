/** Invoices (spec 2.6, 4.2): filters, paging in a stable order, and the single and snapshot shapes. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_PAGE_SIZE } from '../../mock/invoice-store.ts';
import type { RunningMock } from '../../mock/server.ts';
import { startMock } from '../../mock/server.ts';
import { call, TOKEN } from './helpers.ts';

interface Inv {
  id: string;
  created: string;
  updated: string;
  billingGroupIds: string[];
}

describe('invoices', () => {
  let mock: RunningMock;
  let all: Inv[];
  before(async () => {
    mock = await startMock({ token: TOKEN, variant: { idFormat: 'uuid' } });
    all = (await call(mock, 'GET', '/invoices')).body;
  });
  after(() => mock.close());
  const page = async (query: Record<string, string>) => (await call(mock, 'GET', '/invoices', { query })).body as Inv[];
  const ids = (list: Inv[]) => list.map((i) => i.id);

  it('seeds about 25 invoices over several months, ordered by created then id', () => {
    assert.ok(all.length >= 20);
    assert.ok(new Set(all.map((i) => i.created.slice(0, 7))).size >= 3);
    const order = [...all].sort((a, b) => Date.parse(a.created) - Date.parse(b.created) || (a.id < b.id ? -1 : 1));
    assert.deepEqual(ids(all), ids(order));
    assert.ok(
      all.some((i, n) => n > 0 && i.created === all[n - 1]!.created),
      'two invoices share a created time, so the id tie-break is exercised',
    );
  });

  it('references billing groups that exist', async () => {
    for (const id of new Set(all.flatMap((i) => i.billingGroupIds)))
      assert.equal((await call(mock, 'GET', `/billingGroups/${id}`)).status, 200);
  });

  it('pages with limit and page without overlap or gaps', async () => {
    const pages: Inv[][] = [];
    for (let n = 1; ; n++) {
      const p = await page({ limit: '4', page: String(n) });
      if (p.length === 0) break;
      assert.ok(p.length <= 4);
      pages.push(p);
    }
    assert.deepEqual(ids(pages.flat()), ids(all));
    assert.deepEqual(ids(await page({ limit: '3' })), ids(all.slice(0, 3)), 'limit alone is the first page');
  });

  it('uses a default page size with page but no limit', async () => {
    assert.deepEqual(ids(await page({ page: '2' })), ids(all.slice(DEFAULT_PAGE_SIZE, 2 * DEFAULT_PAGE_SIZE)));
    assert.deepEqual(await page({ page: '999' }), []);
  });

  it('createdSince and updatedSince keep invoices at or after the start of that day (UTC)', async () => {
    const pivot = all[10]!;
    const day = pivot.created.slice(0, 10);
    const since = await page({ createdSince: day });
    assert.deepEqual(ids(since), ids(all.filter((i) => i.created.slice(0, 10) >= day)));
    assert.ok(since.some((i) => i.id === pivot.id));
    assert.ok(since.length < all.length);
    const uDay = all[15]!.updated.slice(0, 10);
    assert.deepEqual(ids(await page({ updatedSince: uDay })), ids(all.filter((i) => i.updated.slice(0, 10) >= uDay)));
    assert.deepEqual(
      ids(await page({ createdSince: day, limit: '2', page: '2' })),
      ids(all.filter((i) => i.created.slice(0, 10) >= day).slice(2, 4)),
    );
  });

  it('refuses invalid filter and paging values with 400', async () => {
    for (const query of <Record<string, string>[]>[
      { limit: '0' },
      { limit: '-1' },
      { limit: 'many' },
      { page: '0' },
      { page: '1.5' },
      { createdSince: '2025-1-1' },
      { updatedSince: 'yesterday' },
    ]) {
      const a = await call(mock, 'GET', '/invoices', { query });
      assert.equal(a.status, 400, JSON.stringify(query));
    }
  });

  it('the single invoice carries billingGroups objects; the snapshot carries billingGroupDetails and no billingGroups', async () => {
    const inv = all.find((i) => i.billingGroupIds.length > 1)!;
    const single = (await call(mock, 'GET', `/invoices/${inv.id}`)).body;
    assert.deepEqual(
      single.billingGroups.map((g: { id: string }) => g.id),
      inv.billingGroupIds,
    );
    assert.equal('billingGroupIds' in single, false);
    const snap = (await call(mock, 'GET', `/invoicesBillingGroupDetailsSnapshot/${inv.id}`)).body;
    assert.deepEqual(
      snap.billingGroupDetails.map((d: { id: string }) => d.id),
      inv.billingGroupIds,
    );
    assert.equal('billingGroups' in snap, false);
    assert.equal((await call(mock, 'GET', '/invoices/nope')).status, 404);
    assert.equal((await call(mock, 'GET', '/invoicesBillingGroupDetailsSnapshot/nope')).status, 404);
  });
});
