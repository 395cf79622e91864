/**
 * One vocabulary for a verdict (docs/verdicts.md#the-words-of-a-verdict): the
 * certificate's banner, the summary line, the last line and the README say the
 * same word for the same verdict, and the same scope, as the verdict model
 * decides them. A failure reads as its first violation, and the terminal says
 * what did not run once per owning check and cause.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runSummaryLines } from '../../cli/execute-run.ts';
import { verdictLine } from '../../cli/finish-run.ts';
import type { Certificate, VerdictStatus } from '../../reporting/certificate-types.ts';
import { renderCertificateHtml, whatFailed } from '../../reporting/certificate-html.ts';
import { VERDICT_WORDS, scopePhrase, verdictWord } from '../../reporting/verdict-words.ts';
import { certificateSummary } from '../../reporting/write-certificate.ts';
import { ROOT } from '../runner/helpers.ts';
import { wideCertificate } from './certificate-fixtures.ts';
import { outcome } from './fixtures.ts';

function certificates(): [VerdictStatus, Certificate][] {
  const advisory = wideCertificate('certified');
  advisory.verdict = { ...advisory.verdict, status: 'certified-with-advisories', advisories: 1 };
  return [
    ['certified', wideCertificate('certified')],
    ['certified-with-advisories', advisory],
    ['partial', wideCertificate('partial')],
    ['not-certified', wideCertificate('not-certified')],
  ];
}

function badge(html: string): string {
  return /<div class="badge">[^ ]+ ([^<]+)<\/div>/.exec(html)?.[1] ?? '(no badge)';
}

test('the banner, the summary line and the last line say the same word and the same scope', () => {
  for (const [status, c] of certificates()) {
    assert.equal(c.verdict.status, status);
    const word = verdictWord(status);
    const scope = scopePhrase(c);
    const html = renderCertificateHtml(c);
    assert.equal(badge(html), word, `${status}: the banner's badge is the word alone`);
    assert.ok(html.includes(`(scope: ${scope.replaceAll('—', '—')})`), `${status}: the banner says the scope`);
    assert.ok(verdictLine('run', c, 0, false).startsWith(`flis run: ${word} (scope: ${scope}`), status);
    assert.ok(certificateSummary(c, 'reports').startsWith(`certificate: ${word} (`), status);
    assert.ok(certificateSummary(c, 'reports').includes(`; scope: ${scope}; `), status);
  }
});

test('the scope follows the verdict model: the whole contract, or partial with why', () => {
  const [, full] = certificates()[0]!;
  assert.equal(full.verdict.scope, 'full');
  assert.equal(scopePhrase(full), 'the whole contract');
  const partial = wideCertificate('partial');
  assert.match(scopePhrase(partial), /^partial — [\d.]+% of the operations exercised, \d+ tests skipped$/);
});

test('the README and docs/verdicts.md name each verdict by the same word, and nothing spells it otherwise', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const verdicts = readFileSync(join(ROOT, 'docs/verdicts.md'), 'utf8');
  for (const status of ['certified', 'certified-with-advisories', 'partial', 'not-certified'] as const) {
    const word = VERDICT_WORDS[status];
    assert.ok(readme.includes(`| ${word} (\`${status}\`)`), `README's table: ${word} (\`${status}\`)`);
    assert.match(verdicts, new RegExp(`^\\| ${word} +\\| \`${status}\` +\\|`, 'm'), `verdicts.md: ${word}`);
  }
  for (const file of ['README.md', 'docs/certification.md', 'docs/configuration.md'])
    assert.doesNotMatch(
      readFileSync(join(ROOT, file), 'utf8'),
      /NOT-CERTIFIED|partial scope:|of the contract exercised/,
      file,
    );
});

test("the 'What failed' row is the first violation with its pointer, not a heading cut at its colon", () => {
  assert.equal(
    whatFailed({
      message:
        'response does not match offer-list.schema.json (1 violation(s)):\n    /0/quantity: must be number (schema offer.schema.json#/properties/quantity/type)',
      pointer: '/0/quantity',
    }),
    '/0/quantity: must be number (schema offer.schema.json#/properties/quantity/type)',
  );
  assert.equal(
    whatFailed({ message: 'canceled stayed false', pointer: '/canceled' }),
    '/canceled: canceled stayed false',
  );
  assert.equal(whatFailed({ message: 'answered 500' }), 'answered 500');
});

test('the run summary says what did not run once per owning check and cause, as the certificate does', () => {
  const blocked = Array.from({ length: 9 }, (_, i) =>
    outcome({
      id: `b${i}`,
      status: 'skipped',
      skipKind: 'blocked',
      check: 'offer-upsert',
      skipReason: `blocked by response-schema on getOffer: GET /offers/flis-run-${i}: /${i}/priceStrategy must be equal to one of the allowed values`,
    }),
  );
  const lines = runSummaryLines(
    { failures: [], outcomes: blocked, seed: 1, runId: 'r', reportDir: 'reports' },
    'embedded',
  ).filter((l) => /blocked/.test(l));
  assert.equal(lines.length, 1, lines.join('\n'));
  assert.match(lines[0] ?? '', /^9 tests blocked by response-schema/);
});
