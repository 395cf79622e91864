/**
 * `flis diff` through the connection: the embedded mock against the same mock
 * behind an HTTPS gate (private CA, client certificate, OAuth tokens that live
 * 2 s, reached through an authenticating proxy). Same answers, so no
 * difference; expired tokens are renewed, never reported; no secret in the reports.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { type RunningMock, startMock } from '../../mock/server.ts';
import { secretForms } from '../../suites/lib/redact.ts';
import { runFlis } from './helpers/flis.ts';
import { makePki, type Pki } from './helpers/pki.ts';
import * as servers from './helpers/servers.ts';
import { type GateCounts, tokenGate } from './helpers/token-gate.ts';

const MOCK_TOKEN = 'diff-mock-token-Yh7Uj8Ik9';
const PROXY_PASSWORD = 'proxy-pw-Mn5Bv4Cx3';
let pki: Pki;
let oauth: servers.OAuth;
let proxy: servers.ForwardProxy;
let mock: RunningMock;
let gate: servers.TlsServer;
let dir: string;
const counts: GateCounts = { valid: 0, expired: 0, other: 0 };

before(async () => {
  pki = makePki();
  dir = mkdtempSync(join(tmpdir(), 'net-diff-'));
  oauth = await servers.startOAuth({ ttlSeconds: 2 });
  proxy = await servers.startProxy({ user: 'partner', password: PROXY_PASSWORD });
  mock = await startMock({ token: MOCK_TOKEN });
  gate = await servers.startTlsServer(pki, tokenGate(oauth, mock.baseUrl, MOCK_TOKEN, counts));
});

after(async () => {
  await Promise.all([oauth.close(), proxy.close(), gate.close(), mock.close()]);
  rmSync(dir, { recursive: true, force: true });
});

test('flis diff reaches a deployment through proxy, private CA, client certificate and renewed tokens', async () => {
  const reportDir = join(dir, 'reports');
  const o = await runFlis(
    [
      'diff',
      '--deployment',
      'embedded',
      '--deployment',
      'sandbox',
      '--seed',
      '7',
      '--runs',
      '2',
      '--report-dir',
      reportDir,
      '--proxy',
      proxy.urlWithCredentials,
      '--ca-file',
      pki.caCert,
      '--client-cert',
      pki.clientCert,
      '--client-key',
      pki.clientKey,
      '--token-url',
      oauth.tokenUrl,
    ],
    {
      FLIS_SANDBOX_BASE_URL: gate.baseUrl,
      FLIS_CLIENT_ID: servers.CLIENT_ID,
      FLIS_CLIENT_SECRET: servers.CLIENT_SECRET,
    },
    300_000,
  );
  const text = `${o.stdout}\n${o.stderr}`;
  assert.equal(o.code, 0, text);
  assert.match(o.stdout, /0 difference\(s\)/);
  assert.ok(counts.valid > 0, 'the gate saw valid tokens');
  assert.ok(proxy.seen.tunnels > 0, 'through the proxy');
  const reports = readFileSync(join(reportDir, 'diff.json'), 'utf8') + readFileSync(join(reportDir, 'diff.md'), 'utf8');
  for (const secret of [...oauth.issued, servers.CLIENT_SECRET, PROXY_PASSWORD])
    for (const form of secretForms(secret))
      assert.ok(!`${reports}${text}`.includes(form), 'no secret in reports or output');
});
