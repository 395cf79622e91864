/**
 * The one way an offer is cancelled: a test's Cleanup. Set-up offers and ids a write may have created register with
 * `awaitVisible` and are cancelled once they show; an offer the test saw cancelled is left alone; a DELETE a server
 * refuses is reported as left behind, never thrown. Against the embedded mock (writes that take 300 ms to show) and a
 * loopback server of the test's own that refuses every DELETE.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, test } from 'node:test';
import type { TestInfo } from '@playwright/test';
import { Agent } from 'undici';
import { startMock } from '../../mock/server.ts';
import { operationById } from '../../specs/contract.ts';
import { Cleanup } from '../../suites/lib/cleanup.ts';
import { FlisClient } from '../../core/client.ts';
import { offerWriteBody } from '../../suites/lib/fixtures.ts';
import { freshId } from '../../suites/lib/fresh-id.ts';
import { pollUntil } from '../../core/poll.ts';
import { testTarget } from './test-target.ts';

const RUN_ID = 'flis-cleanup-test';
// pollVisible reads the visibility deadline from the suites' target.
process.env.FLIS_GATEWAY_URL = 'http://127.0.0.1:9/apis/v0';
process.env.FLIS_RUN_ID = RUN_ID;
process.env.FLIS_VISIBILITY_TIMEOUT_MS = '20000';

const agent = new Agent();
after(() => agent.close());

/** What Cleanup reads of its test: the annotations and attachments it adds when something is left behind. */
function testInfo(): TestInfo & { attached: string[] } {
  const attached: string[] = [];
  return {
    annotations: [],
    attached,
    attach: async (name: string) => {
      attached.push(name);
    },
  } as unknown as TestInfo & { attached: string[] };
}

function requests(api: FlisClient): string[] {
  return api.exchanges.map(
    (x) => `${x.request.method} ${new URL(x.request.url).pathname.replace(/^.*\/offers/, '/offers')}`,
  );
}

test('an offer registered with awaitVisible is cancelled once it shows, with one DELETE sent after it showed', async () => {
  const mock = await startMock({ token: 'cleanup-token', writeDelayMs: 300 });
  try {
    const api = new FlisClient(agent, testTarget(mock.baseUrl, { token: 'cleanup-token', runId: RUN_ID }));
    const cleanup = new Cleanup(api, testInfo());
    const id = cleanup.offer(freshId('offer', RUN_ID), { awaitVisible: true });
    const put = await api.op(operationById('upsertOffer'), { params: { offerId: id }, json: offerWriteBody(RUN_ID) });
    assert.equal(put.response.status < 300, true, `the PUT answered ${put.response.status}`);
    await cleanup.run();
    assert.deepEqual(cleanup.leftBehind, []);
    const byCleanup = api.exchanges.slice(1);
    const sent = requests(api).slice(1);
    assert.deepEqual(
      sent.filter((r) => r.startsWith('DELETE')),
      [`DELETE /offers/${id}`],
      `one DELETE: ${sent.join(', ')}`,
    );
    const read = byCleanup.at(-2);
    assert.equal(read?.request.method, 'GET', `the DELETE follows a read: ${sent.join(', ')}`);
    assert.ok(Array.isArray(read?.response.body) && read.response.body.length > 0, 'that read showed the offer');
    const cancelled = await pollUntil(
      () => api.op(operationById('getOffer'), { params: { offerId: id } }),
      (x) => Array.isArray(x.response.body) && (x.response.body as { canceled?: boolean }[]).at(-1)?.canceled === true,
      { timeoutMs: 20_000, intervalMs: 50 },
    );
    assert.ok(cancelled.ok, `offer ${id} never read canceled: true`);
  } finally {
    await mock.close();
  }
});

test('an offer the test saw cancelled is not cancelled again', async () => {
  const mock = await startMock({ token: 'cleanup-token' });
  try {
    const api = new FlisClient(agent, testTarget(mock.baseUrl, { token: 'cleanup-token', runId: RUN_ID }));
    const cleanup = new Cleanup(api, testInfo());
    const id = cleanup.offer(freshId('offer', RUN_ID), { awaitVisible: true });
    cleanup.offerCancelled(id);
    await cleanup.run();
    assert.deepEqual(requests(api), []);
    assert.deepEqual(cleanup.leftBehind, []);
  } finally {
    await mock.close();
  }
});

test('a refused DELETE of a set-up offer is reported as left behind, not thrown', async () => {
  const server = createServer((req, res) => {
    const id = decodeURIComponent(req.url?.split('/').at(-1) ?? '');
    if (req.method === 'GET') res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify([{ id }]));
    else res.writeHead(403, { 'content-type': 'application/json' }).end('{"message":"forbidden"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/apis/v0`;
    const api = new FlisClient(agent, testTarget(baseUrl, { runId: RUN_ID }));
    const info = testInfo();
    const cleanup = new Cleanup(api, info);
    const id = cleanup.offer(freshId('offer', RUN_ID), { awaitVisible: true });
    await cleanup.run();
    assert.deepEqual(cleanup.leftBehind, [`offer ${id}: DELETE answered 403`]);
    assert.deepEqual(info.attached, ['flis-left-behind']);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});
