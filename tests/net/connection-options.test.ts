/** The connection flags and their environment variables: which wins, what goes together, what is checked. */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { parseConnectionOptions } from '../../net/connection-options.ts';
import { makePki } from './helpers/pki.ts';

const pki = makePki();
after(() => pki.cleanup());

const codeOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as { code: string }).code;
  }
  return 'no error';
};

const messageOf = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  return 'no error';
};

test('a flag wins over its variable; an empty variable is unset; no token flags means the fixed token', () => {
  const { settings, token } = parseConnectionOptions(
    { proxy: 'http://flag:1' },
    { FLIS_PROXY: 'http://env:2', FLIS_TOKEN_URL: '' },
  );
  assert.equal(settings.proxy, 'http://flag:1');
  assert.deepEqual(token, { kind: 'static' });
  assert.equal(parseConnectionOptions({}, { FLIS_PROXY: 'http://env:2' }).settings.proxy, 'http://env:2');
});

test('client credentials come from the environment, with the scope', () => {
  const { token } = parseConnectionOptions(
    { 'token-url': 'https://login.example/token', scope: 'flis.read' },
    { FLIS_CLIENT_ID: 'id', FLIS_CLIENT_SECRET: 'secret' },
  );
  assert.deepEqual(token, {
    kind: 'client-credentials',
    tokenUrl: 'https://login.example/token',
    clientId: 'id',
    clientSecret: 'secret',
    scope: 'flis.read',
  });
  assert.equal(
    codeOf(() => parseConnectionOptions({ 'token-url': 'https://l.example/t' }, { FLIS_CLIENT_ID: 'id' })),
    'FLIS_ERR_SECRET_MISSING',
  );
});

test('flags that do not go together are usage errors', () => {
  const both = { 'token-url': 'https://l.example/t', 'token-command': 'echo t' };
  assert.equal(
    codeOf(() => parseConnectionOptions(both, {})),
    'FLIS_ERR_USAGE',
  );
  assert.equal(
    codeOf(() => parseConnectionOptions({ scope: 's' }, {})),
    'FLIS_ERR_USAGE',
  );
  assert.equal(
    codeOf(() => parseConnectionOptions({ 'client-cert': pki.clientCert }, {})),
    'FLIS_ERR_USAGE',
  );
  assert.equal(
    codeOf(() => parseConnectionOptions({ proxy: 'socks://x' }, {})),
    'FLIS_ERR_USAGE',
  );
});

test('--ca-file keeps NODE_EXTRA_CA_CERTS, which an explicit CA would make Node ignore', () => {
  const { settings } = parseConnectionOptions({ 'ca-file': pki.caCert }, { NODE_EXTRA_CA_CERTS: pki.strangerCert });
  assert.ok(settings.ca?.includes(pki.pem(pki.caCert).trim()));
  assert.ok(settings.ca?.includes(pki.pem(pki.strangerCert).trim()));
});

test('a matching client certificate and key, the key encrypted, are read', () => {
  const { settings } = parseConnectionOptions(
    { 'client-cert': pki.clientCert, 'client-key': pki.clientKeyEncrypted },
    { FLIS_CLIENT_KEY_PASSPHRASE: pki.passphrase },
  );
  assert.equal(settings.clientKeyPassphrase, pki.passphrase);
  assert.match(settings.clientCert ?? '', /BEGIN CERTIFICATE/);
});

test('every wrong passphrase of an encrypted key names FLIS_CLIENT_KEY_PASSPHRASE, the rare one that decrypts to garbage too', () => {
  // About one wrong passphrase in 256 pads well and fails later as an unreadable key; 800 tries meet some.
  for (let i = 0; i < 800; i++) {
    const message = messageOf(() =>
      parseConnectionOptions(
        { 'client-cert': pki.clientCert, 'client-key': pki.clientKeyEncrypted },
        { FLIS_CLIENT_KEY_PASSPHRASE: `wrong-${i}` },
      ),
    );
    assert.match(message, /FLIS_CLIENT_KEY_PASSPHRASE does not open it/, `passphrase wrong-${i}`);
    assert.ok(!message.includes(`wrong-${i}`), 'the passphrase is never printed');
  }
});
