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

  it('an advisory failure (severity annotation or record) is reported, never blocking', () => {
    const outcomes = [
      outcome({
        id: 'x',
        status: 'failed',
        check: 'allow-header',
        clause: 'HTTP semantics',
        operation: 'listOffers',
        severity: 'advisory',
        record: failureRecord({ check: 'allow-header', clause: 'HTTP semantics', operationId: 'listOffers' }),
      }),
    ];
    const c = buildCertificate({ run: { outcomes, errors: [] }, subject, facts });
    assert.equal(c.failures[0]?.blocking, false);
    assert.equal(c.failures[0]?.severity, 'advisory');
    assert.equal(c.verdict.advisories, 1);
    // One test over one operation is not the whole contract: the verdict says partial, with the advisory.
    assert.equal(c.verdict.status, 'partial');
    assert.match(c.verdict.reasons.join(), /1 advisory failure/);
  });

  it('a 5xx (HTTP semantics) without an advisory severity is a contract failure', () => {
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
    assert.equal(c.verdict.status, 'not-certified');
    assert.equal(c.failures[0]?.blocking, true);
  });

  it('all passed is certified; errors outside tests or nothing run is not', () => {
    assert.equal(verdictOf([], [], 3).status, 'certified');
    assert.equal(verdictOf([], ['suite did not load'], 3).status, 'not-certified');
    assert.equal(verdictOf([], [], 0).status, 'not-certified');
  });
});

describe('the scope of a verdict', () => {
  const whole = { covered: 125, total: 125, percent: 100 };
  const advisory = {
    ...buildCertificate({
      run: {
        outcomes: [
          outcome({
            id: 'a',
            status: 'failed',
            operation: 'listOffers',
            severity: 'advisory',
            record: failureRecord(),
          }),
        ],
        errors: [],
      },
      subject,
      facts,
    }).failures[0]!,
  };

  it('is certified only when every operation was exercised and nothing was skipped', () => {
    const v = verdictOf([], [], 300, { coverage: whole, skipped: [] });
    assert.deepEqual([v.status, v.scope, v.coverage, v.advisories], ['certified', 'full', 1, 0]);
    assert.equal(verdictOf([advisory], [], 300, { coverage: whole, skipped: [] }).status, 'certified-with-advisories');
  });

  it('is not narrowed by what the spec gives no means to exercise (a webhook subscription), but says so', () => {
    const notShown = { kind: 'not-shown' as const, reason: 'not shown: no way to subscribe', tests: 5 };
    const v = verdictOf([], [], 300, { coverage: whole, skipped: [notShown] });
    assert.deepEqual([v.status, v.scope], ['certified', 'full']);
    assert.ok(v.reasons.some((r) => /not exercisable through the interface.*no way to subscribe \(5\)/.test(r)));
    const plain = { kind: 'skipped' as const, reason: 'writes are not allowed', tests: 1 };
    assert.equal(verdictOf([], [], 300, { coverage: whole, skipped: [notShown, plain] }).status, 'partial');
  });

  it('is partial, with the coverage and the skip reasons, when operations were not exercised or checks skipped', () => {
    const low = verdictOf([], [], 3, { coverage: { covered: 2, total: 125, percent: 1.6 }, skipped: [] });
    assert.deepEqual([low.status, low.scope, low.coverage], ['partial', 'partial', 2 / 125]);
    assert.match(low.reasons[0]!, /1\.6% \(2\/125 operations\)/);
    const skipped = [{ kind: 'skipped' as const, reason: 'writes are not allowed (pass --allow-writes)', tests: 40 }];
    const readOnly = verdictOf([advisory], [], 300, { coverage: whole, skipped });
    assert.equal(readOnly.status, 'partial');
    assert.deepEqual(readOnly.skipped, skipped);
    assert.match(readOnly.reasons.join(), /writes are not allowed.*\(40\)/);
    assert.equal(readOnly.advisories, 1);
  });

  it('is partial for one shard, whatever the shard covered', () => {
    const v = verdictOf([], [], 300, { coverage: whole, skipped: [], shard: '2/4' });
    assert.equal(v.status, 'partial');
    assert.match(v.reasons[0]!, /shard 2\/4/);
  });

  it('shows blocked and inconclusive skips apart from plain skips, in the counts, the matrix and the HTML', () => {
    const outcomes = [
      outcome({
        id: 'b',
        status: 'skipped',
        check: 'offer-cancel',
        operation: 'deleteOffer',
        skipKind: 'blocked',
        skipReason: 'blocked by response-schema on getOffer: /0/quantity must be number',
      }),
      outcome({
        id: 'i',
        status: 'skipped',
        check: 'billing-forced-status',
        operation: 'forceBillingGroupStatus',
        skipKind: 'inconclusive',
        skipReason: 'inconclusive: another writer forced the status',
      }),
      outcome({ id: 's', status: 'skipped', operation: 'createOffer', skipKind: 'skipped', skipReason: 'read-only' }),
      outcome({ id: 'p', status: 'passed', operation: 'listOffers' }),
    ];
    const c = buildCertificate({ run: { outcomes, errors: [] }, subject, facts });
    assert.deepEqual([c.counts.skipped, c.counts.blocked, c.counts.inconclusive], [3, 1, 1]);
    assert.equal(c.verdict.status, 'partial');
    assert.deepEqual(c.verdict.skipped.map((x) => x.kind).sort(), ['blocked', 'inconclusive', 'skipped']);
    const row = (id: string) => c.matrix.rows.find((r) => r.operationId === id)!;
    assert.equal(row('deleteOffer').cells['offer-cancel']?.status, 'blocked');
    assert.equal(row('forceBillingGroupStatus').cells['billing-forced-status']?.status, 'inconclusive');
    const html = renderCertificateHtml(c);
    assert.match(html, /class="c blocked"/);
    assert.match(html, /class="c inconclusive"/);
    assert.match(html, /PARTIAL<\/div>/);
    assert.match(html, /scope: partial — 0\.8% of the operations exercised/);
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
