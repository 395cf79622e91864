/**
 * Tokens issued during the run, against a real authorization server
 * (oauth2-mock-server) with tokens that live a few seconds, and a token
 * command: fetched before the run, renewed ahead of expiry, refreshed on
 * demand with concurrent refreshes sharing one request, every token a secret.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, before, test } from 'node:test';
import { closeConnection, openConnection } from '../../net/connection.ts';
import { CLIENT_ID, CLIENT_SECRET, type ForwardProxy, type OAuth, startOAuth, startProxy } from './helpers/servers.ts';

let oauth: OAuth;
let proxy: ForwardProxy;

before(async () => {
  oauth = await startOAuth({ ttlSeconds: 2 });
  proxy = await startProxy({ user: 'tok', password: 'proxy-pw-Lm2Kd9Xc4' });
});

after(async () => {
  await Promise.all([oauth.close(), proxy.close()]);
});

const grant = () => ({
  kind: 'client-credentials' as const,
  tokenUrl: oauth.tokenUrl,
  clientId: CLIENT_ID,
  clientSecret: CLIENT_SECRET,
});

/** Polls `probe` until it returns true; fails after the deadline (no fixed sleep). */
async function eventually(probe: () => Promise<boolean>, deadlineMs = 10_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!(await probe())) {
    if (Date.now() > end) assert.fail(`not within ${deadlineMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('client credentials: fetched before the run, valid, renewed ahead of expiry, every token a secret', async () => {
  const learnt: string[] = [];
  const c = await openConnection({}, grant(), {});
  try {
    c.tokens.onSecret((s) => learnt.push(s));
    const first = await c.tokens.current();
    assert.equal(oauth.verify(first), 'valid');
    assert.ok(c.tokens.isRunToken(first));
    assert.ok(learnt.includes(first) && learnt.includes(CLIENT_SECRET));
    // A 2 s token is renewed ahead of its expiry: current() hands out a new one that still verifies.
    let renewed = first;
    await eventually(async () => {
      renewed = await c.tokens.current();
      return renewed !== first;
    });
    assert.equal(oauth.verify(renewed), 'valid');
    assert.ok(c.tokens.isRunToken(first) && c.tokens.isRunToken(renewed), "both tokens are the run's");
    assert.ok(learnt.includes(renewed), 'redaction heard of the renewed token');
    assert.ok(c.tokens.refreshes().some((r) => /expires/.test(r.reason)));
    assert.equal(c.tokens.isRunToken('not-a-run-token'), false);
  } finally {
    await closeConnection(c);
  }
});

test('refresh(): concurrent refreshes share one request; one refused with a replaced token asks none', async () => {
  const c = await openConnection({}, grant(), {});
  try {
    const before = await c.tokens.current();
    const issuedBefore = oauth.issued.length;
    const after = await Promise.all(Array.from({ length: 8 }, () => c.tokens.refresh('401 invalid_token')));
    assert.equal(new Set(after).size, 1, 'every caller got the same new token');
    assert.equal(oauth.issued.length, issuedBefore + 1, 'one request for eight refreshes');
    assert.notEqual(after[0], before);
    assert.ok(c.tokens.refreshes().some((r) => r.reason === '401 invalid_token'));
    // A request refused with the token already replaced gets the current one, without asking again.
    assert.equal(await c.tokens.refresh('401 invalid_token', before), after[0]);
    assert.equal(oauth.issued.length, issuedBefore + 1);
  } finally {
    await closeConnection(c);
  }
});

test('the token endpoint is reached through the proxy, whose credentials are secrets', async () => {
  const tunnels = proxy.seen.forwarded;
  const c = await openConnection({ proxy: proxy.urlWithCredentials }, grant(), {});
  try {
    assert.equal(oauth.verify(await c.tokens.current()), 'valid');
    assert.equal(proxy.seen.forwarded, tunnels + 1);
    assert.ok(c.tokens.secrets().includes('proxy-pw-Lm2Kd9Xc4'));
  } finally {
    await closeConnection(c);
  }
});

test('a token command: plain or JSON output, renewed when expires_in runs out', async () => {
  const plain = await openConnection({}, { kind: 'command', command: 'echo tok-plain-Hy7Rt3Qw' }, process.env);
  assert.equal(await plain.tokens.current(), 'tok-plain-Hy7Rt3Qw');
  await closeConnection(plain);
  // Each run prints a fresh token that lives 1 s.
  const command = `node -e "console.log(JSON.stringify({access_token:'tok-'+process.hrtime.bigint(),expires_in:1}))"`;
  const c = await openConnection({}, { kind: 'command', command }, process.env);
  try {
    const first = await c.tokens.current();
    assert.match(first, /^tok-\d+$/);
    await eventually(async () => (await c.tokens.current()) !== first);
    assert.ok(c.tokens.secrets().length >= 2);
  } finally {
    await closeConnection(c);
  }
});

test('a token endpoint that resets the connection once is asked again, not taken for unreachable', async () => {
  let asked = 0;
  const server = createServer((req, res) => {
    asked++;
    if (asked === 1) return req.socket.destroy();
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ access_token: 'reset-once-token-9Qx', token_type: 'Bearer', expires_in: 3600 }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const { port } = server.address() as { port: number };
  const c = await openConnection({}, { ...grant(), tokenUrl: `http://127.0.0.1:${port}/token` }, {});
  try {
    assert.equal(await c.tokens.current(), 'reset-once-token-9Qx');
    assert.equal(asked, 2);
  } finally {
    await closeConnection(c);
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
  }
});
