import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { checkBaseUrl, loadDeployments, resolveDeployment, resolveTarget } from '../../config/deployments.ts';
import { ConfigError } from '../../errors/flis-error.ts';

test('the named deployments: embedded (default) and the service five, three holding live data', () => {
  const d = loadDeployments();
  assert.equal(d.default, 'embedded');
  assert.deepEqual(
    d.deployments.map((x) => x.name),
    ['embedded', 'mock', 'sandbox', 'production-1', 'production-2', 'production-3'],
  );
  assert.deepEqual(
    d.deployments.filter((x) => x.liveData).map((x) => x.name),
    ['production-1', 'production-2', 'production-3'],
  );
  for (const x of d.deployments.filter((y) => !y.embedded)) assert.match(x.tokenEnv ?? '', /^FLIS_\w+_TOKEN$/);
});

test('embedded needs no credentials and allows writes', () => {
  const t = resolveTarget({}, {});
  assert.equal(t.name, 'embedded');
  assert.equal(t.embedded, true);
  assert.equal(t.allowWrites, true);
});

test('sandbox takes its URL and token from the variables it names, falling back to FLIS_TOKEN', () => {
  const t = resolveTarget(
    { deployment: 'sandbox' },
    { FLIS_SANDBOX_BASE_URL: 'https://sandbox.test/apis/v0/', FLIS_TOKEN: 'tok' },
  );
  assert.equal(t.baseUrl, 'https://sandbox.test/apis/v0');
  assert.equal(t.token, 'tok');
  assert.equal(t.allowWrites, true);
  const own = resolveTarget(
    { deployment: 'sandbox' },
    { FLIS_SANDBOX_BASE_URL: 'https://sandbox.test/apis/v0', FLIS_SANDBOX_TOKEN: 'own', FLIS_TOKEN: 'tok' },
  );
  assert.equal(own.token, 'own');
});

test('live-data deployments and ad-hoc URLs are read-only unless writes are allowed', () => {
  const env = { FLIS_PRODUCTION_1_BASE_URL: 'https://p1.test/apis/v0', FLIS_TOKEN: 'tok' };
  const ro = resolveTarget({ deployment: 'production-1' }, env);
  assert.equal(ro.allowWrites, false);
  assert.match(ro.writesSkippedReason, /live data.*--allow-writes/);
  assert.equal(resolveTarget({ deployment: 'production-1', allowWrites: true }, env).allowWrites, true);
  const adHoc = resolveTarget({ baseUrl: 'http://127.0.0.1:9/apis/v0' }, { FLIS_TOKEN: 'tok' });
  assert.equal(adHoc.allowWrites, false);
  assert.match(adHoc.writesSkippedReason, /ad-hoc/);
});

test('configuration mistakes are ConfigErrors with codes that say what is missing', () => {
  const code = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      assert.ok(e instanceof ConfigError);
      return e.code;
    }
    assert.fail('expected a ConfigError');
  };
  assert.equal(
    code(() => resolveTarget({ deployment: 'nope' }, {})),
    'FLIS_ERR_DEPLOYMENT',
  );
  assert.equal(
    code(() => resolveTarget({ deployment: 'sandbox' }, {})),
    'FLIS_ERR_DEPLOYMENT',
  );
  assert.equal(
    code(() => resolveTarget({ deployment: 'sandbox' }, { FLIS_SANDBOX_BASE_URL: 'https://s.test/apis/v0' })),
    'FLIS_ERR_SECRET_MISSING',
  );
  assert.equal(
    code(() => resolveTarget({ baseUrl: 'http://127.0.0.1:9/apis/v0' }, {})),
    'FLIS_ERR_SECRET_MISSING',
  );
  assert.equal(
    code(() => checkBaseUrl('http://127.0.0.1:9/api', '--base-url')),
    'FLIS_ERR_CONFIG',
  );
  assert.equal(
    code(() => checkBaseUrl('ftp://x/apis/v0', '--base-url')),
    'FLIS_ERR_CONFIG',
  );
});

test('a token never appears in a configuration error message', () => {
  try {
    resolveTarget({ baseUrl: 'not a url' }, { FLIS_TOKEN: 'super-secret-token' });
    assert.fail('expected an error');
  } catch (e) {
    assert.doesNotMatch((e as Error).message, /super-secret-token/);
  }
});

test('resolveDeployment takes a name or a URL', () => {
  assert.equal(resolveDeployment('embedded', {}).embedded, true);
  assert.equal(
    resolveDeployment('http://127.0.0.1:9/apis/v0', { FLIS_TOKEN: 't' }).baseUrl,
    'http://127.0.0.1:9/apis/v0',
  );
});

test('a malformed deployments file names the file and the line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'flis-deploy-'));
  const file = join(dir, 'deployments.yaml');
  writeFileSync(file, 'format: 1\ndeployments:\n  sandbox:\n    baseUrlEnv: X\n    tokenEnv: Y\n    liveData: maybe\n');
  assert.throws(
    () => loadDeployments(file),
    (e: unknown) => e instanceof ConfigError && e.file === file && e.line === 6 && /liveData/.test(e.message),
  );
  writeFileSync(file, 'format: 1\ndeployments: [oops\n');
  assert.throws(
    () => loadDeployments(file),
    (e: unknown) => e instanceof ConfigError && e.message.startsWith(`${file}:`) && /YAML/.test(e.message),
  );
  writeFileSync(file, 'format: 2\ndeployments: {}\n');
  assert.throws(
    () => loadDeployments(file),
    (e: unknown) => e instanceof ConfigError && e.line === 1,
  );
});
