/**
 * The recorder against the embedded mock: record every GET operation of the
 * contract plus a write → stop the mock → replay gives the same statuses and
 * bodies; traffic from a conformant mock records no schema violation, and a
 * mock fault is caught live with the operation's clause and a JSON pointer.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startMock } from '../../mock/server.ts';
import { readCassette } from '../../recorder/cassette-reader.ts';
import { startRecorder } from '../../recorder/proxy.ts';
import { startReplayServer } from '../../recorder/replay-server.ts';
import { fillPath, operations } from '../../specs/contract.ts';
import { call, tempDir, TOKEN, type Answer } from './helpers.ts';
import { recordMock } from './record-mock.ts';

const env = { FLIS_TOKEN: TOKEN };

/** Every GET of the contract (ids filled in), the offers list with its query, and one write. */
async function traffic(baseUrl: string): Promise<Answer[]> {
  const out: Answer[] = [];
  for (const op of operations().filter((o) => o.method === 'get')) {
    const ids = Object.fromEntries(op.pathParams.map((p) => [p, `rec-${p}`]));
    out.push(await call(baseUrl, fillPath(op.path, ids)));
  }
  out.push(await call(baseUrl, '/offers?start=2024-01-01T00:00:00Z&end=2030-01-01T00:00:00Z'));
  out.push(await call(baseUrl, '/billingGroups', { token: null }));
  out.push(await call(baseUrl, '/offers', { method: 'POST', body: { offer: { quantity: 2, references: ['rec-1'] } } }));
  return out;
}

describe('recording the embedded mock', () => {
  it('record → stop the mock → replay gives the same statuses and bodies', async () => {
    const tmp = tempDir();
    const cassette = tmp.file('mock.yaml');
    const live = await recordMock(cassette, {}, traffic);
    assert.ok(live.some((a) => a.status === 200) && live.some((a) => a.status === 401));
    const c = readCassette(cassette);
    assert.equal(c.exchanges.length, live.length);
    const schemaViolations = c.exchanges.flatMap((e) => e.violations.filter((v) => v.check === 'response-schema'));
    assert.deepEqual(schemaViolations, [], 'a conformant mock records no response-schema violation');
    const replay = await startReplayServer({ cassette });
    try {
      const again = await traffic(replay.baseUrl);
      assert.deepEqual(
        again.map((a) => a.status),
        live.map((a) => a.status),
      );
      assert.deepEqual(
        again.map((a) => a.text),
        live.map((a) => a.text),
      );
    } finally {
      await replay.close();
      tmp.cleanup();
    }
  });

  it('catches a contract fault as it passes, citing the clause, the schema and the pointer', async () => {
    const tmp = tempDir();
    const mock = await startMock({ token: TOKEN, faults: ['offer-quantity-as-string'] });
    const seen: string[] = [];
    const rec = await startRecorder({
      mode: 'passthrough',
      cassette: tmp.file('unused.yaml'),
      upstream: { baseUrl: mock.baseUrl, deployment: 'embedded' },
      env,
      log: (line, kind) => {
        if (kind === 'violation') seen.push(line);
      },
    });
    try {
      const list = await call(rec.baseUrl, '/offers?start=2000-01-01T00:00:00Z&end=2100-01-01T00:00:00Z');
      assert.equal(list.status, 200);
      assert.ok(list.json().length > 0, 'the mock has seeded offers');
    } finally {
      await rec.close();
      await mock.close();
      tmp.cleanup();
    }
    assert.ok(
      seen.some((l) =>
        /\[response-schema\] spec 4\.1 listOffers response: \/0\/quantity: must be number \[offer\.schema\.json#\/properties\/quantity\/type\]/.test(
          l,
        ),
      ),
      seen.join('\n'),
    );
  });
});
