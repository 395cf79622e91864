/** Bad input is a 4xx with a JSON body on every write operation, never a 5xx (HTTP semantics, spec 4). */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RunningMock } from '../../mock/server.ts';
import { startMock } from '../../mock/server.ts';
import { call, fill, offerBody, specOperations, TOKEN, type Answer } from './helpers.ts';

const writes = specOperations().filter((o) => o.method === 'PUT' || o.method === 'POST');

function assertClientError(a: Answer, what: string, expected?: number): void {
  if (expected !== undefined) assert.equal(a.status, expected, `${what}: ${a.status} ${a.text}`);
  assert.ok(a.status >= 400 && a.status < 500, `${what}: ${a.status} ${a.text}`);
  assert.match(a.contentType, /^application\/json/, what);
  assert.equal(typeof a.body?.message, 'string', what);
}

describe('bad input', () => {
  let mock: RunningMock;
  let groupId: string;
  before(async () => {
    mock = await startMock({ token: TOKEN });
    groupId = (await call(mock, 'GET', '/billingGroups')).body[0].id;
  });
  after(() => mock.close());
  const pathOf = (path: string) => fill(path, { billingGroupId: groupId });

  it('malformed JSON on every write answers 400', async () => {
    for (const op of writes) {
      for (const raw of ['{', '{"a":}', 'nul', '[1,]', "{'single':'quotes'}"])
        assertClientError(await call(mock, op.method, pathOf(op.path), { raw }), `${op.method} ${op.path} ${raw}`, 400);
    }
  });

  it('an empty body with Content-Type: application/json on every write answers 400', async () => {
    for (const op of writes)
      assertClientError(await call(mock, op.method, pathOf(op.path), { raw: '' }), `${op.method} ${op.path}`, 400);
  });

  it('a non-JSON content type on every write answers 415', async () => {
    for (const op of writes) {
      assertClientError(
        await call(mock, op.method, pathOf(op.path), { raw: 'a=1', contentType: 'application/x-www-form-urlencoded' }),
        `${op.method} ${op.path}`,
        415,
      );
      assertClientError(
        await call(mock, op.method, pathOf(op.path), { raw: '{}', contentType: 'text/plain' }),
        `${op.method} ${op.path}`,
        415,
      );
    }
  });

  it('a body without a content type answers 415', async () => {
    assertClientError(
      await call(mock, 'PUT', '/drivers/d-1', { raw: '{"a":1}', contentType: null }),
      'PUT /drivers',
      415,
    );
  });

  it('JSON scalars where a record is expected answer 400 on every write', async () => {
    for (const op of writes) {
      for (const json of [42, 'text', null, true])
        assertClientError(
          await call(mock, op.method, pathOf(op.path), { json }),
          `${op.method} ${op.path} ${JSON.stringify(json)}`,
          400,
        );
    }
  });

  it('schema-invalid offer writes answer 400 listing the violations', async () => {
    const bad = [
      { offer: { quantity: 'ten' } },
      { offer: { references: 'r' } },
      { offer: { transportTimestamp: 'tomorrow' } },
      { offer: { fromLocation: { latitude: 'north' } } },
      { cancel: 'yes' },
      { offer: { properties: 'not-a-map' } },
      [],
    ];
    for (const json of bad) {
      for (const [method, path] of [
        ['POST', '/offers'],
        ['PUT', '/offers/bad-1'],
      ] as const) {
        const a = await call(mock, method, path, { json });
        assertClientError(a, `${method} ${path} ${JSON.stringify(json)}`, 400);
        assert.ok(Array.isArray(a.body.violations) && a.body.violations.length > 0);
        assert.equal(typeof a.body.violations[0].pointer, 'string');
      }
    }
    for (const json of [{}, [{ offer: {} }], [{ id: 5 }], [{ id: 'b', offer: { quantity: '1' } }]]) {
      assertClientError(await call(mock, 'POST', '/offers/bulk', { json }), `bulk ${JSON.stringify(json)}`, 400);
    }
    assert.equal((await call(mock, 'GET', '/offers/bad-1')).status, 404, 'nothing was written');
  });

  it('a valid body is still accepted after all that', async () => {
    const a = await call(mock, 'PUT', '/offers/good-1', { json: offerBody('good') });
    assert.equal(a.status, 200);
  });

  it('bulk 4.3 writes refuse non-array bodies and non-object items', async () => {
    for (const path of ['/customers/bulk', '/products/bulk', '/bookings/bulk']) {
      assertClientError(await call(mock, 'POST', path, { json: { id: 'x' } }), path, 400);
      assertClientError(await call(mock, 'POST', path, { json: [{ id: 'ok' }, 3] }), path, 400);
    }
  });

  it('repeated or wrongly typed query parameters answer 400, never 5xx', async () => {
    const cases: [string, string][] = [
      ['/invoices', 'limit=1&limit=2'],
      ['/billingGroups', 'customerId=a&customerId=b'],
      ['/offers', 'start=x'],
      ['/invoices', 'page=%00'],
      ['/billingGroups', 'inactive=1'],
      ['/invoices', `limit=${'9'.repeat(400)}`],
    ];
    for (const [path, qs] of cases) {
      const a = await call(mock, 'GET', `${path}?${qs}`);
      assert.ok(a.status < 500, `${path}?${qs}: ${a.status}`);
      if (!qs.startsWith('limit=9')) assertClientError(a, `${path}?${qs}`, 400);
    }
  });

  it('a body over the size limit answers 413, not 5xx', async () => {
    const a = await call(mock, 'PUT', '/drivers/big', { raw: JSON.stringify({ blob: 'x'.repeat(2 * 1024 * 1024) }) });
    assertClientError(a, 'PUT /drivers/big', 413);
  });

  it('a "__proto__" key does not reach the stored record', async () => {
    await call(mock, 'PUT', '/drivers/proto', { raw: '{"name":"p","__proto__":{"polluted":true}}' });
    const a = await call(mock, 'GET', '/drivers/proto');
    assert.equal(a.body.name, 'p');
    assert.equal(a.body.polluted, undefined);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('a path that is not valid URL encoding, or too long, is a JSON 4xx', async () => {
    assertClientError(await call(mock, 'GET', '/offers/%E0%A4%A'), 'bad encoding', 400);
    const long = await call(mock, 'GET', `/offers/${'x'.repeat(3000)}`);
    assertClientError(long, 'long segment', 414);
    assert.ok(!long.text.includes('xxxxxxxxxx'), 'the path is not echoed');
  });

  it('a JSON body with a byte order mark is read', async () => {
    assert.equal((await call(mock, 'PUT', '/drivers/bom', { raw: '\uFEFF{"name":"bom"}' })).status, 200);
  });

  it('DELETE with an empty JSON body is fine; GET ignores a content type', async () => {
    await call(mock, 'PUT', '/orders/o-del', { json: { n: 1 } });
    assert.equal((await call(mock, 'DELETE', '/orders/o-del', { raw: '' })).status, 200);
    assert.equal((await call(mock, 'GET', '/billingGroups', { contentType: 'text/plain' })).status, 200);
  });
});
