/**
 * flis certify: the suites on the "sandbox" (a mock here) plus a partner's
 * recorded client traffic, in one certificate named for the partner. Clean
 * traffic passes; traffic with a contract violation fails and names it.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { certifyCommand } from '../../cli/commands/certify.ts';
import { startMock, type RunningMock } from '../../mock/server.ts';
import { encodeBody } from '../../recorder/body.ts';
import { writeCassette } from '../../recorder/cassette-writer.ts';
import { cassetteHeader } from '../../recorder/header.ts';
import type { Certificate } from '../../reporting/certificate.ts';
import { runCommand, type CommandResult } from './helpers.ts';

const TOKEN = 'certify-token-p3Wd9';
const root = mkdtempSync(join(tmpdir(), 'flis-certify-'));
let mock: RunningMock;
let clean: CommandResult;
let broken: CommandResult;

/** One exchange as `flis record` stores it: the client's request and the deployment's real answer. */
async function recorded(method: string, path: string, body?: unknown) {
  const res = await fetch(`${mock.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return {
    startedAt: new Date().toISOString(),
    operationId: null,
    violations: [],
    request: {
      method,
      path,
      query: {},
      headers: {
        authorization: 'Bearer [REDACTED]',
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: body === undefined ? null : encodeBody(Buffer.from(JSON.stringify(body)), 'application/json'),
    },
    response: {
      status: res.status,
      headers: { 'content-type': res.headers.get('content-type') ?? '' },
      body: encodeBody(Buffer.from(text), res.headers.get('content-type') ?? undefined),
      timing: { durationMs: 1, firstByteMs: 1 },
    },
  };
}

before(async () => {
  mock = await startMock({ token: TOKEN });
  const header = cassetteHeader('sandbox', mock.baseUrl);
  const good = [await recorded('GET', '/billingGroups'), await recorded('GET', '/offers')];
  // The partner's client sends quantity as a string: Offer write bodies type it as a number (spec 2.3).
  const bad = await recorded('PUT', '/offers/acme-1', { offer: { quantity: 'three' } });
  writeCassette(join(root, 'clean.yaml'), header, good, []);
  writeCassette(join(root, 'broken.yaml'), header, [...good, bad], []);
  const env = { ...process.env, FLIS_SANDBOX_BASE_URL: mock.baseUrl, FLIS_SANDBOX_TOKEN: TOKEN };
  const args = (name: string) => [
    '--partner',
    'Acme Haulage',
    '--suite',
    'billing',
    '--seed',
    '3',
    '--runs',
    '3',
    '--progress',
    'none',
    '--report-dir',
    join(root, name),
    '--cassette',
    join(root, `${name}.yaml`),
  ];
  [clean, broken] = await Promise.all([
    runCommand(certifyCommand, args('clean'), env),
    runCommand(certifyCommand, args('broken'), env),
  ]);
});
after(async () => {
  await mock?.close();
  rmSync(root, { recursive: true, force: true });
});

const cert = (name: string) =>
  JSON.parse(readFileSync(join(root, name, 'certificate-acme-haulage.json'), 'utf8')) as Certificate;

describe('flis certify', () => {
  it('passes with clean client traffic: one certificate, named for the partner, covering suites and traffic', () => {
    assert.equal(clean.code, 0, clean.out);
    const c = cert('clean');
    // Only the billing suite ran: nothing failed, but the verdict says it does not speak for the whole contract.
    assert.equal(c.verdict.status, 'partial');
    assert.match(c.verdict.reasons.join(), /only the suites billing/);
    assert.equal(c.subject.partner, 'Acme Haulage');
    assert.equal(c.subject.deployment, 'sandbox');
    assert.deepEqual(
      c.run.cassettes?.map((k) => k.exchanges),
      [2],
    );
    const row = c.matrix.rows.find((r) => r.operationId === 'listBillingGroups');
    assert.equal(row?.cells['traffic:response-schema']?.status, 'passed');
    assert.ok(
      c.matrix.checks.some((k) => !k.startsWith('traffic:')),
      'the suites ran too',
    );
    assert.ok(existsSync(join(root, 'clean', 'certificate-acme-haulage.html')));
  });

  it('fails with a contract violation in the client traffic, and names it', () => {
    assert.equal(broken.code, 1, broken.out);
    assert.match(
      broken.out,
      /CLIENT TRAFFIC FAILED \[traffic:request-schema\] spec 4\.1 upsertOffer: .*broken\.yaml:\d+/,
    );
    const c = cert('broken');
    assert.equal(c.verdict.status, 'not-certified');
    const f = c.failures.find((x) => x.source === 'traffic');
    assert.equal(f?.pointer, '/offer/quantity');
    assert.equal(
      c.matrix.rows.find((r) => r.operationId === 'upsertOffer')?.cells['traffic:request-schema']?.status,
      'failed',
    );
  });
});
