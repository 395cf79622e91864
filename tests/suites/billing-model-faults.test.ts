/**
 * Issue 31, billing groups and invoices: the model holds both paths of a forced status, every view both ways,
 * combined parameters and the edges of identity. Each fault is one small bug a server built by someone else could
 * have, and fails exactly its owner (tests/suites/fault-owners.ts) on three seeds:
 * - sequences across operations: a bulk removal that undoes only what a bulk call forced (billing-bulk-status), a PUT
 *   that does not replace what a bulk call forced (billing-forced-status);
 * - effects on records a write does not name: a bulk call whose items all do what the first does
 *   (billing-bulk-status), status writes that find a group by an id in any case (billing-forced-status);
 * - both directions of a view: a whole list without the groups whose status is forced, or without any group unless a
 *   filter is given (view-consistency; the checks that need the list are blocked by it, never skipped), details with
 *   the default `inactive` (billing-details), an invoice whose single view leaves out its inactive groups
 *   (view-consistency), an unpaged invoice list without its drafts (invoice-since-complete);
 * - combined parameters: customerId overriding the other filters (billing-filters), updatedSince applied to a page
 *   after it was cut (invoice-paging), createdSince dropped beside updatedSince (invoice-since), limit dropped beside
 *   updatedSince (invoice-limit);
 * - identity at the edges: pages cut by a cursor on `created` that skip an invoice sharing it (invoice-paging), GETs
 *   that find a billing group or an invoice by an id in any case (record-identity).
 * Faults that cannot hide each other share a run, over the suites that read or write their records. The conformant
 * preset `paged-lists` (the freedoms these checks leave open, taken the other way) passes the same suites.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { variantPresets } from '../../mock/variant.ts';
import { CATALOGUE } from '../../suites/lib/catalogue.ts';
import { assertSpecLocations, testFaultRuns, type FaultRun } from './fault-owners.ts';
import { contractFailures, describeFailures, runOnMock } from './run-on-mock.ts';

const TOKEN = `billing-model-faults-${randomBytes(12).toString('hex')}`;
const SEEDS = [101, 202, 303];
const reportRoot = mkdtempSync(join(tmpdir(), 'flis-billing-model-faults-'));
after(() => rmSync(reportRoot, { recursive: true, force: true }));

const BLOCKED_BY_VIEWS = /^blocked by view-consistency on /;

const RUNS: FaultRun[] = [
  // Each on a check or a test of its own, or on its own operation of record-identity.
  {
    suites: ['contract', 'billing', 'invoices'],
    faults: [
      'bulk-removal-only-bulk-forced',
      'put-over-bulk-ignored',
      'invoice-groups-drop-inactive',
      'details-inactive-default',
      'billing-customer-overrides-filters',
      'billing-group-id-any-case',
      'invoice-id-any-case',
      'page-boundary-skips-ties',
      'created-since-dropped-with-updated',
      'limit-ignored-with-updated-since',
      'unpaged-invoices-drop-drafts',
    ],
  },
  // Beside the first run's: the sequences stop at their first divergence, and paging at its first gap.
  {
    suites: ['billing', 'invoices'],
    faults: ['bulk-first-item-decides', 'status-write-any-case', 'invoice-filter-after-paging'],
  },
  // A whole list that leaves groups out: the forced-status checks settle worlds holding that list and are blocked.
  {
    suites: ['billing'],
    faults: ['list-leaves-out-forced'],
    mustBlock: { 'billing-forced-status': BLOCKED_BY_VIEWS, 'billing-bulk-status': BLOCKED_BY_VIEWS },
  },
  {
    suites: ['billing'],
    faults: ['billing-list-needs-filter'],
    mustBlock: {
      'billing-details': BLOCKED_BY_VIEWS,
      'billing-filters': BLOCKED_BY_VIEWS,
      'billing-filters-complete': BLOCKED_BY_VIEWS,
      'billing-forced-status': BLOCKED_BY_VIEWS,
      'billing-bulk-status': BLOCKED_BY_VIEWS,
    },
  },
];

describe('billing and invoice model faults, each failing its owner alone, on three seeds', { concurrency: 2 }, () => {
  testFaultRuns(RUNS, SEEDS, { token: TOKEN, reportRoot, runIdPrefix: 'flis-billing-model' });
});

/** The suites whose lists and views the preset lays out otherwise (the others never read a billing group or an invoice). */
const LAID_OUT = ['contract', 'billing', 'invoices'];

describe('the conformant preset paged-lists passes what reads billing groups and invoices, on three seeds', () => {
  for (const seed of SEEDS)
    test(`paged-lists, seed ${seed}`, async () => {
      const r = await runOnMock({
        token: TOKEN,
        suites: LAID_OUT,
        variant: variantPresets['paged-lists'],
        reportDir: join(reportRoot, `paged-lists-${seed}`),
        runId: `flis-paged-lists-${seed}`,
        seed,
        runs: 3,
        visibilityTimeoutMs: 1_500,
      });
      assert.deepEqual(contractFailures(r), [], describeFailures(r));
      assert.deepEqual(
        r.outcomes.filter((o) => o.status === 'skipped').map((o) => `${o.title}: ${o.skipReason ?? ''}`),
        [],
        'skipped tests',
      );
      const passed = new Set(r.outcomes.filter((o) => o.status === 'passed').map((o) => o.check));
      const expected = CATALOGUE.filter((c) => LAID_OUT.includes(c.suite) && c.severity === 'contract');
      assert.deepEqual(
        expected.map((c) => c.id).filter((c) => !passed.has(c)),
        [],
        'checks with no passing test',
      );
      assertSpecLocations(r);
    });
});
