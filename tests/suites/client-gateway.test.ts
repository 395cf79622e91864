/**
 * The suites' client behind the gateway (core/client.ts): exchanges show the deployment's own URL, a
 * 502/503/504 to a GET is asked once more and both attempts reach the failure record, and the gateway's own
 * answers (carrying the run's nonce) stop the call instead of being judged; an imitation without the nonce is an
 * ordinary answer.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { Agent } from 'undici';
import { CheckFailure } from '../../core/check-failure.ts';
import { FlisClient } from '../../core/client.ts';
import { GATEWAY_HEADER } from '../../core/gateway-answer.ts';
import { testTarget } from './test-target.ts';

const NONCE = 'run-nonce-1234';
const PUBLIC = 'https://sandbox.example.test/apis/v0';
const answers: Record<string, [number, Record<string, string>, string][]> = {};
/** Paths whose next request has its connection closed without an answer (a kept-alive connection closed as idle). */
const resetOnce = new Set<string>();
const server = createServer((req, res) => {
  if (resetOnce.delete(`${req.method} ${req.url}`)) return req.socket.destroy();
  const queue = answers[req.url ?? ''] ?? [];
  const [status, headers, body] = queue.shift() ?? [200, {}, '{}'];
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
});
let baseUrl = '';
let agent: Agent;
before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/apis/v0`;
  agent = new Agent();
});
after(async () => {
  await agent.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function client(): FlisClient {
  return new FlisClient(agent, testTarget(baseUrl, { publicBaseUrl: PUBLIC, gatewayNonce: NONCE }));
}

test("exchanges show the deployment's URL, not the gateway's", async () => {
  const x = await client().send('GET', '/offers', { query: { limit: 2 } });
  assert.equal(x.request.url, `${PUBLIC}/offers?limit=2`);
});

test('a 503 to a GET is asked once more; the second answer counts and the record shows both', async () => {
  answers['/apis/v0/billingGroups'] = [
    [503, {}, '{"first":true}'],
    [502, {}, '{"second":true}'],
  ];
  const api = client();
  const x = await api.send('GET', '/billingGroups');
  assert.equal(x.response.status, 502);
  assert.equal(x.retryOf?.response.status, 503);
  assert.equal(api.exchanges.length, 1, 'the sweep sees the answer, not the attempt before it');
  const failure = new CheckFailure('no-5xx', 'HTTP semantics', 'a 5xx', { exchanges: [x] }, []);
  assert.deepEqual(
    failure.record.exchanges.map((e) => e.response.status),
    [503, 502],
  );
  assert.match(failure.message, /first attempt; asked once more/);
  assert.equal(failure.record.curl.length, 2);
});

test('a 5xx to a write is not sent again, and a passing retry is the answer', async () => {
  answers['/apis/v0/offers'] = [[503, {}, '{}']];
  const api = client();
  assert.equal((await api.send('POST', '/offers', { json: {} })).response.status, 503);
  answers['/apis/v0/invoices'] = [
    [504, {}, '{}'],
    [200, {}, '[]'],
  ];
  const x = await api.send('GET', '/invoices');
  assert.equal(x.response.status, 200);
});

test("the gateway's answer with the run's nonce stops the call; one without it is the deployment's", async () => {
  const gave = JSON.stringify({ flisGateway: 'inconclusive', reason: 'no answer within 1 s' });
  answers['/apis/v0/orders'] = [[504, { [GATEWAY_HEADER]: NONCE }, gave]];
  await assert.rejects(client().send('POST', '/orders', { json: {} }), /inconclusive: no answer within 1 s/);
  const unreachable = JSON.stringify({ flisGateway: 'unreachable', reason: 'connection refused' });
  answers['/apis/v0/drivers'] = [[502, { [GATEWAY_HEADER]: NONCE }, unreachable]];
  await assert.rejects(client().send('DELETE', '/drivers'), /could not be reached \(connection refused\)/);
  answers['/apis/v0/products'] = [[504, { [GATEWAY_HEADER]: 'not-the-nonce' }, gave]];
  assert.equal((await client().send('POST', '/products', { json: {} })).response.status, 504);
});

test("a reset of the worker's connection is asked again for an idempotent method, never for a POST", async () => {
  resetOnce.add('GET /apis/v0/customers');
  resetOnce.add('PUT /apis/v0/customers/c-1');
  assert.equal((await client().send('GET', '/customers')).response.status, 200);
  assert.equal((await client().send('PUT', '/customers/c-1', { json: {} })).response.status, 200);
  resetOnce.add('POST /apis/v0/customers');
  await assert.rejects(client().send('POST', '/customers', { json: {} }), /other side closed|ECONNRESET|socket/i);
});
