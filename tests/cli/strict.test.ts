/**
 * Severity on the exit code (issue 8 item 1): an advisory failure is printed and reported, and exits 0
 * unless --strict (or FLIS_STRICT=1); a contract failure always exits 1. The closing line states the verdict,
 * its scope and the exit code.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reproduceCommand } from '../../cli/commands/run.ts';
import { checkExitOf, verdictLine } from '../../cli/finish-run.ts';
import { strictOf } from '../../cli/gate-options.ts';
import { buildCertificate } from '../../reporting/certificate.ts';
import type { CheckOutcome } from '../../reporting/outcomes.ts';
import { operations } from '../../specs/contract.ts';
import { failureRecord, outcome } from '../reporting/fixtures.ts';

const subject = { deployment: 'embedded', baseUrl: 'http://127.0.0.1:1/apis/v0' };
const facts = { seed: 1, runId: 'r', suites: 'all', allowWrites: true } as const;

/** One passing test over every operation (the whole contract), plus the given outcomes. */
function certificateWith(extra: CheckOutcome[], shard?: string) {
  const all = outcome({ id: 'all', status: 'passed', exercised: operations().map((o) => o.operationId) });
  return buildCertificate({
    run: { outcomes: [all, ...extra], errors: [] },
    subject,
    facts: { ...facts, shard: shard || undefined },
  });
}

const advisory = outcome({
  id: 'adv',
  status: 'failed',
  check: 'allow-header',
  clause: 'HTTP semantics',
  operation: 'listOffers',
  severity: 'advisory',
  record: failureRecord({ check: 'allow-header', clause: 'HTTP semantics', operationId: 'listOffers' }),
});

describe('exit code from the verdict', () => {
  it('the whole contract passed: certified, exit 0', () => {
    const c = certificateWith([]);
    assert.equal(c.verdict.status, 'certified');
    assert.equal(checkExitOf(c, false), 0);
    assert.equal(verdictLine('run', c, 0, false), 'flis run: CERTIFIED (scope: the whole contract); exit 0');
  });

  it('an advisory failure exits 0, and 1 with --strict', () => {
    const c = certificateWith([advisory]);
    assert.equal(c.verdict.status, 'certified-with-advisories');
    assert.equal(checkExitOf(c, false), 0);
    assert.equal(checkExitOf(c, true), 1);
    assert.match(verdictLine('run', c, 0, false), /1 advisory failure\(s\) \(exit 1 only with --strict\)/);
  });

  it('a contract failure exits 1 with or without --strict', () => {
    const c = certificateWith([{ ...advisory, id: 'con', severity: 'contract' }]);
    assert.equal(c.verdict.status, 'not-certified');
    assert.equal(checkExitOf(c, false), 1);
  });

  it("a shard's closing line says partial", () => {
    const c = certificateWith([], '2/4');
    assert.equal(c.verdict.status, 'partial');
    assert.equal(checkExitOf(c, false), 0);
    assert.match(verdictLine('run', c, 0, false), /^flis run: PARTIAL \(scope: partial — .*shard 2\/4.*\); exit 0$/);
  });

  it('--strict or FLIS_STRICT=1', () => {
    assert.equal(strictOf({ strict: true }, {}), true);
    assert.equal(strictOf({}, { FLIS_STRICT: '1' }), true);
    assert.equal(strictOf({}, {}), false);
  });
});

describe('how to reproduce an embedded-mock run', () => {
  it('names the seed, the suites, the runs and every mock switch', () => {
    assert.equal(
      reproduceCommand({
        seed: 42,
        suites: ['offers'],
        runs: 5,
        embedded: { faults: ['billing-filter-ignored'], writeDelayMs: 200, drift: true },
        variantName: 'different',
      }),
      'npx flis run --seed 42 --suite offers --runs 5 --mock-fault billing-filter-ignored --mock-variant different --mock-write-delay 200 --mock-drift',
    );
    assert.equal(reproduceCommand({ seed: 7, embedded: {} }), 'npx flis run --seed 7');
  });
});
