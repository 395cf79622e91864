/**
 * The 'eventual' preset (issue 17): writes show after its own delay, the batch
 * status says `state: done` only once they do, and the offer listing leaves
 * cancelled offers out. Also the suites' reading of batch words
 * (suites/lib/batch-processed.ts) against every wording the mock can answer.
 */
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { describe, it } from 'node:test';
import { variantPresets } from '../../mock/variant.ts';
import { saysProcessed } from '../../suites/lib/batch-processed.ts';
import { call, offerBody, withMock } from './helpers.ts';

describe("the 'eventual' variant", () => {
  it('shows a write only after its delay, and its batch says done only then', () =>
    withMock({ variant: variantPresets.eventual }, async (mock) => {
      const put = await call(mock, 'PUT', '/offers/eventual-1', { json: offerBody('ev') });
      assert.equal(put.status, 202);
      const batch = `/bookings/requestsStatus/batch/${put.body.batchId as string}`;
      assert.equal((await call(mock, 'GET', '/offers/eventual-1')).status, 404);
      const pending = (await call(mock, 'GET', batch)).body;
      assert.equal(pending.state, 'queued');
      assert.equal(saysProcessed(pending), false);
      await delay((variantPresets.eventual.writeDelayMs ?? 0) + 50);
      const done = (await call(mock, 'GET', batch)).body;
      assert.equal(saysProcessed(done), true);
      assert.equal((await call(mock, 'GET', '/offers/eventual-1')).status, 200);
    }));

  it('leaves cancelled offers out of GET /offers', () =>
    withMock({ variant: { ...variantPresets.eventual, writeDelayMs: 0 } }, async (mock) => {
      await call(mock, 'PUT', '/offers/eventual-2', { json: offerBody('ev2') });
      const listed = async () => ((await call(mock, 'GET', '/offers')).body as { id: string }[]).map((o) => o.id);
      assert.ok((await listed()).includes('eventual-2'));
      await call(mock, 'DELETE', '/offers/eventual-2');
      assert.ok(!(await listed()).includes('eventual-2'));
      assert.equal((await call(mock, 'GET', '/offers/eventual-2')).body[0].canceled, true);
    }));
});

describe('batch words', () => {
  it('reads PROCESSED, done and the like as processed, and nothing else', () => {
    for (const body of [{ status: 'PROCESSED' }, { state: 'done' }, { status: 'Completed' }, { processed: true }])
      assert.equal(saysProcessed(body), true, JSON.stringify(body));
    for (const body of [{ status: 'PENDING' }, { state: 'queued' }, { progress: 1 }, [], 'PROCESSED', null])
      assert.equal(saysProcessed(body), false, JSON.stringify(body));
  });
});
