/** The certificate: matrix cells, clauses, verdict, provenance, redaction and the self-contained HTML. */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { buildCertificate, verdictOf } from '../../reporting/certificate.ts';
import { renderCertificateHtml } from '../../reporting/certificate-html.ts';
import { citedClauses, isSpecClause } from '../../reporting/clauses.ts';
import { publicBaseUrl } from '../../reporting/provenance.ts';
import { writeCertificate } from '../../reporting/write-certificate.ts';
import { OPENAPI_FILE, operations } from '../../specs/contract.ts';
import { SECRET, failureRecord, outcome, sampleOutcomes } from './fixtures.ts';

const facts = { seed: 42, runId: 'flis-test', suites: ['contract'], allowWrites: false } as const;
const subject = {
  deployment: 'sandbox',
  baseUrl: `https://user:${SECRET}@sandbox.example.invalid/apis/v0?key=${SECRET}`,
};
const dir = mkdtempSync(join(tmpdir(), 'flis-cert-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('clause citations', () => {
  it('splits lists, expands rule ranges and keeps non-spec clauses apart', () => {
    assert.deepEqual(citedClauses('spec 1, spec 2.3, spec 4.1'), ['spec 1', 'spec 2.3', 'spec 4.1']);
    assert.deepEqual(citedClauses('spec 3 rules 1-2'), ['spec 3 rule 1', 'spec 3 rule 2']);
    assert.deepEqual(citedClauses('HTTP semantics; spec 2.3'), ['HTTP semantics', 'spec 2.3']);
    assert.equal(isSpecClause('HTTP semantics'), false);
    assert.equal(isSpecClause('spec 6 rule 1'), true);
  });
});

describe('the matrix', () => {
  const c = buildCertificate({ run: { outcomes: sampleOutcomes(), errors: [] }, subject, facts });
  const row = (id: string) => c.matrix.rows.find((r) => r.operationId === id)!;

  it('has one row per operation of the contract (125)', () => {
    assert.equal(c.matrix.rows.length, operations().length);
    assert.equal(c.matrix.rows.length, 125);
  });

  it('marks a cell passed for every operation a passing test exercised', () => {
    for (const op of ['listOffers', 'getOffer', 'getBooking'])
      assert.equal(row(op).cells['auth-required']?.status, 'passed', op);
  });

  it('marks failed only the operation the failure blames, linking to the failure and its clause', () => {
    const cell = row('getOffer').cells['response-schema'];
    assert.equal(cell?.status, 'failed');
    assert.deepEqual(cell?.failures, [{ failure: 'failure-1', clause: 'spec 4.1, spec 2.2' }]);
    // listOffers was called by the failing test but not blamed: not shown to be right, not shown to be wrong.
    assert.equal(row('listOffers').cells['response-schema'], undefined);
  });

  it('marks a skipped cell with why', () => {
    assert.equal(row('createOffer').cells['response-schema']?.status, 'skipped');
    assert.match(row('createOffer').cells['response-schema']?.skipReasons?.[0] ?? '', /writes are not allowed/);
    assert.equal(row('createOffer').covered, false);
  });

  it('counts coverage as operations with a check that ran', () => {
    assert.deepEqual(c.coverage, { covered: 5, total: 125, percent: 4 });
  });

  it('lists clauses with the checks that enforce them, expanding rule ranges', () => {
    const clause = (id: string) => c.clauses.find((x) => x.id === id)!;
    assert.deepEqual(clause('spec 3 rule 2').checks, [
      { check: 'billing-forced-status', passed: 1, failed: 0, skipped: 0 },
    ]);
    assert.equal(clause('spec 2.2').status, 'failed');
    assert.equal(clause('spec 6 rule 1').status, 'not-tested');
    assert.equal(clause('spec 8').status, 'not-shown');
  });
});

describe('the verdict', () => {
  it('a failed check on a documented rule blocks certification', () => {
    const c = buildCertificate({ run: { outcomes: sampleOutcomes(), errors: [] }, subject, facts });
    assert.equal(c.verdict.status, 'not-certified');
    assert.match(c.verdict.reasons.join(), /spec 4\.1 \(1\)/);
  });

  it('a failure beyond the spec (HTTP semantics) is an advisory', () => {
    const outcomes = [
      outcome({
        id: 'x',
        status: 'failed',
        check: 'no-5xx',
        clause: 'HTTP semantics',
        operation: 'listOffers',
        record: failureRecord({ check: 'no-5xx', clause: 'HTTP semantics', operationId: 'listOffers' }),
      }),
    ];
    const c = buildCertificate({ run: { outcomes, errors: [] }, subject, facts });
    assert.equal(c.verdict.status, 'certified-with-advisories');
    assert.equal(c.failures[0]?.blocking, false);
  });

  it('all passed is certified; errors outside tests or nothing run is not', () => {
    assert.equal(verdictOf([], [], 3).status, 'certified');
    assert.equal(verdictOf([], ['suite did not load'], 3).status, 'not-certified');
    assert.equal(verdictOf([], [], 0).status, 'not-certified');
  });
});

describe('provenance and redaction', () => {
  it('states the spec version, the sha256 of specs/openapi.yaml and the tool', () => {
    const c = buildCertificate({ run: { outcomes: [], errors: [] }, subject, facts });
    assert.equal(c.spec.version, '1.0.0');
    assert.equal(c.spec.sha256, createHash('sha256').update(readFileSync(OPENAPI_FILE)).digest('hex'));
    assert.equal(c.tool.name, 'flis-conformance');
    assert.equal(c.run.seed, 42);
  });

  it('keeps scheme, host and path of the base URL only', () => {
    assert.equal(publicBaseUrl(subject.baseUrl), 'https://sandbox.example.invalid/apis/v0');
  });

  it('never writes the token to certificate.json or certificate.html', () => {
    const outcomes = [
      outcome({
        id: 'x',
        status: 'failed',
        operation: 'getOffer',
        blamed: ['getOffer'],
        record: failureRecord({ message: `server echoed ${SECRET}` }),
      }),
    ];
    writeCertificate(dir, { run: { outcomes, errors: [] }, subject, facts }, [SECRET]);
    for (const f of ['certificate.json', 'certificate.html']) {
      const text = readFileSync(join(dir, f), 'utf8');
      assert.ok(!text.includes(SECRET), `${f} carries the token`);
      assert.match(text, /\[REDACTED\]/);
    }
  });
});

describe('the HTML', () => {
  const html = renderCertificateHtml(
    buildCertificate({ run: { outcomes: sampleOutcomes(), errors: [] }, subject, facts }),
  );

  it('loads nothing: no script, no external reference, a CSP that forbids it', () => {
    assert.doesNotMatch(html, /<script/i);
    assert.doesNotMatch(html, /(src|href)=["']?(https?:)?\/\//i);
    assert.match(html, /Content-Security-Policy" content="default-src 'none'/);
  });

  it('escapes what servers sent', () => {
    assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
  });

  it('links a failed cell to its failure, which links back to the operation', () => {
    assert.match(html, /<a href="#failure-1" title="spec 4\.1, spec 2\.2">/);
    assert.match(html, /id="failure-1"/);
    assert.match(html, /href="#op-getOffer"/);
  });
});
