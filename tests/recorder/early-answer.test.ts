/**
 * An upstream may answer before it has read the whole request body (a 413 for a body over its limit) and then close
 * the connection, as Fastify does. The recorder forwards and records that answer, not a 502 about the write that
 * failed after it; the client's upload ends normally, and the recorder keeps serving.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { describe, it } from 'node:test';
import { request } from 'undici';
import { readCassette } from '../../recorder/cassette-reader.ts';
import { startRecorder } from '../../recorder/proxy.ts';
import { agent, answerOversizeEarly, call, tempDir, TOKEN } from './helpers.ts';

/** Answers a body declared over 1 MB at once with 413 and closes without reading it (unread bytes: a TCP reset). */
async function startEarlyAnswerer(): Promise<{ baseUrl: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer(answerOversizeEarly);
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/apis/v0`,
    close: () =>
      new Promise<void>((done) => {
        for (const s of sockets) s.destroy();
        server.close(() => done());
      }),
  };
}

describe('an upstream that answers before the body is sent', () => {
  it('forwards and records its answer, and keeps serving', async () => {
    const tmp = tempDir();
    const up = await startEarlyAnswerer();
    const cassette = tmp.file('early.yaml');
    const rec = await startRecorder({
      mode: 'record',
      cassette,
      upstream: { baseUrl: up.baseUrl, deployment: null },
      env: { FLIS_TOKEN: TOKEN },
    });
    try {
      for (let i = 0; i < 3; i += 1) {
        const r = await request(`${rec.baseUrl}/offers`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          body: Buffer.alloc(24 * 1024 * 1024, 'a'),
          dispatcher: agent,
        });
        const text = await r.body.text();
        assert.equal(r.statusCode, 413, `attempt ${i + 1}: the upstream's own answer, not the recorder's: ${text}`);
        assert.match(text, /Payload Too Large/);
      }
      const small = await call(rec.baseUrl, '/offers', { method: 'POST', body: { small: true } });
      assert.equal(small.status, 200, 'the recorder keeps serving');
    } finally {
      await rec.close();
      await up.close();
    }
    const exchanges = readCassette(cassette).exchanges;
    assert.deepEqual(
      exchanges.map((x) => [x.response.status, x.failure?.kind]),
      [
        [413, undefined],
        [413, undefined],
        [413, undefined],
        [200, undefined],
      ],
      'each early answer is recorded as the upstream gave it, with no failure',
    );
    tmp.cleanup();
  });
});
