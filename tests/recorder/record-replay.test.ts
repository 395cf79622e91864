/**
 * Record → stop the upstream → replay: same statuses and bodies; repeated
 * polling replays in recorded order; a miss answers with the closest match;
 * the modes do what their policies say.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startRecorder } from '../../recorder/proxy.ts';
import { startReplayServer } from '../../recorder/replay-server.ts';
import { readCassette } from '../../recorder/cassette-reader.ts';
import { parseMode } from '../../recorder/modes.ts';
import { call, startUpstream, tempDir, TOKEN, type Answer } from './helpers.ts';

const env = { FLIS_TOKEN: TOKEN };

interface Step {
  path: string;
  method?: string;
  body?: unknown;
  token?: string | null;
}

const steps: Step[] = [
  { path: '/offers/o-1?start=2024-01-01T00:00:00Z&end=2024-02-01T00:00:00Z' },
  { path: '/offers', method: 'POST', body: { offer: { quantity: 3, references: ['r'] }, cancel: false } },
  { path: '/text' },
  { path: '/binary' },
  { path: '/fail' },
  { path: '/billingGroups', token: null },
  { path: '/bookings/requestsStatus/batch/b-7' },
  { path: '/bookings/requestsStatus/batch/b-7' },
  { path: '/bookings/requestsStatus/batch/b-7' },
];

async function play(baseUrl: string): Promise<Answer[]> {
  const out: Answer[] = [];
  for (const s of steps) out.push(await call(baseUrl, s.path, s));
  return out;
}

describe('record then replay offline', () => {
  const tmp = tempDir();
  const cassette = tmp.file('flow.yaml');
  let live: Answer[] = [];

  before(async () => {
    const up = await startUpstream();
    const rec = await startRecorder({
      mode: 'record',
      cassette,
      upstream: { baseUrl: up.baseUrl, deployment: 'sandbox' },
      env,
    });
    live = await play(rec.baseUrl);
    await rec.close();
    await up.close(); // From here on there is no upstream at all.
  });
  after(() => tmp.cleanup());

  it('writes one exchange per request, in order, with the header naming the deployment', () => {
    const c = readCassette(cassette);
    assert.equal(c.exchanges.length, steps.length);
    assert.equal(c.header.format, 1);
    assert.equal(c.header.deployment, 'sandbox');
    assert.equal(c.header.specVersion, '1.0.0');
    assert.deepEqual(
      c.exchanges.map((e) => e.seq),
      steps.map((_, i) => i + 1),
    );
    assert.equal(c.exchanges[0]!.operationId, 'getOffer');
    assert.equal(c.exchanges[1]!.operationId, 'createOffer');
  });

  it('stores JSON bodies as their JSON text (YAML flow), text as text, binary as base64', () => {
    const text = readFileSync(cassette, 'utf8');
    assert.match(text, /\n {2}body: \{"offer":\{"quantity":3,"references":\["r"\]\},"cancel":false\}\n/);
    const c = readCassette(cassette);
    assert.equal(c.exchanges[2]!.response.body?.encoding, 'text');
    assert.equal(c.exchanges[3]!.response.body?.encoding, 'base64');
  });

  it('replays the same statuses and bodies with no upstream', async () => {
    const server = await startReplayServer({ cassette });
    try {
      const replayed = await play(server.baseUrl);
      assert.deepEqual(
        replayed.map((a) => a.status),
        live.map((a) => a.status),
      );
      assert.deepEqual(
        replayed.map((a) => a.text),
        live.map((a) => a.text),
      );
      assert.deepEqual(
        live.map((a) => a.status),
        [200, 201, 200, 200, 503, 401, 200, 200, 200],
      );
    } finally {
      await server.close();
    }
  });

  it('replays repeated polling in recorded order, then repeats the last answer', async () => {
    const server = await startReplayServer({ cassette });
    try {
      const statuses: string[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push((await call(server.baseUrl, '/bookings/requestsStatus/batch/b-7')).json().status);
      assert.deepEqual(statuses, ['PENDING', 'PENDING', 'DONE', 'DONE', 'DONE']);
    } finally {
      await server.close();
    }
  });

  it('matches query order-insensitively and tells "sent a token" from "sent none"', async () => {
    const server = await startReplayServer({ cassette });
    try {
      const reordered = await call(server.baseUrl, '/offers/o-1?end=2024-02-01T00:00:00Z&start=2024-01-01T00:00:00Z');
      assert.equal(reordered.status, 200);
      assert.equal((await call(server.baseUrl, '/billingGroups', { token: null })).status, 401);
      const withToken = await call(server.baseUrl, '/billingGroups');
      assert.equal(withToken.status, 501, 'the recording was made without a token');
    } finally {
      await server.close();
    }
  });

  it('answers a miss with the cassette, the request and the closest recorded request, field by field', async () => {
    const server = await startReplayServer({ cassette });
    try {
      const miss = await call(server.baseUrl, '/offers/o-1?start=2024-01-05T00:00:00Z&end=2024-02-01T00:00:00Z');
      assert.equal(miss.status, 501);
      assert.equal(miss.headers['x-flis-cassette'], 'miss');
      const body = miss.json();
      assert.equal(body.code, 'FLIS_ERR_CASSETTE_MISS');
      assert.equal(body.cassette, cassette);
      assert.equal(body.request.path, '/offers/o-1');
      assert.equal(body.closest.seq, 1);
      assert.ok(body.closest.line > 1);
      assert.deepEqual(body.closest.differences, [
        { field: 'query.start', recorded: '2024-01-01T00:00:00Z', received: '2024-01-05T00:00:00Z' },
      ]);
      assert.match(body.fix, /--mode new/);
      const bodyMiss = (
        await call(server.baseUrl, '/offers', {
          method: 'POST',
          body: { offer: { quantity: 4, references: ['r'] }, cancel: false },
        })
      ).json();
      assert.deepEqual(bodyMiss.closest.differences, [{ field: 'body/offer/quantity', recorded: 3, received: 4 }]);
    } finally {
      await server.close();
    }
  });

  it('ignores configured fields when matching', async () => {
    const server = await startReplayServer({
      cassette,
      match: { ignoreQuery: ['start'], ignoreBody: ['/offer/quantity'] },
    });
    try {
      assert.equal(
        (await call(server.baseUrl, '/offers/o-1?start=2030-01-01T00:00:00Z&end=2024-02-01T00:00:00Z')).status,
        200,
      );
      assert.equal(
        (
          await call(server.baseUrl, '/offers', {
            method: 'POST',
            body: { cancel: false, offer: { references: ['r'], quantity: 99 } },
          })
        ).status,
        201,
      );
    } finally {
      await server.close();
    }
  });
});

describe('modes', () => {
  it('new replays what the cassette has and records only what it lacks', async () => {
    const tmp = tempDir();
    const up = await startUpstream();
    try {
      const cassette = tmp.file('new.yaml');
      const first = await startRecorder({
        mode: 'record',
        cassette,
        upstream: { baseUrl: up.baseUrl, deployment: null },
        env,
      });
      await call(first.baseUrl, '/offers/a');
      await first.close();
      const hitsBefore = up.hits;
      const second = await startRecorder({
        mode: 'new',
        cassette,
        upstream: { baseUrl: up.baseUrl, deployment: null },
        env,
      });
      assert.equal((await call(second.baseUrl, '/offers/a')).status, 200);
      assert.equal(up.hits, hitsBefore, 'a recorded request is not forwarded');
      assert.equal((await call(second.baseUrl, '/offers/b')).status, 200);
      assert.equal(up.hits, hitsBefore + 1);
      await second.close();
      const c = readCassette(cassette);
      assert.deepEqual(
        c.exchanges.map((e) => [e.seq, e.request.path]),
        [
          [1, '/offers/a'],
          [2, '/offers/b'],
        ],
      );
    } finally {
      await up.close();
      tmp.cleanup();
    }
  });

  it('record overwrites the cassette; passthrough writes nothing', async () => {
    const tmp = tempDir();
    const up = await startUpstream();
    try {
      const cassette = tmp.file('over.yaml');
      for (const path of ['/offers/x', '/offers/y']) {
        const r = await startRecorder({
          mode: 'record',
          cassette,
          upstream: { baseUrl: up.baseUrl, deployment: null },
          env,
        });
        await call(r.baseUrl, path);
        await r.close();
      }
      assert.deepEqual(
        readCassette(cassette).exchanges.map((e) => e.request.path),
        ['/offers/y'],
      );
      const none = tmp.file('none.yaml');
      const p = await startRecorder({
        mode: 'passthrough',
        cassette: none,
        upstream: { baseUrl: up.baseUrl, deployment: null },
        env,
      });
      assert.equal((await call(p.baseUrl, '/offers/z')).status, 200);
      assert.equal(p.stats.exchanges, 1);
      await p.close();
      assert.equal(existsSync(none), false);
    } finally {
      await up.close();
      tmp.cleanup();
    }
  });

  it('new forwards a request body bigger than the cassette cap whole, and keeps only the cap', async () => {
    const tmp = tempDir();
    const up = await startUpstream((_req, res, body) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ received: body.length }));
    });
    try {
      const cassette = tmp.file('big-new.yaml');
      const r = await startRecorder({
        mode: 'new',
        cassette,
        upstream: { baseUrl: up.baseUrl, deployment: null },
        env,
        maxBodyBytes: 1024,
      });
      const answer = await call(r.baseUrl, '/offers', {
        method: 'POST',
        body: 'x'.repeat(100_000),
        headers: { 'content-type': 'text/plain' },
      });
      await r.close();
      assert.deepEqual(answer.json(), { received: 100_000 });
      const [e] = readCassette(cassette).exchanges;
      assert.equal(e!.request.body?.size, 100_000);
      assert.equal(e!.request.body?.truncated, true);
      assert.equal((e!.request.body!.value as string).length, 1024);
    } finally {
      await up.close();
      tmp.cleanup();
    }
  });

  it('a bad mode is answered with the allowed ones', () => {
    assert.throws(
      () => parseMode('playback'),
      (e: NodeJS.ErrnoException) =>
        e.code === 'FLIS_ERR_USAGE' && /'record', 'new', 'replay', 'passthrough'; got 'playback'/.test(e.message),
    );
  });
});
