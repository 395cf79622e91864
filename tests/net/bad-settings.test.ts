/**
 * Issue 18 section 5: every bad connection setting exits 2 before any suite
 * runs, with one line on stderr that names what to fix and holds no secret.
 * Each case spawns the real CLI against real components on loopback.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { secretForms } from '../../core/redact.ts';
import { makePki, type Pki } from './helpers/pki.ts';
import { runFlis } from './helpers/flis.ts';
import * as servers from './helpers/servers.ts';
import { CLIENT_ID, CLIENT_SECRET } from './helpers/servers.ts';

const TOKEN = 'static-token-Wq3Er5Ty7';
const PROXY_PASSWORD = 'proxy-pw-Zx8Cv6Bn4';
const WRONG_SECRET = 'wrong-secret-Pl0Ok9Ij8';

let pki: Pki;
let tls: servers.TlsServer;
let oauth: servers.OAuth;
let empty: servers.OAuth;
let proxy: servers.ForwardProxy;
let dir: string;
let closedPort: number;

before(async () => {
  pki = makePki();
  dir = mkdtempSync(join(tmpdir(), 'net-bad-'));
  [tls, oauth, empty, proxy] = await Promise.all([
    servers.startTlsServer(pki),
    servers.startOAuth(),
    servers.startOAuth({ withoutAccessToken: true }),
    servers.startProxy({ user: 'partner', password: PROXY_PASSWORD }),
  ]);
  const s = createServer();
  await new Promise<void>((done) => s.listen(0, '127.0.0.1', () => done()));
  closedPort = (s.address() as { port: number }).port;
  await new Promise<void>((done) => s.close(() => done()));
});

after(async () => {
  await Promise.all([tls.close(), oauth.close(), empty.close(), proxy.close()]);
  rmSync(dir, { recursive: true, force: true });
});

const SECRETS = [TOKEN, CLIENT_SECRET, WRONG_SECRET, PROXY_PASSWORD, () => pki.passphrase];

/** Exit 2, one line on stderr matching `names`, no form of any secret anywhere, and no suite ran. */
async function failsInOneLine(args: string[], env: NodeJS.ProcessEnv, names: RegExp): Promise<void> {
  const o = await runFlis(args, env);
  const output = `${o.stdout}\n${o.stderr}`;
  assert.equal(o.code, 2, output);
  const lines = o.stderr.trim().split('\n');
  assert.equal(lines.length, 1, `one line on stderr: ${o.stderr}`);
  assert.match(lines[0] ?? '', names);
  assert.doesNotMatch(output, /passed|failed \d|Running \d+ tests/i, 'no suite ran');
  for (const s of SECRETS)
    for (const form of secretForms(typeof s === 'function' ? s() : s))
      assert.ok(!output.includes(form), 'no secret in the output');
}

const run = (baseUrl: string, ...more: string[]) => [
  'run',
  '--base-url',
  baseUrl,
  '--report-dir',
  join(dir, 'r'),
  '--progress',
  'none',
  ...more,
];
const withKey = (key: string) => ['--ca-file', pki.caCert, '--client-cert', pki.clientCert, '--client-key', key];
const mtls = () => withKey(pki.clientKey);
const withToken = { FLIS_TOKEN: TOKEN };
const grant = (secret = CLIENT_SECRET) => ({ FLIS_CLIENT_ID: CLIENT_ID, FLIS_CLIENT_SECRET: secret });

test('a CA, certificate or key file that is missing or unreadable', async () => {
  await Promise.all([
    failsInOneLine(
      run(tls.baseUrl, '--ca-file', join(dir, 'nope.pem')),
      withToken,
      /--ca-file .*nope\.pem.*no such file/,
    ),
    failsInOneLine(run(tls.baseUrl, ...mtls(), '--client-cert', dir), withToken, /--client-cert .* cannot be read/),
    failsInOneLine(
      run(tls.baseUrl, '--ca-file', pki.caCert, '--client-cert', pki.clientCert),
      { ...withToken, FLIS_CLIENT_KEY: join(dir, 'missing.key') },
      /--client-key .*missing\.key.*no such file/,
    ),
  ]);
});

test('a key that does not match its certificate, or whose passphrase is wrong', async () => {
  await Promise.all([
    failsInOneLine(
      run(tls.baseUrl, ...withKey(pki.strangerKey)),
      withToken,
      /--client-key .* does not match --client-cert/,
    ),
    failsInOneLine(
      run(tls.baseUrl, ...withKey(pki.clientKeyEncrypted)),
      { ...withToken, FLIS_CLIENT_KEY_PASSPHRASE: 'not-the-passphrase' },
      /FLIS_CLIENT_KEY_PASSPHRASE/,
    ),
  ]);
});

test('a deployment whose CA is not trusted, or that refuses the client certificate', async () => {
  await Promise.all([
    failsInOneLine(run(tls.baseUrl), withToken, /TLS handshake failed.*--ca-file/),
    failsInOneLine(
      run(tls.baseUrl, '--ca-file', pki.caCert, '--client-cert', pki.strangerCert, '--client-key', pki.strangerKey),
      withToken,
      /refused.*client certificate.*--client-cert/,
    ),
  ]);
});

test('a token endpoint that is unreachable, refuses the client, or answers without an access_token', async () => {
  const args = (url: string) => run(tls.baseUrl, ...mtls(), '--token-url', url);
  await Promise.all([
    failsInOneLine(
      args(`http://127.0.0.1:${closedPort}/token`),
      grant(),
      /token endpoint .* is unreachable.*--token-url/,
    ),
    failsInOneLine(
      args(oauth.tokenUrl),
      grant(WRONG_SECRET),
      /refused the client \(invalid_client\).*FLIS_CLIENT_SECRET/,
    ),
    failsInOneLine(args(empty.tokenUrl), grant(), /without an access_token/),
  ]);
});

test('a token command that fails or prints nothing', async () => {
  await Promise.all([
    failsInOneLine(
      run(tls.baseUrl, ...mtls(), '--token-command', 'echo nope >&2; exit 3'),
      {},
      /--token-command exited with status 3 \(it said: nope\)/,
    ),
    failsInOneLine(run(tls.baseUrl, ...mtls()), { FLIS_TOKEN_COMMAND: 'true' }, /--token-command printed nothing/),
  ]);
});

test('a proxy that is unreachable, or that refuses the credentials (407)', async () => {
  const wrong = proxy.urlWithCredentials.replace(encodeURIComponent(PROXY_PASSWORD), 'not-it');
  await Promise.all([
    failsInOneLine(
      run(tls.baseUrl, ...mtls(), '--proxy', `http://127.0.0.1:${closedPort}`),
      withToken,
      /proxy http:\/\/127\.0\.0\.1:\d+ is unreachable.*--proxy/,
    ),
    failsInOneLine(run(tls.baseUrl, ...mtls()), { ...withToken, FLIS_PROXY: wrong }, /407.*--proxy/),
    failsInOneLine(run(tls.baseUrl, ...mtls()), { ...withToken, HTTPS_PROXY: proxy.url }, /407/),
  ]);
});

test('flis record and flis diff check the same settings before they start', async () => {
  await Promise.all([
    failsInOneLine(
      ['record', '--upstream', tls.baseUrl, '--cassette', join(dir, 'c.yaml'), ...mtls(), '--proxy', proxy.url],
      withToken,
      /^flis record: .*407/,
    ),
    failsInOneLine(
      [
        'diff',
        '--deployment',
        'embedded',
        '--deployment',
        'sandbox',
        '--client-cert',
        pki.clientCert,
        '--client-key',
        pki.strangerKey,
      ],
      { ...withToken, FLIS_SANDBOX_BASE_URL: tls.baseUrl },
      /^flis diff: --client-key .* does not match/,
    ),
  ]);
});
