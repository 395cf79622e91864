/**
 * Issue 18 "done means": a full run against the embedded mock through all
 * three real components at once (a forward proxy demanding credentials, an
 * HTTPS deployment of a private CA requiring a client certificate, and OAuth
 * client credentials from oauth2-mock-server with tokens that expire every
 * 5 s) is CERTIFIED, its reports show the token renewals, and no token, the
 * client secret or the proxy password appears in any artifact.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startMock, type RunningMock } from '../../mock/server.ts';
import { secretForms } from '../../suites/lib/redact.ts';
import { makePki, type Pki } from './helpers/pki.ts';
import { runFlis } from './helpers/flis.ts';
import * as servers from './helpers/servers.ts';
import { CLIENT_ID, CLIENT_SECRET } from './helpers/servers.ts';
import { type GateCounts, tokenGate } from './helpers/token-gate.ts';

const MOCK_TOKEN = 'mock-own-token-Df4Gh6Jk8';
const PROXY_PASSWORD = 'proxy-pw-Qa1Ws2Ed3';

let pki: Pki;
let oauth: servers.OAuth;
let proxy: servers.ForwardProxy;
let mock: RunningMock;
let deployment: servers.TlsServer;
let dir: string;
const counts: GateCounts = { valid: 0, expired: 0, other: 0 };

before(async () => {
  pki = makePki();
  dir = mkdtempSync(join(tmpdir(), 'net-full-run-'));
  oauth = await servers.startOAuth({ ttlSeconds: 5 });
  proxy = await servers.startProxy({ user: 'partner', password: PROXY_PASSWORD });
  mock = await startMock({ token: MOCK_TOKEN });
  deployment = await servers.startTlsServer(pki, tokenGate(oauth, mock.baseUrl, MOCK_TOKEN, counts));
});

after(async () => {
  await Promise.all([oauth.close(), proxy.close(), deployment.close(), mock.close()]);
  rmSync(dir, { recursive: true, force: true });
});

function files(root: string): string[] {
  return readdirSync(root).flatMap((name) => {
    const full = join(root, name);
    return statSync(full).isDirectory() ? files(full) : [full];
  });
}

test('a full run through proxy, private CA with client certificate, and 5 s OAuth tokens is CERTIFIED, leaking nothing', async () => {
  const reportDir = join(dir, 'reports');
  const args = [
    'run',
    '--base-url',
    deployment.baseUrl,
    '--allow-writes',
    '--report-dir',
    reportDir,
    '--progress',
    'none',
    '--proxy',
    proxy.urlWithCredentials,
    '--ca-file',
    pki.caCert,
    '--client-cert',
    pki.clientCert,
    '--client-key',
    pki.clientKeyEncrypted,
    '--token-url',
    oauth.tokenUrl,
  ];
  const env = {
    FLIS_CLIENT_ID: CLIENT_ID,
    FLIS_CLIENT_SECRET: CLIENT_SECRET,
    FLIS_CLIENT_KEY_PASSPHRASE: pki.passphrase,
  };
  const o = await runFlis(args, env, 600_000);
  const out = { code: o.code, text: `${o.stdout}\n${o.stderr}` };
  assert.equal(out.code, 0, out.text);
  const certificate = JSON.parse(readFileSync(join(reportDir, 'certificate.json'), 'utf8')) as {
    verdict: { status: string };
  };
  assert.equal(certificate.verdict.status, 'certified', out.text);
  assert.ok(oauth.issued.length >= 2, `tokens were renewed during the run (${oauth.issued.length} issued)`);
  assert.ok(proxy.seen.tunnels > 0, 'the deployment was reached through the proxy');
  assert.ok(
    deployment.clients.every((cn) => cn === 'flis partner'),
    'with the client certificate',
  );
  assert.ok(counts.valid > 0, 'the deployment saw valid tokens from the authorization server');
  const runJson = readFileSync(join(reportDir, 'run.json'), 'utf8');
  assert.match(runJson, /"tokenRefreshes":\s*[1-9]/, 'run.json shows the renewals');
  const secrets = [...oauth.issued, CLIENT_SECRET, PROXY_PASSWORD, pki.passphrase];
  const forms = secrets.flatMap(secretForms);
  for (const file of [...files(reportDir)]) {
    const text = readFileSync(file).toString('latin1');
    for (const form of forms) assert.ok(!text.includes(form), `no secret in ${file}`);
  }
  for (const form of forms) assert.ok(!out.text.includes(form), 'no secret in the output');
});
