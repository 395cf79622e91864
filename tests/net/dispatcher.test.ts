/**
 * The dispatcher against real components on loopback: a forward proxy (with
 * and without Proxy-Authorization), an HTTPS server of a private CA that
 * requires a client certificate, and the two together.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { request } from 'undici';
import { buildDispatcher } from '../../net/dispatcher.ts';
import { checkConnection } from '../../net/preflight.ts';
import type { ConnectionSettings } from '../../net/types.ts';
import { makePki, type Pki } from './helpers/pki.ts';
import { type ForwardProxy, startProxy, startTlsServer, type TlsServer } from './helpers/servers.ts';

let pki: Pki;
let tls: TlsServer;
let plain: Server;
let plainUrl: string;
let proxy: ForwardProxy;
let guarded: ForwardProxy;
const PROXY_USER = { user: 'partner', password: 'proxy-pw-Vb6nM3qL8' };

before(async () => {
  pki = makePki();
  tls = await startTlsServer(pki);
  plain = createServer((req, res) => res.end(JSON.stringify({ path: req.url })));
  plain.listen(0, '127.0.0.1');
  await new Promise((done) => plain.once('listening', done));
  plainUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}/apis/v0`;
  proxy = await startProxy();
  guarded = await startProxy(PROXY_USER);
});

after(async () => {
  await Promise.all([tls.close(), proxy.close(), guarded.close()]);
  plain.closeAllConnections();
  plain.close();
  pki.cleanup();
});

const mtls = (): ConnectionSettings => ({
  ca: pki.pem(pki.caCert),
  clientCert: pki.pem(pki.clientCert),
  clientKey: pki.pem(pki.clientKey),
});

async function get(settings: ConnectionSettings, url: string, env: NodeJS.ProcessEnv = {}) {
  const dispatcher = buildDispatcher(settings, env);
  try {
    const res = await request(`${url}/ping`, { dispatcher });
    return { status: res.statusCode, body: await res.body.text() };
  } finally {
    await dispatcher.close();
  }
}

async function preflightError(settings: ConnectionSettings, url: string, env: NodeJS.ProcessEnv = {}) {
  const dispatcher = buildDispatcher(settings, env);
  try {
    await checkConnection({ settings, dispatcher }, url, env);
  } catch (error) {
    return error as { code: string; message: string };
  } finally {
    await dispatcher.close();
  }
  assert.fail('the preflight passed');
}

test('--proxy forwards plain HTTP through the proxy', async () => {
  const before = proxy.seen.forwarded;
  const res = await get({ proxy: proxy.url }, plainUrl);
  assert.equal(res.status, 200);
  assert.equal(proxy.seen.forwarded, before + 1);
});

test('HTTPS_PROXY from the environment tunnels to the HTTPS server; NO_PROXY bypasses it', async () => {
  const before = proxy.seen.tunnels;
  const res = await get(mtls(), tls.baseUrl, { HTTPS_PROXY: proxy.url });
  assert.equal(res.status, 200);
  assert.equal(proxy.seen.tunnels, before + 1);
  const bypassed = await get(mtls(), tls.baseUrl, { HTTPS_PROXY: proxy.url, NO_PROXY: '127.0.0.1' });
  assert.equal(bypassed.status, 200);
  assert.equal(proxy.seen.tunnels, before + 1);
});

test('a private CA and a client certificate reach the server that requires one', async () => {
  const res = await get(mtls(), tls.baseUrl);
  assert.equal(res.status, 200);
  assert.equal(tls.clients.at(-1), 'flis partner');
});

test('a CA bundle (several PEM certificates in one file) is read whole, not just its first certificate', async () => {
  const bundle = `${pki.pem(pki.strangerCert)}${pki.pem(pki.caCert)}`;
  assert.equal((await get({ ...mtls(), ca: bundle }, tls.baseUrl)).status, 200);
});

test('an encrypted client key opens with its passphrase', async () => {
  const settings = { ...mtls(), clientKey: pki.pem(pki.clientKeyEncrypted), clientKeyPassphrase: pki.passphrase };
  assert.equal((await get(settings, tls.baseUrl)).status, 200);
});

test('proxy credentials in --proxy are sent as Proxy-Authorization, through a tunnel too', async () => {
  const before = guarded.seen.tunnels;
  const res = await get({ ...mtls(), proxy: guarded.urlWithCredentials }, tls.baseUrl);
  assert.equal(res.status, 200);
  assert.equal(guarded.seen.tunnels, before + 1);
  assert.equal((await get({ proxy: guarded.urlWithCredentials }, plainUrl)).status, 200);
});

test('without --ca-file the TLS failure names --ca-file', async () => {
  const e = await preflightError({}, tls.baseUrl);
  assert.equal(e.code, 'FLIS_ERR_TLS');
  assert.match(e.message, /--ca-file/);
});

test('a client certificate the server refuses, or none, is named as such', async () => {
  const stranger = {
    ca: pki.pem(pki.caCert),
    clientCert: pki.pem(pki.strangerCert),
    clientKey: pki.pem(pki.strangerKey),
  };
  for (const settings of [stranger, { ca: pki.pem(pki.caCert) }]) {
    const e = await preflightError(settings, tls.baseUrl);
    assert.equal(e.code, 'FLIS_ERR_TLS', e.message);
    assert.match(e.message, /refused.*client certificate.*--client-cert/);
  }
});

test('through a proxy too, a refused client certificate points at --client-cert', async () => {
  const e = await preflightError({ ca: pki.pem(pki.caCert), proxy: proxy.url }, tls.baseUrl);
  assert.equal(e.code, 'FLIS_ERR_TLS', e.message);
  assert.match(e.message, /through proxy .*--client-cert/);
});

test('a proxy that answers 407, by tunnel or forwarding, and one that is down, are proxy errors', async () => {
  for (const url of [tls.baseUrl, plainUrl]) {
    const e = await preflightError({ ...mtls(), proxy: guarded.url }, url);
    assert.equal(e.code, 'FLIS_ERR_PROXY', e.message);
    assert.match(e.message, /407/);
  }
  const down = await startProxy();
  await down.close();
  const e = await preflightError({ proxy: down.url }, plainUrl);
  assert.equal(e.code, 'FLIS_ERR_PROXY');
  assert.match(e.message, /proxy http:\/\/127\.0\.0\.1:\d+ is unreachable/);
});
