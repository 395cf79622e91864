/**
 * The recorder's upstream through the connection: an HTTPS deployment of a
 * private CA that requires a client certificate, behind an authenticating
 * proxy, with tokens from a real authorization server. A request carrying the
 * run's token goes out with the current one; a 401 invalid_token is refreshed
 * once and retried; no token issued lands in the cassette.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { request } from 'undici';
import { closeConnection, openConnection } from '../../net/connection.ts';
import type { Connection } from '../../net/types.ts';
import { startRecorder } from '../../recorder/proxy.ts';
import { secretForms } from '../../core/redact.ts';
import { makePki, type Pki } from './helpers/pki.ts';
import * as servers from './helpers/servers.ts';
import { CLIENT_ID, CLIENT_SECRET } from './helpers/servers.ts';

let pki: Pki;
let oauth: servers.OAuth;
let proxy: servers.ForwardProxy;
let deployment: servers.TlsServer;
let connection: Connection;
let dir: string;
/** Tokens the deployment has revoked: it answers them 401 invalid_token, as after an expiry. */
const revoked = new Set<string>();
const seenTokens: string[] = [];

before(async () => {
  pki = makePki();
  dir = mkdtempSync(join(tmpdir(), 'net-recorder-'));
  oauth = await servers.startOAuth({ ttlSeconds: 3600 });
  proxy = await servers.startProxy({ user: 'rec', password: 'proxy-pw-Rt5Gh8Jk2' });
  deployment = await servers.startTlsServer(pki, (req, res) => {
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    seenTokens.push(token);
    if (revoked.has(token) || oauth.verify(token) !== 'valid') {
      res.writeHead(401, { 'www-authenticate': 'Bearer error="invalid_token"', 'content-type': 'application/json' });
      res.end('{"code":"unauthorized"}');
      return;
    }
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ items: [], echoed: token }));
  });
  connection = await openConnection(
    {
      proxy: proxy.urlWithCredentials,
      ca: pki.pem(pki.caCert),
      clientCert: pki.pem(pki.clientCert),
      clientKey: pki.pem(pki.clientKey),
    },
    { kind: 'client-credentials', tokenUrl: oauth.tokenUrl, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET },
    {},
  );
});

after(async () => {
  await closeConnection(connection);
  await Promise.all([oauth.close(), proxy.close(), deployment.close()]);
  rmSync(dir, { recursive: true, force: true });
});

test('the recorder swaps in the current token, refreshes once on invalid_token, and records no token', async () => {
  const cassette = join(dir, 'c.yaml');
  const recorder = await startRecorder({
    mode: 'record',
    cassette,
    upstream: { baseUrl: deployment.baseUrl, deployment: null },
    secrets: connection.tokens.secrets().map((value) => ({ label: 'connection', value })),
    connection,
    env: {},
  });
  const first = await connection.tokens.current();
  const get = async () => {
    const res = await request(`${recorder.baseUrl}/carriers`, { headers: { authorization: `Bearer ${first}` } });
    return { status: res.statusCode, body: (await res.body.json()) as { echoed?: string } };
  };
  try {
    assert.equal((await get()).status, 200);
    revoked.add(first);
    const passes = proxy.seen.tunnels;
    const retried = await get();
    assert.equal(retried.status, 200, 'the refused token was refreshed and the request sent again');
    assert.notEqual(retried.body.echoed, first);
    assert.ok(connection.tokens.isRunToken(retried.body.echoed ?? ''));
    assert.ok(connection.tokens.refreshes().some((r) => /invalid_token/.test(r.reason)));
    assert.ok(proxy.seen.tunnels >= passes, 'the upstream is reached through the proxy');
    assert.ok(
      deployment.clients.every((cn) => cn === 'flis partner'),
      'with the client certificate',
    );
    // A token the run did not issue passes untouched and its 401 stands: no refresh for a stranger's token.
    const refreshes = connection.tokens.refreshes().length;
    const stranger = await request(`${recorder.baseUrl}/carriers`, {
      headers: { authorization: 'Bearer not-ours-123456' },
    });
    await stranger.body.dump();
    assert.equal(stranger.statusCode, 401);
    assert.equal(seenTokens.at(-1), 'not-ours-123456');
    assert.equal(connection.tokens.refreshes().length, refreshes);
  } finally {
    await recorder.close();
  }
  const text = readFileSync(cassette, 'utf8');
  assert.ok(text.includes('/carriers'), 'the exchanges were recorded');
  for (const secret of [...oauth.issued, CLIENT_SECRET, 'proxy-pw-Rt5Gh8Jk2'])
    for (const form of secretForms(secret)) assert.ok(!text.includes(form), 'no form of a secret in the cassette');
});
