/**
 * All suites but webhooks (contract, offers, lifecycle, billing, invoices,
 * bad-input) in ONE Playwright run per mock, so a fault's reach into every
 * suite is seen: each contract fault fails exactly the checks of its FAULT_OWNERS entry, while
 * the flows that meet the broken response report themselves blocked by the
 * owner instead of failing under their own name.
 *
 * Faults share a run where neither hides the other (different operations, or
 * different tests of one check); each fault's own evidence is asserted. The
 * clean mock and the conformant variants, on the same suites, are
 * conformant-seeds.test.ts's.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { FaultName } from '../../mock/faults.ts';
import type { MockVariant } from '../../mock/variant.ts';
import type { SuiteRunResult } from '../../runner/run-suites.ts';
import { assertExactFailures } from './fault-owners.ts';
import { blockedChecks, runOnMock } from './run-on-mock.ts';

const TOKEN = `contract-faults-${randomBytes(12).toString('hex')}`;
const SEED = 20240611;
const ALL = ['contract', 'records', 'offers', 'lifecycle', 'billing', 'invoices', 'model', 'bad-input'];
const reportRoot = mkdtempSync(join(tmpdir(), 'flis-contract-faults-'));
after(() => rmSync(reportRoot, { recursive: true, force: true }));

interface MockSetup {
  faults?: FaultName[];
  variant?: MockVariant;
  writeDelayMs?: number;
  visibilityTimeoutMs?: number;
}

function runAll(label: string, setup: MockSetup): Promise<SuiteRunResult> {
  return runOnMock({
    token: TOKEN,
    suites: ALL,
    reportDir: join(reportRoot, label),
    runId: `flis-faulttest-${label}`,
    seed: SEED,
    // Two examples per property: every fault here is seen on the first; the seed makes each run the same.
    runs: 2,
    // Long enough for a loaded machine when writes show at once; the delayed variant gets more.
    visibilityTimeoutMs: setup.visibilityTimeoutMs ?? 1_500,
    ...setup,
  });
}

/** Every skip of a shape-fault run is a flow blocked by response-schema, never a failure under its own name. */
function assertBlockedByResponseSchema(r: SuiteRunResult, mustBlock: Record<string, RegExp>): void {
  const blocked = blockedChecks(r);
  const otherSkips = r.outcomes.filter((o) => o.status === 'skipped' && !o.skipReason?.startsWith('blocked by '));
  assert.deepEqual(
    otherSkips.map((o) => `${o.title}: ${o.skipReason}`),
    [],
    'skipped for another reason than blocked',
  );
  for (const [check, reasons] of blocked)
    for (const reason of reasons) assert.match(reason, /^blocked by response-schema on \w+: /, `${check}: ${reason}`);
  for (const [check, pattern] of Object.entries(mustBlock))
    assert.ok(
      (blocked.get(check) ?? []).some((reason) => pattern.test(reason)),
      `${check} is not blocked as ${pattern}; blocked: ${JSON.stringify([...blocked])}`,
    );
}

const SHAPE_RUNS: { faults: FaultName[]; mustBlock: Record<string, RegExp> }[] = [
  {
    // Offers, billing groups and invoices: three resources, so no fault hides another.
    faults: ['offer-quantity-as-string', 'billing-group-missing-status', 'invoice-bad-created-timestamp'],
    mustBlock: {
      // The example: quantity read back as "0" must not fail offer-cancel with `wrote 0, read "0"`.
      'offer-cancel': /on getOffer: GET \/offers\/\S+: \/0\/quantity must be number/,
      'offer-lifecycle': /on getOffer/,
      'billing-filters': /on listBillingGroups/,
      'invoice-since': /on listInvoices/,
    },
  },
  {
    // One breaks every offer read, the other the PUT acknowledgement: different response-schema tests.
    faults: ['offer-unknown-price-strategy', 'ack-missing-batch-id'],
    mustBlock: { 'unknown-price-strategy': /on getOffer: .*priceStrategy/ },
  },
];

// Different checks, or different tests of auth-required (no token / wrong token): none hides another.
const SERVED_RUN: FaultName[] = [
  'auth-missing-token-accepted',
  'auth-wrong-token-accepted',
  'route-missing',
  'deprecated-removed',
  'text-content-type',
];

test('all suites against the embedded mock: one run per mock', { concurrency: 2 }, async (t) => {
  const runs = [
    t.test(`${SERVED_RUN.join(' + ')}: each fails its owner only`, async () =>
      assertExactFailures(await runAll('served', { faults: SERVED_RUN }), SERVED_RUN, TOKEN),
    ),
    ...SHAPE_RUNS.map(({ faults, mustBlock }) =>
      t.test(`${faults.join(' + ')}: only response-schema fails; the flows are blocked by it`, async () => {
        const r = await runAll(faults.join('+'), { faults });
        assertExactFailures(r, faults, TOKEN);
        assertBlockedByResponseSchema(r, mustBlock);
      }),
    ),
  ];
  await Promise.all(runs);
});
