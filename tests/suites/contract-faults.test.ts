/**
 * The contract suite proves it catches faults: it runs against the embedded
 * mock with one contract fault switched on at a time and must fail with the
 * check that owns that fault, and it must pass the clean mock and a conformant
 * mock that makes different choices where the spec is silent.
 *
 * Each run is a real `playwright test --project contract` through the runner;
 * two run at a time (the machines have two cores).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { FaultName } from '../../mock/faults.ts';
import { variantPresets, type MockVariant } from '../../mock/variant.ts';
import type { SuiteRunResult } from '../../runner/run-suites.ts';
import { runOnMock } from './run-on-mock.ts';

const TOKEN = `contract-faults-${randomBytes(12).toString('hex')}`;
const reportRoot = mkdtempSync(join(tmpdir(), 'flis-contract-faults-'));
after(() => rmSync(reportRoot, { recursive: true, force: true }));

interface MockSetup {
  faults?: FaultName[];
  variant?: MockVariant;
  writeDelayMs?: number;
}

function runContract(label: string, setup: MockSetup): Promise<SuiteRunResult> {
  // The visibility deadline is long enough for writeDelayMs 300 on a busy machine, short enough that a miss does not stall the file.
  return runOnMock({
    token: TOKEN,
    suites: ['contract'],
    reportDir: join(reportRoot, label),
    runId: `flis-faulttest-${label}`,
    visibilityTimeoutMs: 5_000,
    ...setup,
  });
}

function describeFailures(r: SuiteRunResult): string {
  return r.failures.map((f) => `  ${f.check ?? '?'} · ${f.title}`).join('\n') || '  (none)';
}

/** Which check must catch each contract fault, and whether its failure must locate a bad value by JSON pointer. */
const expectations: { fault: FaultName; check: string; pointer?: true }[] = [
  { fault: 'offer-quantity-as-string', check: 'response-schema', pointer: true },
  { fault: 'offer-unknown-price-strategy', check: 'response-schema', pointer: true },
  { fault: 'billing-group-missing-status', check: 'response-schema', pointer: true },
  { fault: 'invoice-bad-created-timestamp', check: 'response-schema', pointer: true },
  { fault: 'ack-missing-batch-id', check: 'response-schema', pointer: true },
  { fault: 'auth-missing-token-accepted', check: 'auth-required' },
  { fault: 'auth-wrong-token-accepted', check: 'auth-required' },
  { fault: 'route-missing', check: 'operation-served' },
  { fault: 'deprecated-removed', check: 'deprecated-served' },
  { fault: 'bad-input-500', check: 'no-5xx' },
  { fault: 'text-content-type', check: 'json-content-type' },
];

const CHECKS = [
  'auth-required',
  'response-schema',
  'json-content-type',
  'no-5xx',
  'operation-served',
  'deprecated-served',
];

function assertCaught(r: SuiteRunResult, e: (typeof expectations)[number]): void {
  assert.equal(r.exitCode, 1, `the suite passed with fault ${e.fault} on`);
  const caught = r.failures.filter((f) => f.check === e.check);
  assert.ok(
    caught.length > 0,
    `fault ${e.fault}: no failed test is annotated '${e.check}'; failures:\n${describeFailures(r)}`,
  );
  // A fault is one violation: a check that fails besides the owner blames the server for something it did right.
  const others = r.failures.filter((f) => f.check !== e.check);
  assert.deepEqual(
    others.map((f) => f.title),
    [],
    `fault ${e.fault} also failed other checks:\n${describeFailures(r)}`,
  );
  for (const f of caught) {
    assert.ok(f.record, `${f.title}: no flis-failure record attached`);
    assert.equal(f.record.check, e.check, `${f.title}: the record names check '${f.record.check}'`);
    assert.ok(f.record.curl.length > 0, `${f.title}: the record has no curl command`);
    for (const c of f.record.curl) assert.ok(!c.includes(TOKEN), `${f.title}: the curl command carries the token`);
    assert.ok(!JSON.stringify(f.record).includes(TOKEN), `${f.title}: the failure record carries the token`);
    if (e.pointer) {
      assert.equal(
        typeof f.record.pointer,
        'string',
        `${f.title}: a schema failure must locate the bad value by JSON pointer`,
      );
      assert.ok(f.record.schemaPath, `${f.title}: a schema failure must name the schema path`);
    }
  }
}

function assertPassed(r: SuiteRunResult, what: string): void {
  assert.equal(r.exitCode, 0, `${what}: the suite failed:\n${describeFailures(r)}`);
  assert.equal(r.failed, 0);
  // A pass must come from the checks running, not from a suite that ran nothing.
  const ran = new Set(r.outcomes.filter((o) => o.status === 'passed').map((o) => o.check));
  assert.deepEqual(
    CHECKS.filter((c) => !ran.has(c)),
    [],
    `${what}: checks with no passing test`,
  );
  // Writes are allowed and the mock has data, so nothing may have been skipped as "nothing to judge".
  const skipped = r.outcomes.filter((o) => o.status === 'skipped').map((o) => `${o.title}: ${o.skipReason ?? ''}`);
  assert.deepEqual(skipped, [], `${what}: tests were skipped`);
}

test('contract suite against the embedded mock', { concurrency: 2 }, async (t) => {
  // Longest first (every failed Playwright test restarts a worker; deprecated-removed fails 8), so the two lanes end together.
  const ordered = [...expectations].sort(
    (a, b) => Number(b.fault === 'deprecated-removed') - Number(a.fault === 'deprecated-removed'),
  );
  const runs = [
    t.test('passes the clean mock', async () => assertPassed(await runContract('clean', {}), 'clean mock')),
    t.test(
      'passes a conformant mock that chooses differently (201/202, uuid ids, extra fields, 300 ms write delay)',
      async () =>
        assertPassed(
          await runContract('different', { variant: variantPresets.different, writeDelayMs: 300 }),
          'different variant',
        ),
    ),
    ...ordered.map((e) =>
      t.test(`catches ${e.fault} with ${e.check}`, async () =>
        assertCaught(await runContract(e.fault, { faults: [e.fault] }), e),
      ),
    ),
  ];
  await Promise.all(runs);
});
