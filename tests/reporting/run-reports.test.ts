/**
 * One real run of the contract and webhooks suites against a mock deployment
 * with a known token, through `flis run` with both gates, then `flis report`: every report
 * of issue 5 is written, the gates answer their exit codes, Allure results
 * carry resource/operation/check labels, and the token is in no file.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { reportCommand } from '../../cli/commands/report.ts';
import { runCommand as flisRun } from '../../cli/commands/run.ts';
import { startMock, type RunningMock } from '../../mock/server.ts';
import type { Certificate } from '../../reporting/certificate-types.ts';
import { secretForms } from '../../core/redact.ts';
import { filesContaining, runCommand, type CommandResult } from './helpers.ts';

const TOKEN = 'run-reports-token-Qm7v2Lk9';
const dir = mkdtempSync(join(tmpdir(), 'flis-run-reports-'));
let mock: RunningMock;
let run: CommandResult;

before(async () => {
  mock = await startMock({ token: TOKEN });
  const env = { ...process.env, FLIS_MOCK_BASE_URL: mock.baseUrl, FLIS_MOCK_TOKEN: TOKEN };
  run = await runCommand(
    flisRun,
    [
      '--deployment',
      'mock',
      '--suite',
      'contract,webhooks',
      '--seed',
      '5',
      '--report-dir',
      dir,
      '--progress',
      'none',
      '--min-coverage',
      '100',
      '--fail-on',
      'drift',
    ],
    env,
  );
});
after(async () => {
  await mock?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('flis run writes every report', () => {
  it('passes the checks and both gates on the clean mock: its status values are observations, not drift', () => {
    assert.match(run.out, /gate min-coverage: passed/);
    assert.match(run.out, /gate drift: passed/);
    assert.equal(run.code, 0, run.out);
  });

  it('writes the certificate: partial (two suites of all), 100% coverage, provenance, no token', () => {
    const c = JSON.parse(readFileSync(join(dir, 'certificate.json'), 'utf8')) as Certificate;
    assert.equal(c.verdict.status, 'partial');
    assert.match(c.verdict.reasons.join(), /only the suites contract, webhooks/);
    assert.equal(c.coverage.percent, 100);
    assert.equal(c.subject.deployment, 'mock');
    assert.equal(c.subject.baseUrl, mock.baseUrl);
    assert.equal(c.run.seed, 5);
    assert.ok(existsSync(join(dir, 'certificate.html')));
  });

  it('runs the webhook checks against the clean mock: spec 6 rules enforced and passed', () => {
    const c = JSON.parse(readFileSync(join(dir, 'certificate.json'), 'utf8')) as Certificate;
    for (const id of ['spec 6', 'spec 6 rule 1', 'spec 6 rule 2', 'spec 6 rule 3'])
      assert.equal(c.clauses.find((x) => x.id === id)?.status, 'passed', id);
    assert.equal(c.counts.failed, 0);
  });

  it('writes JUnit, the Playwright HTML report, the drift report and Allure results', () => {
    for (const f of ['junit.xml', 'html/index.html', 'results.json', 'run.json', 'drift.md', 'drift.json'])
      assert.ok(existsSync(join(dir, f)), f);
  });

  it('labels Allure results by resource group, operation and check', () => {
    const files = readdirSync(join(dir, 'allure-results')).filter((f) => f.endsWith('-result.json'));
    const c = JSON.parse(readFileSync(join(dir, 'certificate.json'), 'utf8')) as Certificate;
    assert.equal(files.length, c.counts.total, 'one Allure result per test');
    const labels = files.flatMap(
      (f) =>
        (
          JSON.parse(readFileSync(join(dir, 'allure-results', f), 'utf8')) as {
            labels: { name: string; value: string }[];
          }
        ).labels,
    );
    const values = (name: string) => new Set(labels.filter((l) => l.name === name).map((l) => l.value));
    assert.ok(values('epic').has('Offers') && values('epic').has('Bookings'));
    assert.ok(values('feature').has('getOffer (GET /offers/{offerId})'));
    assert.ok(values('story').has('auth-required') && values('story').has('response-schema'));
  });

  it('flis report builds the self-contained Allure HTML from them', async () => {
    const r = await runCommand(reportCommand, ['--report-dir', dir]);
    assert.equal(r.code, 0, r.err);
    assert.ok(existsSync(join(dir, 'allure-report', 'index.html')));
  });

  it('leaves the token in no file, in no form', () => {
    for (const form of secretForms(TOKEN))
      assert.deepEqual(filesContaining(dir, form), [], `token form ${form.slice(0, 4)}…`);
  });
});
