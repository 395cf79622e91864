/**
 * The drift report finds what the mock's drift switch adds (undocumented
 * fields, nested too) and removes (a documented field), finds nothing of that
 * on the clean mock, reads cassettes, flags status codes outside the
 * documented ranges and values beyond those shown, and proposes schemas for
 * the records whose fields the spec does not show.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startMock } from '../../mock/server.ts';
import { encodeBody } from '../../recorder/body.ts';
import { writeCassette } from '../../recorder/cassette-writer.ts';
import { cassetteHeader } from '../../recorder/header.ts';
import { buildDriftReport, driftCount, observationCount, type DriftReport } from '../../reporting/drift.ts';
import { lookup } from '../../reporting/schema-walk.ts';
import { observationsFromCassette } from '../../reporting/traffic-sources.ts';
import { emptyObservations, observe, type Observations } from '../../core/observations.ts';

const TOKEN = 'drift-token-4kq';
const dir = mkdtempSync(join(tmpdir(), 'flis-drift-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Reads the documented listings of a mock as a run would, into observations. */
async function observeMock(drift: boolean): Promise<Observations> {
  const mock = await startMock({ token: TOKEN, drift });
  const obs = emptyObservations();
  try {
    for (const [operationId, path] of [
      ['listOffers', '/offers'],
      ['listBillingGroups', '/billingGroups'],
    ] as const) {
      const res = await fetch(`${mock.baseUrl}${path}`, { headers: { authorization: `Bearer ${TOKEN}` } });
      observe(obs, { operationId, status: res.status, responseBody: await res.json() });
    }
  } finally {
    await mock.close();
  }
  return obs;
}

function has(r: DriftReport, kind: string, operationId: string, path: string): boolean {
  return r.findings.some((f) => f.kind === kind && f.operationId === operationId && f.path === path);
}

describe('drift from a run', () => {
  it('finds the fields the drift switch adds, nested ones included, and the documented field it removes', async () => {
    const r = buildDriftReport(await observeMock(true));
    assert.ok(has(r, 'undocumented-field', 'listOffers', '/*/carbonKg'), JSON.stringify(r.findings.slice(0, 5)));
    assert.ok(has(r, 'undocumented-field', 'listOffers', '/*/fromLocation/geoHash'));
    assert.ok(has(r, 'undocumented-field', 'listBillingGroups', '/*/currency'));
    assert.ok(has(r, 'documented-field-never-seen', 'listOffers', '/*/queried'));
    const f = r.findings.find((x) => x.path === '/*/carbonKg');
    assert.ok(f && f.count > 0 && f.example === 412.5, 'a count and an example');
  });

  it('finds none of it on the clean mock', async () => {
    const r = buildDriftReport(await observeMock(false));
    assert.equal(
      r.counts['undocumented-field'],
      0,
      JSON.stringify(r.findings.filter((f) => f.kind === 'undocumented-field')),
    );
    assert.ok(!has(r, 'documented-field-never-seen', 'listOffers', '/*/queried'));
  });
});

describe('drift rules', () => {
  it('flags status codes outside the documented 2XX/4XX ranges', () => {
    const obs = emptyObservations();
    observe(obs, { operationId: 'listOffers', status: 503 });
    observe(obs, { operationId: 'listOffers', status: 404 });
    const r = buildDriftReport(obs);
    assert.deepEqual(
      r.findings.filter((f) => f.kind === 'undocumented-status').map((f) => f.status),
      [503],
    );
  });

  it('reports values beyond those spec 3 shows, and never what lives in an open key-value store', () => {
    const obs = emptyObservations();
    observe(obs, {
      operationId: 'getBillingGroup',
      status: 200,
      responseBody: { status: 'Invoiced', properties: { anything: 1 } },
    });
    const r = buildDriftReport(obs);
    assert.ok(r.findings.some((f) => f.kind === 'undocumented-value' && f.value === 'Invoiced'));
    assert.equal(lookup('billing-group', '/properties/anything').kind, 'open');
    assert.equal(r.findings.filter((f) => f.kind === 'undocumented-field').length, 0);
  });
});

describe('what is never gated drift', () => {
  it("the suites' own requests (some invalid on purpose) are not judged; a client's recorded requests are", () => {
    const obs = emptyObservations();
    observe(obs, {
      operationId: 'upsertOffer',
      status: 400,
      requestBody: { offer: { priceStrategy: 'Bogus-flis-run-1' } },
    });
    observe(obs, { operationId: 'upsertOffer', status: 200, requestBody: { offer: { priceStrategy: 'Bogus-x' } } });
    const suiteOnly = buildDriftReport(obs, new Date(), emptyObservations());
    assert.equal(suiteOnly.findings.filter((f) => f.direction === 'request').length, 0);
    const asClient = buildDriftReport(obs, new Date(), obs);
    assert.ok(asClient.findings.some((f) => f.direction === 'request' && f.path === '/offer/priceStrategy'));
  });

  it('status values beyond those spec 3 shows are observations: reported, not counted by --fail-on drift', () => {
    const obs = emptyObservations();
    observe(obs, { operationId: 'getBillingGroup', status: 200, responseBody: { status: 'Invoiced' } });
    const r = buildDriftReport(obs);
    assert.equal(r.counts['undocumented-value'], 1);
    // The other findings are the billing group's documented fields this one body did not carry.
    assert.equal(driftCount(r), r.findings.length - 1);
    assert.equal(observationCount(r), 1);
  });
});

describe('drift that means something (a client judged on what it sends)', () => {
  it('a documented request field a client leaves out is never drift', () => {
    const obs = emptyObservations();
    observe(obs, { operationId: 'upsertOffer', status: 200, requestBody: { offer: { quantity: 3 } } });
    const r = buildDriftReport(obs, new Date(), obs);
    const request = r.findings.filter((f) => f.direction === 'request');
    assert.deepEqual(request, [], 'nothing about the fields the client did not send');
    assert.equal(driftCount(r), 0);
  });

  it('an undocumented field a client sends is request drift, gated', () => {
    const obs = emptyObservations();
    observe(obs, { operationId: 'upsertOffer', status: 200, requestBody: { offer: { quantity: 3, carbonKg: 4 } } });
    const r = buildDriftReport(obs, new Date(), obs);
    assert.ok(has(r, 'undocumented-field', 'upsertOffer', '/offer/carbonKg'), JSON.stringify(r.findings));
    assert.equal(driftCount(r), 1, 'gated: the client relies on what the contract does not promise');
  });

  it("the suites' own forced statuses (flis-forced/…) are never drift, not even an observation", () => {
    const obs = emptyObservations();
    observe(obs, {
      operationId: 'getBillingGroup',
      status: 200,
      responseBody: { status: 'flis-forced/flis-run-1/claim' },
    });
    const r = buildDriftReport(obs);
    assert.ok(!r.findings.some((f) => f.value?.startsWith('flis-forced/')), JSON.stringify(r.findings));
  });
});

describe('drift from a cassette, and proposed schemas', () => {
  const file = join(dir, 'client.cassette.yaml');
  const json = (v: unknown) => encodeBody(Buffer.from(JSON.stringify(v)), 'application/json');
  const exchange = (path: string, body: unknown) => ({
    startedAt: '2026-01-05T10:00:00.000Z',
    operationId: null,
    violations: [],
    request: { method: 'GET', path, query: {}, headers: { authorization: 'Bearer [REDACTED]' }, body: null },
    response: {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: json(body),
      timing: { durationMs: 3, firstByteMs: 2 },
    },
  });
  writeCassette(
    file,
    cassetteHeader('sandbox', 'https://sandbox.example.invalid/apis/v0'),
    [
      exchange('/bookings/bk-1', {
        id: 'bk-1',
        carrierId: 'c-1',
        createdAt: '2026-01-05T09:00:00Z',
        stops: [{ seq: 1 }],
      }),
      exchange('/bookings/bk-2', { id: 'bk-2', createdAt: '2026-01-06T09:00:00Z', stops: [] }),
      exchange('/invoices/inv-1', {
        id: 'inv-1',
        invoiceDate: '2026-01-01',
        invoiceDueDate: '2026-01-31',
        invoicedBy: { uid: 'u', email: 'e', name: 'n' },
        status: 'OPEN',
        created: '2026-01-01T00:00:00Z',
        updated: '2026-01-01T00:00:00Z',
        billingGroups: [],
        paymentTerms: 'NET30',
      }),
    ],
    [],
  );
  const r = buildDriftReport(observationsFromCassette(file));

  it('reads cassettes: undocumented fields of documented shapes', () => {
    assert.ok(has(r, 'undocumented-field', 'getInvoice', '/paymentTerms'));
    assert.deepEqual(r.sources, [`cassette ${file}`]);
  });

  it('proposes a schema for a record whose fields are not shown: types, formats, required-in-every-instance', () => {
    const p = r.proposedSchemas.find((x) => x.operationId === 'getBooking' && x.direction === 'response');
    assert.ok(p, 'a proposal for getBooking');
    const s = p.schema as {
      type: string;
      required: string[];
      properties: Record<string, { type: string; format?: string; items?: unknown }>;
    };
    assert.equal(s.type, 'object');
    assert.deepEqual(s.required, ['createdAt', 'id', 'stops']);
    assert.equal(s.properties.createdAt?.format, 'date-time');
    assert.equal(s.properties.carrierId?.type, 'string');
    assert.ok(s.properties.stops?.items, 'array items inferred');
    assert.ok(!r.proposedSchemas.some((x) => x.operationId === 'getInvoice'), 'documented shapes get no proposal');
  });
});
