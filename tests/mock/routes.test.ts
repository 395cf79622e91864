/** Every operation of specs/openapi.yaml is served, under /apis/v0, as JSON; the catalogue table matches the spec. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { catalogueRoutes } from '../../mock/routes/catalogue.ts';
import type { RunningMock } from '../../mock/server.ts';
import { startMock } from '../../mock/server.ts';
import { call, fill, specOperations } from './helpers.ts';

const ops = specOperations();

describe('routes', () => {
  let mock: RunningMock;
  before(async () => {
    mock = await startMock({ token: 'tok-routes' });
  });
  after(() => mock.close());
  const get = (path: string) => call(mock, 'GET', path, { token: 'tok-routes' });

  it('serves the base URL under /apis/v0 on loopback', () => {
    assert.match(mock.baseUrl, /^http:\/\/127\.0\.0\.1:\d+\/apis\/v0$/);
  });

  it('has a route for every operation: none answers ROUTE_NOT_FOUND', async () => {
    for (const op of ops) {
      const json =
        op.method === 'PUT' || op.method === 'POST' ? (/bulk|bulkStatusUpdate$/.test(op.path) ? [] : {}) : undefined;
      const a = await call(mock, op.method, fill(op.path), {
        token: 'tok-routes',
        json,
      });
      assert.notEqual(a.body?.code, 'ROUTE_NOT_FOUND', `${op.method} ${op.path}`);
      assert.match(a.contentType, /^application\/json/, `${op.method} ${op.path}`);
      assert.ok(a.body !== undefined, `${op.method} ${op.path} answered no JSON body`);
    }
  });

  it('declares exactly the 4.3 operations in its catalogue table (requests status aside)', () => {
    const spec43 = ops.filter((o) => o.clause === 'spec 4.3' && !o.path.startsWith('/bookings/requestsStatus/'));
    const key = (o: { method: string; path: string; operationId: string }) => `${o.method} ${o.path} ${o.operationId}`;
    assert.deepEqual(catalogueRoutes.map(key).sort(), spec43.map(key).sort());
    const deprecated = catalogueRoutes
      .filter((r) => r.deprecated)
      .map((r) => r.operationId)
      .sort();
    assert.deepEqual(
      deprecated,
      spec43
        .filter((o) => o.deprecated)
        .map((o) => o.operationId)
        .sort(),
    );
  });

  it('answers every parameterless 4.3 GET with 200 and a JSON array', async () => {
    const lists = ops.filter((o) => o.clause === 'spec 4.3' && o.method === 'GET' && o.pathParams.length === 0);
    assert.ok(lists.length >= 12);
    for (const op of lists) {
      const a = await get(op.path);
      assert.equal(a.status, 200, op.path);
      assert.match(a.contentType, /^application\/json/);
      assert.ok(Array.isArray(a.body) && a.body.length > 0, `${op.path} should list seeded records`);
    }
  });

  it('answers an unknown route under /apis/v0 with a JSON 404', async () => {
    const a = await get('/noSuchResource/1');
    assert.equal(a.status, 404);
    assert.equal(a.body.code, 'ROUTE_NOT_FOUND');
    assert.match(a.contentType, /^application\/json/);
  });

  it('answers an unknown method on a known path with a JSON 4xx', async () => {
    const a = await call(mock, 'PATCH', '/offers', { token: 'tok-routes', json: {} });
    assert.ok(a.status >= 400 && a.status < 500);
    assert.match(a.contentType, /^application\/json/);
  });

  it('serves the deprecated operations (spec 9 rule 3)', async () => {
    const a = await call(mock, 'POST', '/bookings', { token: 'tok-routes', json: { reference: 'old-style' } });
    assert.ok(a.status >= 200 && a.status < 300);
    const id = a.body.id as string;
    assert.equal((await get(`/bookings/${encodeURIComponent(id)}`)).body.reference, 'old-style');
    const put = await call(mock, 'PUT', '/fuel/deliveryRequests/dr-legacy', {
      token: 'tok-routes',
      json: { litres: 500 },
    });
    assert.equal(put.status, 200);
    // The deprecated path and its replacement share one store.
    assert.equal((await get('/fuel/bulkTankDeliveryRequests/dr-legacy')).body.litres, 500);
  });

  it('accepts long ids in paths', async () => {
    const id = `run-${'x'.repeat(400)}`;
    const put = await call(mock, 'PUT', `/drivers/${id}`, { token: 'tok-routes', json: { firstName: 'Long' } });
    assert.equal(put.status, 200);
    assert.equal((await get(`/drivers/${id}`)).body.id, id);
  });

  it('accepts a trailing slash', async () => {
    assert.equal((await get('/billingGroups/')).status, 200);
  });
});
