/** Spec 5: every operation requires the bearer token; refusals are JSON and never echo the token. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RunningMock } from '../../mock/server.ts';
import { startMock } from '../../mock/server.ts';
import { call, fill, specOperations, TOKEN } from './helpers.ts';

const ops = specOperations();
const WRONG = 'wrong-token-9f8e7d';

describe('auth on every operation', () => {
  let mock: RunningMock;
  before(async () => {
    mock = await startMock({ token: TOKEN });
  });
  after(() => mock.close());

  it('the spec lists 125 operations', () => {
    assert.equal(ops.length, 125);
  });

  it('answers 401 JSON without an Authorization header, on all of them', async () => {
    for (const op of ops) {
      const a = await call(mock, op.method, fill(op.path), {
        token: null,
        json: op.method === 'PUT' || op.method === 'POST' ? {} : undefined,
      });
      assert.equal(a.status, 401, `${op.method} ${op.path}`);
      assert.match(a.contentType, /^application\/json/, `${op.method} ${op.path}`);
      assert.equal(a.body?.statusCode, 401);
    }
  });

  it('answers 401 or 403 JSON to a wrong token, without echoing it', async () => {
    for (const op of ops) {
      const a = await call(mock, op.method, fill(op.path), { token: WRONG });
      assert.ok(a.status === 401 || a.status === 403, `${op.method} ${op.path}: ${a.status}`);
      assert.match(a.contentType, /^application\/json/);
      assert.ok(!a.text.includes(WRONG), `${op.method} ${op.path} echoed the token`);
      assert.ok(!a.text.toLowerCase().includes('bearer '), `${op.method} ${op.path} echoed the header`);
    }
  });

  it('refuses other schemes and empty bearer values', async () => {
    for (const authorization of [`Basic ${TOKEN}`, 'Bearer', 'Bearer ', TOKEN, `Bearer ${TOKEN} extra`]) {
      const a = await call(mock, 'GET', '/billingGroups', { authorization });
      assert.equal(a.status, 401, authorization);
    }
  });

  it('accepts the right token on every operation (no 401/403 and no 5xx)', async () => {
    for (const op of ops) {
      const a = await call(
        mock,
        op.method,
        fill(op.path),
        op.method === 'PUT' || op.method === 'POST'
          ? { json: op.path.endsWith('bulk') || op.path.endsWith('bulkStatusUpdate') ? [] : {} }
          : {},
      );
      assert.ok(
        a.status !== 401 && a.status !== 403 && a.status < 500,
        `${op.method} ${op.path}: ${a.status} ${a.text}`,
      );
    }
  });

  it('accepts the scheme name in any case', async () => {
    const a = await call(mock, 'GET', '/billingGroups', { authorization: `bearer ${TOKEN}` });
    assert.equal(a.status, 200);
  });

  it('checks the token before parsing the body', async () => {
    const a = await call(mock, 'POST', '/offers', { token: null, raw: '{broken' });
    assert.equal(a.status, 401);
  });
});
