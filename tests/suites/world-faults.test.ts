/**
 * Issue 25 sections 1 and 2: the world model. An effect must not reach records it does not name (a DELETE of one
 * transport order cancelling its booking's other orders' events; a DELETE of one offer cancelling the other offers of
 * its booking; a DELETE of one booking event cancelling the booking's others), and one record shows the same in every view (an invoice snapshot carrying another invoice's billing
 * groups; a forced status shown by id but not in the list and its state filter). Each fault fails exactly its owner
 * (tests/suites/fault-owners.ts) on three seeds: the neighbours under the owner of the rule (event-cancel,
 * offer-cancel), the views under view-consistency. Faults that cannot hide each other share a run, over every suite
 * that reads or writes their records.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { FaultName } from '../../mock/faults.ts';
import { assertBlockedAs, assertExactFailures } from './fault-owners.ts';
import { runOnMock } from './run-on-mock.ts';

const TOKEN = `world-faults-${randomBytes(12).toString('hex')}`;
const SEEDS = [101, 202, 303];
const reportRoot = mkdtempSync(join(tmpdir(), 'flis-world-faults-'));
after(() => rmSync(reportRoot, { recursive: true, force: true }));

const RUNS: { suites: string[]; faults: FaultName[]; mustBlock?: Record<string, RegExp> }[] = [
  // Disjoint records, or one owner on different operations: three neighbour effects and an invoice's views.
  {
    suites: ['contract', 'offers', 'lifecycle', 'billing', 'invoices'],
    faults: [
      'transport-order-delete-cancels-neighbours',
      'offer-delete-cancels-booking',
      'snapshot-other-invoice-groups',
      'booking-event-delete-cancels-booking-events',
    ],
  },
  // Its own run: the forced-status test compares the invoices naming its group too, which the snapshot fault breaks.
  // The forced-status checks settle the same world after their writes: they meet the divergence and are blocked by it.
  {
    suites: ['contract', 'billing', 'invoices'],
    faults: ['forced-status-list-stale'],
    mustBlock: {
      'billing-forced-status': /^blocked by view-consistency on /,
      'billing-bulk-status': /^blocked by view-consistency on /,
    },
  },
];

describe('world faults: neighbours and views, each failing its owner alone, on three seeds', { concurrency: 2 }, () => {
  for (const { suites, faults, mustBlock } of RUNS)
    for (const seed of SEEDS)
      test(`${faults.join(' + ')} (${suites.join(', ')}), seed ${seed}`, async () => {
        const r = await runOnMock({
          token: TOKEN,
          suites,
          faults,
          reportDir: join(reportRoot, `world-${faults.length}-${seed}`),
          runId: `flis-world-${seed}-${faults.length}`,
          seed,
          runs: 3,
          visibilityTimeoutMs: 1_500,
        });
        assert.equal(r.exitCode, 1, `the suites passed with ${faults.join(', ')} on`);
        assertExactFailures(r, faults, TOKEN);
        assertBlockedAs(r, mustBlock);
      });
});
