/**
 * Certificates as wide as a real run makes them, for the layout tests: every
 * operation of the contract against 30 checks (some with long names), in the
 * three shapes a person must tell apart at a glance: certified, not certified
 * (failures, two on one cell, an advisory, blocked and inconclusive cells), and
 * partial (writes skipped, whole groups not covered).
 */
import { buildCertificate } from '../../reporting/certificate.ts';
import type { Certificate } from '../../reporting/certificate-types.ts';
import type { MatrixCell } from '../../reporting/matrix.ts';
import type { CheckOutcome } from '../../reporting/outcomes.ts';
import { operations } from '../../specs/contract.ts';
import { failureRecord, outcome } from './fixtures.ts';

export type CertificateShape = 'certified' | 'not-certified' | 'partial';

const CHECKS = [
  'auth-required',
  'response-schema',
  'json-content-type',
  'no-5xx',
  'operation-served',
  'deprecated-served',
  'offer-upsert',
  'offer-idempotent',
  'offer-cancel',
  'offer-bulk',
  'batch-status',
  'offer-listing',
  'offer-lifecycle',
  'billing-forced-status',
  'billing-bulk-status',
  'billing-filters',
  'billing-details',
  'invoice-limit',
  'invoice-paging',
  'invoice-since',
  'invoice-forms',
  'invoice-references',
  'bad-input-rejected',
  'unknown-price-strategy',
  'webhook-envelope',
  'webhook-fact',
  'webhook-booking-allocated',
  'webhook-booking-payload',
  'webhook-booking-updated-after-cancel-by-carrier',
  'a-check-with-an-unusually-long-identifier-to-test-wrapping',
];

const WRITES_SKIPPED = 'writes are not allowed against production-1 (pass --allow-writes)';

function passes(ops: string[]): CheckOutcome[] {
  return CHECKS.map((check, i) =>
    outcome({
      id: `pass-${check}`,
      status: 'passed',
      check,
      clause: i % 3 ? 'spec 4.1' : 'spec 5 rule 2',
      exercised: i === 0 ? ops : ops.filter((_, j) => j % CHECKS.length === i || j % 7 === i % 7),
    }),
  );
}

function failures(): CheckOutcome[] {
  const long = `response does not match offer-list.schema.json (3 violation(s)):\n  /0/quantity: must be number\n  ${'/0/a/very/deep/pointer'.repeat(8)}: must be string`;
  const rows: [string, string, string, string][] = [
    ['getOffer', 'response-schema', 'spec 4.1, spec 2.2', long],
    ['getOffer', 'response-schema', 'spec 4.1, spec 2.2', 'second failure on the same cell'],
    ['listInvoices', 'invoice-paging', 'spec 4.2', 'page 2 repeats page 1: invoice inv-1 appears twice'],
    [
      'getInvoiceBillingGroupDetailsSnapshot',
      'a-check-with-an-unusually-long-identifier-to-test-wrapping',
      'spec 4.2',
      'x',
    ],
    ['createOffer', 'no-5xx', 'HTTP semantics', 'answered 500 to a malformed body'],
  ];
  return rows.map(([op, check, clause, message], i) =>
    outcome({
      id: `fail-${i}`,
      status: 'failed',
      check,
      clause,
      operation: op,
      blamed: [op],
      record: failureRecord({ check, clause, operationId: op, message }),
    }),
  );
}

function setCell(c: Certificate, operationId: string, check: string, status: string, reason: string): void {
  const row = c.matrix.rows.find((r) => r.operationId === operationId);
  if (!row) throw new Error(`no row ${operationId}`);
  row.cells[check] = { status, tests: 1, skipReasons: [reason] } as unknown as MatrixCell;
}

export function wideCertificate(shape: CertificateShape): Certificate {
  const all = operations().map((o) => o.operationId);
  const writes = new Set(
    operations()
      .filter((o) => o.method !== 'get')
      .map((o) => o.operationId),
  );
  const uncovered = new Set(
    operations()
      .filter((o) => /Fuel|Drivers|Trailers/i.test(o.tag))
      .map((o) => o.operationId),
  );
  const ops = shape === 'partial' ? all.filter((o) => !writes.has(o) && !uncovered.has(o)) : all;
  const outcomes = [
    ...passes(ops),
    ...(shape === 'not-certified' ? failures() : []),
    ...(shape === 'partial'
      ? [...writes].map((op, i) =>
          outcome({
            id: `skip-${i}`,
            status: 'skipped',
            check: 'offer-upsert',
            operation: op,
            skipReason: WRITES_SKIPPED,
          }),
        )
      : []),
  ];
  const c = buildCertificate({
    run: { outcomes, errors: [] },
    subject: { deployment: shape === 'partial' ? 'production-1' : 'sandbox', baseUrl: 'http://127.0.0.1:1/apis/v0' },
    facts: { seed: 7, runId: `flis-layout-${shape}`, suites: 'all', allowWrites: shape !== 'partial' },
  });
  if (shape === 'not-certified') {
    setCell(c, 'listOffers', 'offer-listing', 'blocked', 'blocked-by response-schema on listOffers: /0/quantity');
    setCell(c, 'listBillingGroups', 'billing-filters', 'inconclusive', 'another writer changed billing group bg-1');
  }
  if (shape === 'partial' && String(c.verdict.status) !== 'partial') {
    // The verdict helper's model: nothing failed, but the contract was not all exercised.
    c.verdict = {
      status: 'partial',
      reasons: [`no check failed; ${c.coverage.covered} of ${c.coverage.total} operations exercised`],
      scope: 'partial',
      coverage: c.coverage.covered / c.coverage.total,
      advisories: 0,
      skipReasons: [WRITES_SKIPPED],
    } as unknown as Certificate['verdict'];
  }
  return c;
}
