/**
 * Issue 9 item 4: an upstream that resets the connection mid-body is recorded
 * as its status, headers and the bytes that came, with `failure: reset`;
 * replay must reproduce that failure (the same status, headers and bytes, then
 * the connection destroyed), never a clean answer with a short body.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, it } from 'node:test';
import { readCassette } from '../../recorder/cassette-reader.ts';
import { startRecorder } from '../../recorder/proxy.ts';
import { failedMidBody } from '../../recorder/replay-failure.ts';
import { startReplayServer } from '../../recorder/replay-server.ts';
import { call, startUpstream, tempDir, TOKEN } from './helpers.ts';

interface Received {
  status: number;
  contentType: string | undefined;
  bytes: Buffer;
  /** How the body ended: 'end' for a whole answer, 'error' for a connection cut short. */
  ending: 'end' | 'error';
}

/** GET with Node's own client, keeping whatever bytes came before the body ended or broke. */
function fetchRaw(url: string): Promise<Received> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { authorization: `Bearer ${TOKEN}`, connection: 'close' } }, (res) => {
      const chunks: Buffer[] = [];
      const done = (ending: Received['ending']): void =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: res.headers['content-type'],
          bytes: Buffer.concat(chunks),
          ending,
        });
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(res.complete ? 'end' : 'error'));
      res.on('error', () => done('error'));
      res.on('aborted', () => done('error'));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('replay of an upstream reset mid-body', () => {
  it('serves the recorded status, headers and bytes, then destroys the connection', async () => {
    const tmp = tempDir();
    const up = await startUpstream((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"items":[');
      setImmediate(() => res.socket?.destroy());
    });
    const cassette = tmp.file('cut.yaml');
    const rec = await startRecorder({
      mode: 'record',
      cassette,
      upstream: { baseUrl: up.baseUrl, deployment: null },
      env: { FLIS_TOKEN: TOKEN },
    });
    try {
      const live = await fetchRaw(`${rec.baseUrl}/offers/cut`);
      assert.equal(live.status, 200);
      assert.equal(live.ending, 'error', 'recording: the client saw the reset');
    } finally {
      await rec.close();
      await up.close();
    }
    const [e] = readCassette(cassette).exchanges;
    assert.equal(e?.failure?.kind, 'reset');
    assert.equal(e?.response.status, 200);
    assert.equal(failedMidBody(e!), true);

    const replay = await startReplayServer({ cassette });
    try {
      const again = await fetchRaw(`${replay.baseUrl}/offers/cut`);
      assert.equal(again.status, 200, 'the recorded status');
      assert.equal(again.contentType, 'application/json', 'the recorded headers');
      assert.equal(again.bytes.toString(), '{"items":[', 'the recorded bytes');
      assert.equal(again.ending, 'error', 'then the connection is destroyed, not a clean end');
      await assert.rejects(call(replay.baseUrl, '/offers/cut'), 'an undici client sees the failure too');
    } finally {
      await replay.close();
      tmp.cleanup();
    }
  });

  it("a failure before any header replays as the recorder's own clean 502, as it was served", () => {
    const own = {
      failure: { kind: 'refused' as const, code: 'ECONNREFUSED', message: 'refused' },
      response: {
        status: 502,
        headers: {},
        body: { encoding: 'json' as const, value: { code: 'FLIS_ERR_UPSTREAM' }, size: 30, truncated: false },
        timing: { durationMs: 1, firstByteMs: 1 },
      },
    };
    assert.equal(failedMidBody(own), false);
    assert.equal(failedMidBody({ response: own.response }), false, 'no failure: a normal answer');
  });
});
