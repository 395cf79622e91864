/**
 * A partner installs flis like any CLI (issue 18 section 4): this project packed (`npm pack`, whose prepack builds
 * dist/), the tarball installed into an empty project, and every command run from there: `npx flis run` against
 * the embedded mock to CERTIFIED, `report` and `show-report` of that run, `mock`, `record` and `replay` of one
 * exchange, and `certify` with the recorded cassette. By hand on another Node: put its bin/ first on PATH and run
 * this file (docs/install.md).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { flis, installInto, pack, partnerEnv, run, serve } from './installed-tool.ts';

const dir = mkdtempSync(join(tmpdir(), 'flis-pack-'));
const project = join(dir, 'partner');
let files: string[] = [];
after(() => rmSync(dir, { recursive: true, force: true }));

before(async () => {
  const packed = await pack(dir);
  files = packed.files;
  await installInto(project, packed.tarball);
});

const TOKEN = 'pack-test-token-7f3a';
const BASE_URL = /http:\/\/127\.0\.0\.1:\d+\/apis\/v0/;

test('the tarball holds the build, the contract and the schemas, and no sources, tests, benches or fixtures', () => {
  for (const needed of [
    'bin/flis.js',
    'package.json',
    'dist/cli/main.js',
    'dist/cli/main.d.ts',
    'dist/playwright.config.js',
    'dist/specs/openapi.yaml',
    'dist/specs/deployments.yaml',
    'dist/schemas/offer.schema.json',
    'dist/suites/contract/auth-required.spec.js',
  ])
    assert.ok(files.includes(needed), `${needed} is in the tarball`);
  const unwanted = files.filter(
    (f) =>
      /^(dist\/)?(tests|bench|scripts)\//.test(f) ||
      f.split('/').includes('fixtures') ||
      (f.endsWith('.ts') && !f.endsWith('.d.ts')),
  );
  assert.deepEqual(unwanted, []);
});

test('npx flis run from the install is CERTIFIED against the embedded mock; report and show-report read its reports', async () => {
  const reports = join(dir, 'reports');
  // Every check runs (CERTIFIED needs all); 3 fast-check examples a property instead of 20 keep it cheap.
  const r = await run('npx', ['flis', 'run', '--runs', '3', '--progress', 'none', '--report-dir', reports], project);
  assert.equal(r.code, 0, r.out);
  assert.match(r.out, /flis run: CERTIFIED/, r.out);
  // The contract cache is the partner's node_modules/.cache, not a node_modules made inside the package.
  const cache = join(project, 'node_modules', '.cache', 'flis-conformance');
  assert.ok(existsSync(cache) && readdirSync(cache).some((f) => /^openapi-[0-9a-f]+\.json$/.test(f)), r.out);
  assert.ok(!existsSync(join(project, 'node_modules', 'flis-conformance', 'node_modules', '.cache')));

  const report = await flis(project, ['report', '--report-dir', reports]);
  assert.equal(report.code, 0, report.out);
  assert.match(readFileSync(join(reports, 'allure-report', 'index.html'), 'utf8'), /<html/i);

  const shown = await serve(
    project,
    ['show-report', '--report-dir', reports, '--port', '0'],
    partnerEnv(),
    /http:\/\/127\.0\.0\.1:\d+\//,
  );
  try {
    const page = await fetch(new URL('certificate.html', shown.url));
    assert.equal(page.status, 200);
    assert.match(await page.text(), /CERTIFIED/);
  } finally {
    assert.equal((await shown.stop()).code, 0);
  }
});

test('mock, record, replay and certify from the install', async () => {
  const env = partnerEnv({ FLIS_MOCK_TOKEN: TOKEN, FLIS_TOKEN: TOKEN });
  const cassette = join(dir, 'client.yaml');
  const mock = await serve(project, ['mock', '--port', '0'], env, BASE_URL);
  let recorded: Response;
  try {
    const recorder = await serve(project, ['record', '--upstream', mock.url, '--cassette', cassette], env, BASE_URL);
    try {
      recorded = await fetch(`${recorder.url}/offers?limit=2`, { headers: { authorization: `Bearer ${TOKEN}` } });
      assert.equal(recorded.status, 200);
    } finally {
      const stopped = await recorder.stop();
      assert.equal(stopped.code, 0, stopped.out);
      assert.match(stopped.out, /1 written/, stopped.out);
    }
  } finally {
    assert.equal((await mock.stop()).code, 0);
  }
  const body = await recorded.json();
  assert.ok(!readFileSync(cassette, 'utf8').includes(TOKEN), 'the cassette never holds the token');

  const replay = await serve(project, ['replay', '--cassette', cassette], env, BASE_URL);
  try {
    const again = await fetch(`${replay.url}/offers?limit=2`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(again.status, 200);
    assert.deepEqual(await again.json(), body);
  } finally {
    assert.equal((await replay.stop()).code, 0);
  }

  // One small suite keeps it short: what is asked is that certify runs from the install and judges the cassette.
  const reports = join(dir, 'certify');
  const certify = await flis(
    project,
    ['certify', '--partner', 'acme', '--deployment', 'embedded', '--cassette', cassette, '--suite', 'bad-input'],
    partnerEnv({ FLIS_REPORT_DIR: reports, FLIS_PROGRESS: 'none' }),
  );
  assert.equal(certify.code, 0, certify.out);
  const certificate = JSON.parse(readFileSync(join(reports, 'certificate-acme.json'), 'utf8')) as object;
  assert.match(JSON.stringify(certificate), /traffic:/);
});
