/**
 * The behavioural flows prove they catch faults: each flow fault of the mock is
 * switched on alone, the suite that owns it runs against that mock through the
 * runner, and the run must fail with a test annotated with the check that owns
 * the fault; a property-based check must also report the shrunk counterexample,
 * the seed and the path. The flows must pass the clean mock, and a conformant
 * mock that chooses differently where the spec is silent (201/202, uuid ids,
 * extra fields) and shows writes only after 300 ms.
 *
 * Each case is a real `playwright test --project <suite>` run. Runs are small
 * (a fixed seed, few property runs, a short visibility deadline: the mock shows
 * writes at once) and three go at a time: most of a faulty run is spent waiting
 * out deadlines, not computing.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { FaultName } from '../../mock/faults.ts';
import { variantPresets, type MockVariant } from '../../mock/variant.ts';
import type { SuiteRunResult } from '../../runner/run-suites.ts';
import { runOnMock } from './run-on-mock.ts';

const TOKEN = `flow-faults-${randomBytes(12).toString('hex')}`;
const SEED = 20240611;
const FLOW_SUITES = ['offers', 'lifecycle', 'billing', 'invoices', 'bad-input'];
const reportRoot = mkdtempSync(join(tmpdir(), 'flis-flow-faults-'));
after(() => rmSync(reportRoot, { recursive: true, force: true }));

interface RunSetup {
  suites: string[];
  faults?: FaultName[];
  variant?: MockVariant;
  writeDelayMs?: number;
  runs: number;
  visibilityTimeoutMs: number;
}

function runFlows(label: string, setup: RunSetup): Promise<SuiteRunResult> {
  return runOnMock({
    token: TOKEN,
    reportDir: join(reportRoot, label),
    runId: `flis-flowfault-${label}`,
    seed: SEED,
    ...setup,
  });
}

function describeFailures(r: SuiteRunResult): string {
  return (
    r.failures
      .map((f) => `  ${f.check ?? '?'} · ${f.title}\n    ${(f.error ?? '').split('\n').slice(0, 3).join('\n    ')}`)
      .join('\n') || '  (none)'
  );
}

/** Which suite runs, and which check must catch each flow fault; `property`: the check is a fast-check property. */
const cases: { fault: FaultName; suite: string; check: string; property: boolean; runs?: number }[] = [
  { fault: 'cancel-flag-ignored', suite: 'offers', check: 'offer-cancel', property: true },
  { fault: 'delete-not-cancel', suite: 'offers', check: 'offer-cancel', property: true },
  { fault: 'update-not-applied', suite: 'offers', check: 'offer-upsert', property: true },
  { fault: 'bulk-item-dropped', suite: 'offers', check: 'offer-bulk', property: true },
  { fault: 'bulk-items-mixed', suite: 'offers', check: 'offer-bulk', property: true },
  { fault: 'batch-status-missing', suite: 'offers', check: 'batch-status', property: false },
  // A model-based run needs a few command sequences before one updates an offer it can see change.
  { fault: 'update-not-applied', suite: 'lifecycle', check: 'offer-lifecycle', property: true, runs: 12 },
  { fault: 'forced-status-not-removed', suite: 'billing', check: 'billing-forced-status', property: false },
  { fault: 'forced-status-ignored', suite: 'billing', check: 'billing-forced-status', property: false },
  { fault: 'delete-status-ignored', suite: 'billing', check: 'billing-bulk-status', property: true },
  { fault: 'billing-filter-ignored', suite: 'billing', check: 'billing-filters', property: true },
  { fault: 'page-repeats', suite: 'invoices', check: 'invoice-paging', property: true },
  { fault: 'limit-ignored', suite: 'invoices', check: 'invoice-limit', property: true },
  { fault: 'created-since-ignored', suite: 'invoices', check: 'invoice-since', property: true },
  { fault: 'snapshot-has-billing-groups', suite: 'invoices', check: 'invoice-forms', property: true },
  { fault: 'invalid-body-accepted', suite: 'bad-input', check: 'bad-input-rejected', property: true },
  { fault: 'bad-input-500', suite: 'bad-input', check: 'bad-input-rejected', property: true },
  // A contract fault, but the one way to see that an unknown priceStrategy never becomes the offer's.
  { fault: 'offer-unknown-price-strategy', suite: 'bad-input', check: 'unknown-price-strategy', property: false },
];

describe('flow faults', { concurrency: 3 }, () => {
  // The two longest runs first, so the fault runs fill the other slots around them.
  test('the clean mock passes every flow', async () => {
    const r = await runFlows('clean', { suites: FLOW_SUITES, runs: 4, visibilityTimeoutMs: 2_000 });
    assert.equal(r.exitCode, 0, `failures on the clean mock:\n${describeFailures(r)}`);
    assert.equal(r.skipped, 0, 'no flow is skipped when writes are allowed');
    assert.ok(r.passed >= 19, `only ${r.passed} flow tests ran`);
  });

  test('a conformant mock that chooses differently (201/202, uuid ids, extra fields, writes visible after 300 ms) passes every flow', async () => {
    const r = await runFlows('different', {
      suites: FLOW_SUITES,
      variant: variantPresets.different,
      writeDelayMs: 300,
      runs: 3,
      visibilityTimeoutMs: 5_000,
    });
    assert.equal(r.exitCode, 0, `failures on the 'different' mock:\n${describeFailures(r)}`);
    assert.equal(r.skipped, 0);
    assert.ok(r.passed >= 19, `only ${r.passed} flow tests ran`);
  });

  for (const c of cases) {
    test(`${c.fault}: the ${c.suite} suite fails with ${c.check}`, async () => {
      const r = await runFlows(`${c.fault}-${c.suite}`, {
        suites: [c.suite],
        faults: [c.fault],
        runs: c.runs ?? 4,
        visibilityTimeoutMs: 600,
      });
      assert.equal(r.exitCode, 1, `the ${c.suite} suite passed with ${c.fault} on`);
      const caught = r.failures.find((f) => f.check === c.check);
      assert.ok(caught, `no failed test is annotated ${c.check}; failures:\n${describeFailures(r)}`);
      assert.ok(!r.failures.some((f) => f.title === 'suite error'), `the run itself broke:\n${describeFailures(r)}`);
      const record = caught.record;
      assert.ok(record, `the ${c.check} failure carries no flis-failure record`);
      assert.equal(record.check, c.check);
      assert.ok(
        record.clause.length > 0 && (caught.clause ?? '').length > 0,
        'the failure and its test name the clause',
      );
      assert.ok(
        record.exchanges.length > 0 && record.curl.length === record.exchanges.length,
        'the failure shows its exchanges and a curl command for each',
      );
      assert.ok(!JSON.stringify(record).includes(TOKEN), 'the failure record never carries the token');
      if (!c.property) return;
      const p = record.property;
      assert.ok(p, `the ${c.check} failure has no property record (seed, path, counterexample)`);
      assert.equal(p.seed, SEED);
      assert.match(p.path, /^\d+(:\d+)*$/);
      assert.ok(p.numRuns >= 1);
      assert.ok(p.counterexample.length > 0 && p.counterexample !== 'null', 'a shrunk counterexample is reported');
    });
  }
});
