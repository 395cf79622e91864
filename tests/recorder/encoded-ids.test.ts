/**
 * Recording and replaying traffic whose ids a URL must percent-encode (the mock's `reserved` id format: a space, `+`,
 * `&`, `=`, `%`, `/`, `#`, `?`, `:` and `ä`). The cassette keeps a path as it was sent (encoded) and a query value
 * decoded; replay matches the same requests to the same answers, also when another client encodes the same id
 * another way, and the contract check finds the operation of every such path.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { readCassette } from '../../recorder/cassette-reader.ts';
import { startReplayServer } from '../../recorder/replay-server.ts';
import { call, tempDir, TOKEN, type Answer } from './helpers.ts';
import { recordMock } from './record-mock.ts';

const env = { FLIS_TOKEN: TOKEN };
const DAYS = 'start=1900-01-01&end=2200-12-31';

/** Reads by ids in paths and in a query value, the ids taken from the answers before. */
async function traffic(baseUrl: string): Promise<Answer[]> {
  const out: Answer[] = [];
  const list = await call(baseUrl, `/billingGroups?${DAYS}`);
  out.push(list);
  const group = (list.json() as { id: string; customerId: string }[])[0]!;
  for (const path of [
    `/billingGroups/${encodeURIComponent(group.id)}`,
    `/billingGroups/${encodeURIComponent(group.id)}/details`,
    `/billingGroups?${DAYS}&customerId=${encodeURIComponent(group.customerId)}`,
    `/customers/${encodeURIComponent(group.customerId)}`,
  ])
    out.push(await call(baseUrl, path));
  const created = await call(baseUrl, '/offers', { method: 'POST', body: {} });
  out.push(created);
  const { id, batchId } = created.json() as { id: string; batchId: string };
  out.push(await call(baseUrl, `/bookings/requestsStatus/batch/${encodeURIComponent(batchId)}`));
  out.push(await call(baseUrl, `/offers/${encodeURIComponent(id)}`));
  return out;
}

it('ids that need percent-encoding: record → stop the mock → replay answers every request as recorded', async () => {
  const tmp = tempDir();
  try {
    const cassette = tmp.file('reserved.yaml');
    const live = await recordMock(cassette, { variant: { idFormat: 'reserved' } }, traffic);
    assert.deepEqual(
      live.map((a) => a.status),
      [200, 200, 200, 200, 200, 200, 200, 200],
      live.map((a) => a.text.slice(0, 200)).join('\n'),
    );
    const c = readCassette(cassette);
    const byId = c.exchanges[1]!;
    assert.match(byId.request.path, /^\/billingGroups\/billing-group%20\d+%2B%C3%A4%26x%3D%25%2F%23%3F%3A$/);
    assert.equal(byId.operationId, 'getBillingGroup', 'the encoded path is matched to its operation');
    assert.match(String(c.exchanges[3]!.request.query.customerId), /^customer \d+\+ä&x=%\/#\?:$/, 'decoded');
    assert.deepEqual(
      c.exchanges.flatMap((x) => x.violations),
      [],
      'conformant traffic',
    );

    const replay = await startReplayServer({ cassette, env, log: () => {} });
    try {
      const again = await traffic(replay.baseUrl);
      assert.deepEqual(
        again.map((a) => [a.status, a.text]),
        live.map((a) => [a.status, a.text]),
      );
      // Another client's encoding of the same id: `+`, `&`, `=` and `:` as they are (a URL parser leaves them so in a
      // path), the rest in lower-case hex. The same request to the server, so the same recorded answer.
      const id = (live[0]!.json() as { id: string }[])[0]!.id;
      const other = encodeURIComponent(id)
        .replace(/%(2B|26|3D|3A)/g, (e) => decodeURIComponent(e))
        .replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase());
      assert.notEqual(other, encodeURIComponent(id));
      const otherwise = await call(replay.baseUrl, `/billingGroups/${other}`);
      assert.equal(otherwise.status, 200, otherwise.text);
      assert.equal(otherwise.text, live[1]!.text);
      const slash = await call(replay.baseUrl, `/billingGroups/${other.replace('%2f', '/')}`);
      assert.notEqual(slash.status, 200, 'a / is a segment boundary, %2F is not: another request');
    } finally {
      await replay.close();
    }
  } finally {
    tmp.cleanup();
  }
});
