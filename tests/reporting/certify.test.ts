/**
 * flis certify: the suites on the "sandbox" (a mock here) plus a partner's
 * recorded client traffic, in one certificate named for the partner, with a
 * verdict for each party. Clean traffic passes, also with --fail-on drift
 * when it leaves optional fields out; traffic with a contract violation fails
 * the client and names it; a client whose traffic does not use an operation
 * the partner says it integrates fails the client, not the service.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { certifyCommand } from '../../cli/commands/certify.ts';
import { startMock, type RunningMock } from '../../mock/server.ts';
import { encodeBody, jsonValue } from '../../recorder/body.ts';
import { writeCassette } from '../../recorder/cassette-writer.ts';
import { cassetteHeader } from '../../recorder/header.ts';
import type { Certificate } from '../../reporting/certificate.ts';
import { launchChromium, NO_CHROMIUM, openOffline, SHOTS } from './chromium-helpers.ts';
import { runCommand, type CommandResult } from './helpers.ts';

const TOKEN = 'certify-token-p3Wd9';
const root = mkdtempSync(join(tmpdir(), 'flis-certify-'));
let mock: RunningMock;
let clean: CommandResult;
let broken: CommandResult;
let unused: CommandResult;
let fragile: CommandResult;

/** One exchange as `flis record` stores it: the client's request and the deployment's real answer. */
async function recorded(method: string, path: string, body?: unknown, query: Record<string, string> = {}) {
  const search = new URLSearchParams(query).toString();
  const res = await fetch(`${mock.baseUrl}${path}${search ? `?${search}` : ''}`, {
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
      query,
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
  // A conformant client that sends only the fields it needs (every field of an offer write is optional), reads its
  // write's batch status and pages the invoices to their end.
  const write = await recorded('PUT', '/offers/acme-2', { offer: { quantity: 3 } });
  const ack = jsonValue(write.response.body);
  const batchId = ack.ok ? (ack.value as { batchId: string }).batchId : 'no-batch-id';
  const good = [
    await recorded('GET', '/billingGroups'),
    await recorded('GET', '/offers'),
    write,
    await recorded('GET', `/bookings/requestsStatus/batch/${encodeURIComponent(batchId)}`),
    await recorded('GET', '/invoices', undefined, { page: '1', limit: '500' }),
  ];
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
  const brittle = join(import.meta.dirname, 'fixtures', 'clients', 'brittle.mjs');
  [clean, broken, unused, fragile] = await Promise.all([
    runCommand(
      certifyCommand,
      [...args('clean'), '--fail-on', 'drift', '--require-operations', 'listOffers,upsertOffer'],
      env,
    ),
    runCommand(certifyCommand, args('broken'), env),
    runCommand(
      certifyCommand,
      [...args('clean'), '--report-dir', join(root, 'unused'), '--require-operations', 'listOffers,deleteOffer'],
      env,
    ),
    // No cassette: the brittle client's run against the plain mock is its traffic.
    runCommand(
      certifyCommand,
      [
        ...args('clean').slice(0, -2),
        '--report-dir',
        join(root, 'fragile'),
        '--client-command',
        `"${process.execPath}" "${brittle}"`,
      ],
      env,
    ),
  ]);
});
after(async () => {
  if (process.env.H27_DUMP)
    for (const [n, r] of Object.entries({ clean, broken, unused })) writeFileSync(`/tmp/h27-${n}.out`, r.out);
  await mock?.close();
  rmSync(root, { recursive: true, force: true });
});

const cert = (name: string) =>
  JSON.parse(readFileSync(join(root, name, 'certificate-acme-haulage.json'), 'utf8')) as Certificate;
const lastLines = (r: CommandResult, n: number) => r.out.trimEnd().split('\n').slice(-n);

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
      [5],
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

  it('gives two verdicts, the client and the service as the partner uses it, in the JSON and in the last lines', () => {
    const c = cert('clean');
    assert.equal(c.parties?.client.status, 'certified', JSON.stringify(c.parties?.client.reasons));
    assert.equal(c.parties?.service.status, 'partial');
    const [client, service, who, last] = lastLines(clean, 4);
    assert.match(
      client ?? '',
      /^the client \(Acme Haulage, by its recorded traffic\): CERTIFIED — 5 exchanges, 0 violations; 5 of 125 operations used/,
    );
    assert.match(
      service ?? '',
      /^the service \(sandbox as Acme Haulage uses it, by the suites\): PARTIAL — \d+ of 125 operations exercised/,
    );
    assert.equal(who, 'exit 0: neither party failed');
    assert.match(last ?? '', /^flis certify: PARTIAL \(client CERTIFIED, service PARTIAL; .*\); exit 0$/);
  });

  it('says what the client used of the contract, what it did not, and the flows it completed', () => {
    const u = cert('clean').parties?.client.usage;
    assert.ok(u);
    assert.deepEqual(u.operationsUsed, [
      'getBatchRequestsStatus',
      'listBillingGroups',
      'listInvoices',
      'listOffers',
      'upsertOffer',
    ]);
    assert.equal(u.operationsNotUsed.length, 120);
    assert.deepEqual(u.requestFields.sent, ['upsertOffer /offer', 'upsertOffer /offer/quantity']);
    assert.ok(u.requestFields.notSent.includes('upsertOffer /offer/carrierId'), 'what it left out is listed');
    assert.deepEqual(
      u.flows.map((f) => [f.flow, f.started, f.completed]),
      [
        ['write-then-batch-status', 1, 1],
        ['paging-to-the-end', 1, 1],
      ],
    );
    const service = cert('clean').parties?.service;
    assert.equal((service?.operationsExercised.length ?? 0) + (service?.operationsNotExercised.length ?? 0), 125);
  });

  it('passes --fail-on drift with a conformant client that leaves optional fields out', () => {
    assert.equal(clean.code, 0, clean.out);
    assert.match(clean.out, /gate drift: passed: 0 drift finding\(s\)/);
    const drift = JSON.parse(readFileSync(join(root, 'clean', 'drift.json'), 'utf8')) as {
      findings: { direction: string; kind: string }[];
    };
    assert.deepEqual(
      drift.findings.filter((f) => f.direction === 'request'),
      [],
      'no documented field the client did not send is drift',
    );
  });

  it('says which party failed: a broken client fails the client, not the service', () => {
    const c = cert('broken');
    assert.equal(c.parties?.client.status, 'not-certified');
    assert.notEqual(c.parties?.service.status, 'not-certified');
    const [who, last] = lastLines(broken, 2);
    assert.match(who ?? '', /^exit 1: the client failed \(1 violation .*\); the service did not$/);
    assert.match(last ?? '', /^flis certify: NOT CERTIFIED \(client NOT CERTIFIED, service PARTIAL; .*\); exit 1$/);
  });

  it('fails the client when its traffic does not use an operation the partner integrates (--require-operations)', () => {
    assert.equal(unused.code, 1, unused.out);
    const c = cert('unused');
    assert.equal(c.parties?.client.status, 'not-certified');
    assert.deepEqual(c.parties?.client.required?.missing, ['deleteOffer']);
    assert.match(lastLines(unused, 2)[0] ?? '', /^exit 1: the client failed \(.*integrates.*deleteOffer\)/);
  });

  it('read in Chromium, the banner shows both verdicts, and the party that failed is the red one', {
    skip: NO_CHROMIUM,
  }, async () => {
    const browser = await launchChromium();
    mkdirSync(SHOTS, { recursive: true });
    try {
      for (const [name, client] of [
        ['clean', 'CERTIFIED'],
        ['broken', 'NOT CERTIFIED'],
      ] as const) {
        const { page, requests } = await openOffline(browser, join(root, name, 'certificate-acme-haulage.html'));
        try {
          const party = (p: string) => page.locator(`header.banner .party[data-party="${p}"]`);
          assert.equal(
            await party('client').locator('b').innerText(),
            `${client === 'CERTIFIED' ? '✓' : '✗'} CLIENT: ${client}`,
          );
          assert.equal(await party('service').locator('b').innerText(), '◐ SERVICE: PARTIAL');
          const colour = (p: string) => party(p).evaluate((el) => getComputedStyle(el).backgroundColor);
          const red = 'rgb(164, 14, 38)';
          assert.equal(
            (await colour('client')) === red,
            name === 'broken',
            `${name}: the client's box is red only when it failed`,
          );
          assert.notEqual(await colour('service'), red, `${name}: the service did not fail`);
          // Both verdicts are on the first screen, above anything one has to scroll to.
          const box = await party('client').boundingBox();
          assert.ok(box && box.y + box.height < 1000, `${name}: the verdicts are on the first screen`);
          await page.screenshot({ path: join(SHOTS, `certificate-parties-${name}.png`) });
          assert.equal(requests.length, 1, `${name}: the page loads nothing but itself`);
        } finally {
          await page.close();
        }
      }
      // The robustness section of the brittle client: one row per variant, the five it broke on marked.
      const { page } = await openOffline(browser, join(root, 'fragile', 'certificate-acme-haulage.html'));
      try {
        const broke = await page
          .locator('table.robustness tr.broke')
          .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-variant')));
        assert.deepEqual(broke, ['different', 'throttled', 'open-choices', 'eventual', 'offer-versions']);
        assert.equal(await page.locator('table.robustness tr.survived').count(), 2);
        await page.locator('#robustness').scrollIntoViewIfNeeded();
        await page.screenshot({ path: join(SHOTS, 'certificate-robustness-brittle.png') });
      } finally {
        await page.close();
      }
    } finally {
      await browser.close();
    }
  });

  it('--client-command: a robustness row per variant; a brittle client fails the client, naming the variants', () => {
    assert.equal(fragile.code, 1, fragile.out);
    const c = cert('fragile');
    const rows = c.parties?.client.robustness ?? [];
    assert.deepEqual(
      rows.map((r) => [r.variant, r.passed]),
      [
        ['default', true],
        ['different', false],
        ['throttled', false],
        ['open-choices', false],
        ['eventual', false],
        ['offer-versions', false],
        ['paged-lists', true],
      ],
    );
    assert.equal(c.parties?.client.status, 'not-certified');
    assert.match(
      c.parties?.client.reasons.join() ?? '',
      /did not survive 5 of the 7 conformant variants of the embedded mock: different, throttled, open-choices, eventual, offer-versions/,
    );
    // Its plain-mock run is its traffic: the usage is read from it.
    assert.ok(c.parties?.client.usage?.operationsUsed.includes('createOffer'));
    const html = readFileSync(join(root, 'fragile', 'certificate-acme-haulage.html'), 'utf8');
    for (const r of rows) assert.ok(html.includes(`data-variant="${r.variant}"`), r.variant);
    assert.match(html, /Offers are written asynchronously/);
  });
});
