/**
 * A deployment may answer before it has read the whole request body (a 413 for a body over its limit) and close.
 * Reached through the connection's dispatcher (net/dispatcher.ts: here a private CA and a client certificate), that
 * answer is what the recorder forwards and records, as on its direct path, not a 502 about the write that failed
 * after it. (Through the test's forward proxy, the `proxy` package, the answer is lost in the proxy itself: its own
 * sockets drop what they read when a write fails, and it answers 500 or closes; so no proxy is in this test.)
 */
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { request } from 'undici';
import { closeConnection, openConnection } from '../../net/connection.ts';
import type { Connection } from '../../net/types.ts';
import { readCassette } from '../../recorder/cassette-reader.ts';
import { startRecorder } from '../../recorder/proxy.ts';
import { answerOversizeEarly, tempDir, TOKEN } from '../recorder/helpers.ts';
import { makePki, type Pki } from './helpers/pki.ts';
import * as servers from './helpers/servers.ts';

let pki: Pki;
let deployment: servers.TlsServer;
let connection: Connection;
const tmp = tempDir();

before(async () => {
  pki = makePki();
  deployment = await servers.startTlsServer(pki, answerOversizeEarly);
  connection = await openConnection(
    { ca: pki.pem(pki.caCert), clientCert: pki.pem(pki.clientCert), clientKey: pki.pem(pki.clientKey) },
    { kind: 'static', token: TOKEN },
    {},
  );
});

after(async () => {
  await closeConnection(connection);
  await deployment.close();
  tmp.cleanup();
});

it('an early answer from an HTTPS deployment that asks for a client certificate is forwarded and recorded', async () => {
  const cassette = tmp.file('early.yaml');
  const rec = await startRecorder({
    mode: 'record',
    cassette,
    upstream: { baseUrl: deployment.baseUrl, deployment: null },
    connection,
    env: { FLIS_TOKEN: TOKEN },
  });
  const post = (body: string | Buffer) =>
    request(`${rec.baseUrl}/offers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body,
    });
  try {
    for (let i = 0; i < 2; i += 1) {
      const r = await post(Buffer.alloc(8 * 1024 * 1024, 'a'));
      const text = await r.body.text();
      assert.equal(r.statusCode, 413, `attempt ${i + 1}: the deployment's own answer, not the recorder's: ${text}`);
      assert.match(text, /Payload Too Large/);
    }
    const small = await post('{"small":true}');
    await small.body.dump();
    assert.equal(small.statusCode, 200, 'the recorder keeps serving');
  } finally {
    await rec.close();
  }
  assert.ok(deployment.clients.length >= 3, 'the client certificate was shown');
  assert.deepEqual(
    readCassette(cassette).exchanges.map((x) => [x.response.status, x.failure?.kind]),
    [
      [413, undefined],
      [413, undefined],
      [200, undefined],
    ],
    'each early answer is recorded as the deployment gave it, with no failure',
  );
});
