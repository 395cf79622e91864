/**
 * The curl command of a failure record reproduces the request when the server's ids need percent-encoding (the mock's
 * `reserved` id format): the URL the suites' client built stays encoded inside shell quotes, an id in a path or in a
 * query reaches the server as the same id, and a body with a quote and a non-ASCII letter arrives as written. Run by a
 * real shell against the embedded mock on loopback.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { Agent } from 'undici';
import { startMock, type RunningMock } from '../../mock/server.ts';
import { operationById as op } from '../../specs/contract.ts';
import { FlisClient } from '../../core/client.ts';
import type { SentRequest } from '../../core/exchange.ts';
import { toCurl } from '../../core/curl.ts';
import { testTarget } from './test-target.ts';

const run = promisify(execFile);
const TOKEN = 'curl-ids-token-V8qN3zR6tW1m';
let mock: RunningMock;
const agent = new Agent();
before(async () => {
  mock = await startMock({ token: TOKEN, variant: { idFormat: 'reserved' } });
});
after(async () => {
  await agent.close();
  await mock.close();
});

/** Runs the curl command of a request as a failure record prints it (token redacted) in sh; status and body. */
async function reproduce(sent: SentRequest): Promise<{ status: number; body: unknown }> {
  const command = toCurl({ ...sent, headers: { ...sent.headers, authorization: 'Bearer [REDACTED]' } });
  const { stdout } = await run('sh', ['-c', command], { env: { PATH: process.env.PATH, FLIS_TOKEN: TOKEN } });
  const [head = '', ...rest] = stdout.split(/\r?\n\r?\n/);
  const status = Number(/^HTTP\/[\d.]+ (\d{3})/.exec(head)?.[1]);
  return { status, body: JSON.parse(rest.join('\n\n')) as unknown };
}

test('a curl reproduction reads a record by an id that needs percent-encoding, in a path and in a query', async () => {
  const api = new FlisClient(agent, testTarget(mock.baseUrl, { token: TOKEN }));
  const days = { start: '1900-01-01', end: '2200-12-31' };
  const listed = await api.op(op('listBillingGroups'), { query: days });
  const group = (listed.response.body as { id: string; customerId: string }[])[0]!;
  assert.match(group.id, /%.*\//, `${group.id} is a reserved id`);

  const byId = await api.op(op('getBillingGroup'), { params: { billingGroupId: group.id } });
  assert.equal(byId.response.status, 200, byId.response.text);
  const again = await reproduce(byId.request);
  assert.equal(again.status, 200, JSON.stringify(again.body));
  assert.equal((again.body as { id: string }).id, group.id);

  const ofCustomer = await api.op(op('listBillingGroups'), { query: { ...days, customerId: group.customerId } });
  const viaCurl = await reproduce(ofCustomer.request);
  assert.equal(viaCurl.status, 200);
  assert.deepEqual(viaCurl.body, ofCustomer.response.body, 'the same groups of the same customer');
  assert.ok((viaCurl.body as { id: string }[]).some((g) => g.id === group.id));
});

test("a curl reproduction writes under an id with a quote and keeps a body's quote and ä", async () => {
  const api = new FlisClient(agent, testTarget(mock.baseUrl, { token: TOKEN }));
  const id = "curl 1+ä&x=%/#?:'s";
  const put = await api.op(op('upsertOffer'), {
    params: { offerId: id },
    json: { offer: { references: ["it's ä"], quantity: 2 } },
  });
  assert.ok(put.response.status < 300, put.response.text);
  const replayed = await reproduce(put.request);
  assert.ok(replayed.status < 300, JSON.stringify(replayed.body));
  const read = await api.op(op('getOffer'), { params: { offerId: id } });
  const offers = read.response.body as { id: string; references: string[] }[];
  assert.equal(offers.at(-1)?.id, id, read.response.text);
  assert.deepEqual(offers.at(-1)?.references, ["it's ä"]);
});
