/**
 * Upstream faults — refused, reset, timed out, 5xx, reset mid-body — are
 * answered with a clear 502/504 JSON body, recorded as such, replayed the same
 * way, and the proxy keeps serving. Big bodies stream through whole while the
 * cassette keeps only the configured cap.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { readCassette } from '../../recorder/cassette-reader.ts';
import { startRecorder } from '../../recorder/proxy.ts';
import { startReplayServer } from '../../recorder/replay-server.ts';
import { call, startUpstream, tempDir, TOKEN } from './helpers.ts';

const env = { FLIS_TOKEN: TOKEN };

/** A loopback port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('upstream faults', () => {
  it('answers refused, reset, timeout with 502/504 JSON, records them, replays them, and keeps serving', async () => {
    const tmp = tempDir();
    const hanging: Array<() => void> = [];
    const up = await startUpstream((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path.endsWith('/reset')) return req.socket.destroy();
      if (path.endsWith('/hang')) return void hanging.push(() => res.end());
      if (path.endsWith('/cut')) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write('{"partial":');
        return void setImmediate(() => req.socket.destroy());
      }
      if (path.endsWith('/boom')) {
        res.writeHead(500, { 'content-type': 'application/json' });
        return res.end('{"message":"internal"}');
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"ok":true}');
    });
    const cassette = tmp.file('faults.yaml');
    const rec = await startRecorder({
      mode: 'record',
      cassette,
      upstream: { baseUrl: up.baseUrl, deployment: null },
      env,
      upstreamTimeoutMs: 300,
    });
    try {
      const reset = await call(rec.baseUrl, '/offers/reset');
      assert.equal(reset.status, 502);
      assert.equal(reset.json().code, 'FLIS_ERR_UPSTREAM');
      assert.equal(reset.json().kind, 'reset');

      const timeout = await call(rec.baseUrl, '/offers/hang');
      assert.equal(timeout.status, 504);
      assert.equal(timeout.json().kind, 'timeout');

      const boom = await call(rec.baseUrl, '/offers/boom');
      assert.equal(boom.status, 500, "an upstream 5xx is the upstream's own answer and passes through unchanged");
      assert.equal(boom.text, '{"message":"internal"}');

      await assert.rejects(call(rec.baseUrl, '/offers/cut'), 'a body cut mid-way is not passed off as whole');
      assert.equal((await call(rec.baseUrl, '/offers/fine')).status, 200, 'the proxy survives');
    } finally {
      for (const h of hanging) h();
      await rec.close();
      await up.close();
    }

    const refusedCassette = tmp.file('refused.yaml');
    const refusedRec = await startRecorder({
      mode: 'record',
      cassette: refusedCassette,
      upstream: { baseUrl: `http://127.0.0.1:${await closedPort()}/apis/v0`, deployment: null },
      env,
    });
    try {
      const refused = await call(refusedRec.baseUrl, '/offers/any');
      assert.equal(refused.status, 502);
      assert.equal(refused.json().kind, 'refused');
      assert.equal(JSON.stringify(refused.json()).includes(TOKEN), false);
      assert.equal((await call(refusedRec.baseUrl, '/offers/again')).status, 502, 'still serving after a refusal');
    } finally {
      await refusedRec.close();
    }

    const c = readCassette(cassette);
    const byPath = new Map(c.exchanges.map((e) => [e.request.path, e]));
    assert.equal(byPath.get('/offers/reset')?.failure?.kind, 'reset');
    assert.equal(byPath.get('/offers/hang')?.failure?.kind, 'timeout');
    assert.equal(byPath.get('/offers/cut')?.failure?.kind, 'reset');
    assert.equal(byPath.get('/offers/cut')?.response.status, 200);
    assert.equal(byPath.get('/offers/boom')?.response.status, 500);
    assert.ok(byPath.get('/offers/boom')?.violations.some((v) => v.check === 'no-5xx'));
    assert.deepEqual(
      readCassette(refusedCassette).exchanges.map((e) => e.failure?.kind),
      ['refused', 'refused'],
    );

    const replay = await startReplayServer({ cassette });
    try {
      const r = await call(replay.baseUrl, '/offers/hang');
      assert.equal(r.status, 504);
      assert.equal(r.json().kind, 'timeout');
      assert.equal((await call(replay.baseUrl, '/offers/reset')).status, 502);
    } finally {
      await replay.close();
      tmp.cleanup();
    }
  });

  it('streams a body far bigger than the cap through whole, keeping only the cap', async () => {
    const tmp = tempDir();
    const size = 8 * 1024 * 1024;
    const big = Buffer.alloc(size, 'a');
    const up = await startUpstream((req, res, body) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(req.method === 'POST' ? `got ${body.length}` : big);
    });
    const cassette = tmp.file('big.yaml');
    const rec = await startRecorder({
      mode: 'record',
      cassette,
      upstream: { baseUrl: up.baseUrl, deployment: null },
      env,
      maxBodyBytes: 64 * 1024,
    });
    try {
      const got = await call(rec.baseUrl, '/offers/big');
      assert.equal(got.text.length, size);
      const echoed = await call(rec.baseUrl, '/offers', {
        method: 'POST',
        body: 'b'.repeat(3 * 1024 * 1024),
        headers: { 'content-type': 'text/plain' },
      });
      assert.equal(echoed.text, `got ${3 * 1024 * 1024}`);
    } finally {
      await rec.close();
      await up.close();
    }
    const [download, upload] = readCassette(cassette).exchanges;
    assert.equal(download!.response.body?.size, size);
    assert.equal(download!.response.body?.truncated, true);
    assert.equal((download!.response.body!.value as string).length, 64 * 1024);
    assert.equal(upload!.request.body?.size, 3 * 1024 * 1024);
    assert.equal(upload!.request.body?.truncated, true);
    tmp.cleanup();
  });
});
