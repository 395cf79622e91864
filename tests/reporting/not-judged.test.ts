/**
 * Operations a check could not judge (auth-required's `not-judged` annotations: no request the valid token is
 * served) reach the certificate and the run summary: a count and one line per reason, never counted as passed or
 * refused. Built from Playwright's JSON report, as a run reads it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { countsLine } from '../../cli/finish-run.ts';
import { buildCertificate } from '../../reporting/certificate.ts';
import { renderCertificateHtml, verdictLines } from '../../reporting/certificate-html.ts';
import { readRunOutcomes } from '../../reporting/outcomes.ts';

const dir = mkdtempSync(join(tmpdir(), 'flis-not-judged-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const NO_BOOKING = 'no {bookingId} to use: no PUT of /carrierBookings/{bookingId} that answered 2xx';
const NOTHING_LISTED = 'GET /orders lists no record with an id';

const annotation = (type: string, description: string) => ({ type, description });

/** A passing auth-required test over four operations, three of them not judged for two reasons; a passing schema check. */
function resultsFile(): string {
  const test = (id: string, title: string, check: string, operation: string, runtime: object[]) => ({
    id,
    title,
    tests: [
      {
        projectName: 'contract',
        status: 'expected',
        annotations: [
          annotation('check', check),
          annotation('clause', 'spec 5 rule 2'),
          annotation('operation', operation),
        ],
        results: [{ status: 'passed', annotations: runtime }],
      },
    ],
  });
  const report = {
    suites: [
      {
        specs: [
          test('auth', 'auth-required · write-method operations', 'auth-required', 'upsertOffer', [
            annotation('not-judged', `putCarrierBookingAcceptance: ${NO_BOOKING}`),
            annotation('not-judged', `acknowledgeCarrierBooking: ${NO_BOOKING}`),
            annotation('not-judged', `getOrder: ${NOTHING_LISTED}`),
            annotation('note', '1 of 4 write-method operations judged; 3 not judged'),
          ]),
          test('schema', 'response-schema · getOrder', 'response-schema', 'getOrder', []),
        ],
      },
    ],
  };
  const file = join(dir, 'results.json');
  writeFileSync(file, JSON.stringify(report));
  return file;
}

describe('operations a check could not judge', () => {
  const run = readRunOutcomes(resultsFile());
  const c = buildCertificate({
    run,
    subject: { deployment: 'embedded', baseUrl: 'http://127.0.0.1:1/apis/v0' },
    facts: { seed: 1, runId: 'flis-test', suites: 'all', allowWrites: true },
  });
  const cell = (op: string, check: string) => c.matrix.rows.find((r) => r.operationId === op)?.cells[check];

  it('reads each annotation as an operation and its reason', () => {
    const auth = run.outcomes.find((o) => o.check === 'auth-required');
    assert.deepEqual(auth?.notJudged, [
      { operation: 'putCarrierBookingAcceptance', reason: NO_BOOKING },
      { operation: 'acknowledgeCarrierBooking', reason: NO_BOOKING },
      { operation: 'getOrder', reason: NOTHING_LISTED },
    ]);
  });

  it('certificate.json counts them and groups them by reason, the largest group first', () => {
    assert.equal(c.counts.notJudged, 3);
    assert.deepEqual(c.notJudged, [
      {
        check: 'auth-required',
        reason: NO_BOOKING,
        operations: ['putCarrierBookingAcceptance', 'acknowledgeCarrierBooking'],
      },
      { check: 'auth-required', reason: NOTHING_LISTED, operations: ['getOrder'] },
    ]);
    // The test itself passed, and is counted once; what it could not judge is not a refusal.
    assert.equal(c.counts.passed, 2);
    assert.equal(c.counts.failed, 0);
  });

  it('the matrix shows them not judged, never passed; the operation the test judged stays passed', () => {
    assert.equal(cell('putCarrierBookingAcceptance', 'auth-required')?.status, 'not-judged');
    assert.deepEqual(cell('putCarrierBookingAcceptance', 'auth-required')?.skipReasons, [`not judged: ${NO_BOOKING}`]);
    assert.equal(cell('getOrder', 'auth-required')?.status, 'not-judged');
    assert.equal(cell('upsertOffer', 'auth-required')?.status, 'passed');
    // Another check that passed on the operation still speaks for it.
    assert.equal(cell('getOrder', 'response-schema')?.status, 'passed');
  });

  it('the verdict says how many, and the banner gives one line per reason', () => {
    assert.ok(
      c.verdict.reasons.some((r) => /^3 operations not judged \(neither passed nor refused/.test(r)),
      c.verdict.reasons.join('\n'),
    );
    assert.ok(!c.verdict.reasons.some((r) => r.startsWith('every check of the whole contract')));
    const lines = verdictLines(c).filter((l) => l.includes('not judged by'));
    assert.deepEqual(lines, [
      `2 operations not judged by auth-required: ${NO_BOOKING} (putCarrierBookingAcceptance, acknowledgeCarrierBooking)`,
      `1 operation not judged by auth-required: ${NOTHING_LISTED} (getOrder)`,
    ]);
  });

  it('certificate.html has the count tile, a row per reason and the not-judged cells', () => {
    const html = renderCertificateHtml(c);
    assert.match(html, /<div class="tile t-not-judged hot"><b>3<\/b><span>operations not judged<\/span>/);
    assert.match(html, /<h2 id="not-judged">Not judged<\/h2>/);
    assert.match(html, /<tr><td>2<\/td><td>auth-required<\/td><td>no \{bookingId\} to use/);
    assert.match(html, /<tr><td>1<\/td><td>auth-required<\/td><td>GET \/orders lists no record/);
    assert.match(html, /class="c not-judged" title="auth-required: not judged/);
  });

  it('the run summary counts them', () => {
    assert.match(countsLine(c), /, 3 operation\(s\) not judged$/);
  });
});
