/**
 * The write-behind queue gives the event loop a turn between the slices of a
 * job, keeps jobs in the order they were queued, and on close runs what is
 * left to its end. Through the recorder: a small exchange is forwarded while
 * a large invalid answer before it is still being judged.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { readCassette } from '../../recorder/cassette-reader.ts';
import { startRecorder } from '../../recorder/proxy.ts';
import { WriteQueue, type WriteJob } from '../../recorder/write-queue.ts';
import { ITEMS_PER_SLICE } from '../../schemas/registry.ts';
import { call, flisLike, startUpstream, tempDir, TOKEN } from './helpers.ts';

function job(steps: () => Generator<void, void, void>): WriteJob {
  return { steps };
}

/** A job of one step, which never pauses. */
function once(run: () => void): WriteJob {
  return {
    steps: () => {
      run();
      return [undefined].values();
    },
  };
}

/** Resolves once the queue has nothing queued or paused. */
async function drained(q: WriteQueue): Promise<void> {
  while (q.busy) await new Promise((r) => setImmediate(r));
}

describe('the write queue', () => {
  it('lets I/O complete between the slices of a job, and runs later jobs after it', async () => {
    const q = new WriteQueue(undefined, (e) => assert.fail(String(e)));
    const order: string[] = [];
    let read = false;
    const io = readFile(fileURLToPath(import.meta.url)).then(() => {
      read = true;
    });
    let sawRead = false;
    q.push(
      job(function* () {
        // Bounded, so a queue that never gives the loop a turn fails here instead of spinning for ever.
        for (let i = 0; i < 1_000_000 && !read; i++) yield;
        sawRead = read;
        order.push('slow');
      }),
    );
    q.push(once(() => order.push('next')));
    await io;
    await drained(q);
    assert.equal(sawRead, true, 'the file read completed while the first job was paused');
    assert.deepEqual(order, ['slow', 'next'], 'jobs end in the order they were queued');
  });

  it('runs a paused job and the jobs behind it to their end on flush', () => {
    const q = new WriteQueue(undefined, (e) => assert.fail(String(e)));
    const order: string[] = [];
    q.push(
      job(function* () {
        for (let i = 0; i < 5; i++) yield;
        order.push('a');
      }),
    );
    q.push(once(() => order.push('b')));
    q.flush();
    assert.deepEqual(order, ['a', 'b']);
    assert.equal(q.busy, false);
  });
});

describe('the recorder, judging a large invalid answer', () => {
  const tmp = tempDir();
  after(() => tmp.cleanup());
  const items = ITEMS_PER_SLICE * 80;

  it('forwards a small exchange while the large one before it is being judged, and writes both in order', async () => {
    const up = await startUpstream((req, res, body) => {
      if (req.url?.endsWith('/offers')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(Array.from({ length: items }, () => ({}))));
      }
      flisLike(req, res, body);
    });
    const cassette = tmp.file('large.yaml');
    const logs: string[] = [];
    const rec = await startRecorder({
      mode: 'record',
      cassette,
      upstream: { baseUrl: up.baseUrl, deployment: null },
      env: { FLIS_TOKEN: TOKEN },
      log: (line) => logs.push(line),
    });
    const largeJudged = () => logs.some((l) => l.startsWith('GET /offers → 200: [response-schema]'));
    try {
      const large = await call(rec.baseUrl, '/offers');
      assert.equal(large.status, 200);
      const small = await call(rec.baseUrl, '/invoices');
      assert.equal(small.status, 200);
      assert.equal(largeJudged(), false, 'the small answer came back only after the large one was judged');
    } finally {
      await rec.close();
      await up.close();
    }
    assert.equal(largeJudged(), true, 'the large answer was judged in the end');
    const c = readCassette(cassette);
    assert.deepEqual(
      c.exchanges.map((e) => e.request.path),
      ['/offers', '/invoices'],
    );
    const more = c.exchanges[0]!.violations.find((v) => v.more !== undefined);
    assert.ok(more && more.more! > 0, 'the large answer carries the count of its unlisted violations');
  });
});
