/** Billing groups (spec 2.4, 3 rules 1-3, 4.2): forced status, its removal, the bulk update and the list filters. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RunningMock } from '../../mock/server.ts';
import { startMock } from '../../mock/server.ts';
import { call, TOKEN } from './helpers.ts';

interface Group {
  id: string;
  date: string;
  status: string;
  customerId: string;
  inactive: boolean;
}

describe('billing groups', () => {
  let mock: RunningMock;
  let groups: Group[];
  before(async () => {
    mock = await startMock({ token: TOKEN });
    groups = (await call(mock, 'GET', '/billingGroups')).body;
  });
  after(() => mock.close());
  const statusOf = async (id: string) => (await call(mock, 'GET', `/billingGroups/${id}`)).body.status as string;
  const list = async (query: Record<string, string>) =>
    (await call(mock, 'GET', '/billingGroups', { query })).body as Group[];

  it('seeds about a dozen groups over several customers, months, statuses and both inactive values', () => {
    assert.ok(groups.length >= 10);
    assert.ok(new Set(groups.map((g) => g.customerId)).size >= 3);
    assert.ok(new Set(groups.map((g) => g.date.slice(0, 7))).size >= 3);
    assert.ok(new Set(groups.map((g) => g.status)).size >= 2);
    assert.deepEqual(new Set(groups.map((g) => g.inactive)), new Set([true, false]));
  });

  it('PUT status forces it; DELETE status brings the own status back', async () => {
    const g = groups[0]!;
    assert.deepEqual(
      (await call(mock, 'PUT', `/billingGroups/${g.id}/status`, { json: { status: 'OnHold-test' } })).body,
      { success: true },
    );
    assert.equal(await statusOf(g.id), 'OnHold-test');
    assert.equal((await list({ state: 'OnHold-test' })).length, 1, 'the list shows the forced status too');
    assert.deepEqual((await call(mock, 'DELETE', `/billingGroups/${g.id}/status`)).body, { success: true });
    assert.equal(await statusOf(g.id), g.status);
  });

  it('bulkStatusUpdate forces and removes per item', async () => {
    const [a, b] = [groups[1]!, groups[2]!];
    await call(mock, 'PUT', `/billingGroups/${b.id}/status`, { json: { status: 'Forced-b' } });
    const ack = await call(mock, 'POST', '/billingGroups/bulkStatusUpdate', {
      json: [
        { billingGroupId: a.id, status: 'Forced-a', deleteStatus: false },
        { billingGroupId: b.id, status: 'ignored', deleteStatus: true },
      ],
    });
    assert.deepEqual(ack.body, { success: true });
    assert.equal(await statusOf(a.id), 'Forced-a');
    assert.equal(await statusOf(b.id), b.status);
    await call(mock, 'DELETE', `/billingGroups/${a.id}/status`);
  });

  it('a bulk update with an unknown group changes nothing and answers 404', async () => {
    const a = groups[3]!;
    const r = await call(mock, 'POST', '/billingGroups/bulkStatusUpdate', {
      json: [
        { billingGroupId: a.id, status: 'X' },
        { billingGroupId: 'nope', status: 'X' },
      ],
    });
    assert.equal(r.status, 404);
    assert.equal(await statusOf(a.id), a.status);
  });

  it('refuses bad status bodies with 400', async () => {
    const id = groups[0]!.id;
    for (const json of [{}, { status: 5 }, []])
      assert.equal(
        (await call(mock, 'PUT', `/billingGroups/${id}/status`, { json })).status,
        400,
        JSON.stringify(json),
      );
    for (const json of [
      {},
      [{ status: 'x' }],
      [{ billingGroupId: id }],
      [{ billingGroupId: id, deleteStatus: 'yes' }],
    ]) {
      assert.equal(
        (await call(mock, 'POST', '/billingGroups/bulkStatusUpdate', { json })).status,
        400,
        JSON.stringify(json),
      );
    }
  });

  it('answers a JSON 404 for unknown ids on every billing-group path', async () => {
    for (const [method, path, json] of [
      ['GET', '/billingGroups/nope'],
      ['GET', '/billingGroups/nope/details'],
      ['PUT', '/billingGroups/nope/status', { status: 'x' }],
      ['DELETE', '/billingGroups/nope/status'],
    ] as const) {
      const a = await call(mock, method, path, json ? { json } : {});
      assert.equal(a.status, 404, `${method} ${path}`);
      assert.equal(a.body.code, 'NOT_FOUND');
    }
  });

  it('filters by start/end (inclusive, on date), state, customerId and inactive', async () => {
    const sorted = [...groups].sort((x, y) => x.date.localeCompare(y.date));
    const [lo, hi] = [sorted[2]!.date, sorted[5]!.date];
    const windowed = await list({ start: lo, end: hi });
    assert.deepEqual(
      windowed.map((g) => g.id).sort(),
      groups
        .filter((g) => g.date >= lo && g.date <= hi)
        .map((g) => g.id)
        .sort(),
    );
    assert.ok(windowed.length >= 4);
    const customer = groups[0]!.customerId;
    const byCustomer = await list({ customerId: customer });
    assert.ok(byCustomer.length > 0 && byCustomer.every((g) => g.customerId === customer));
    assert.ok(byCustomer.length < groups.length);
    const inactive = await list({ inactive: 'true' });
    assert.ok(inactive.length > 0 && inactive.every((g) => g.inactive));
    assert.equal((await list({ inactive: 'false' })).length, groups.length - inactive.length);
    const booked = await list({ state: 'Booked' });
    assert.ok(booked.length > 0 && booked.every((g) => g.status === 'Booked'));
    assert.deepEqual(
      await list({ customerId: customer, inactive: 'true', start: '1999-01-01', end: '1999-12-31' }),
      [],
    );
  });

  it('refuses invalid filter values with 400', async () => {
    for (const query of <Record<string, string>[]>[
      { start: '2025-13-01' },
      { end: 'today' },
      { start: '2025-02-30' },
      { inactive: 'yes' },
      { start: '2025-01-01T00:00:00Z' },
    ]) {
      const a = await call(mock, 'GET', '/billingGroups', { query });
      assert.equal(a.status, 400, JSON.stringify(query));
      assert.equal(a.body.code, 'INVALID_QUERY');
    }
  });
});
