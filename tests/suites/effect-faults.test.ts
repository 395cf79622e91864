/**
 * Issue 17 sections 3 and 5: effects judged as changes, identities as
 * identities, one owner for read-back. Each new fault switch fails exactly
 * its owning check (tests/suites/fault-owners.ts) on three seeds, and every
 * check that merely meets it on its way reports itself blocked, never failed.
 * Faults that cannot hide each other share a run (different checks, or
 * different operations of record-identity), to keep Playwright launches few.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe } from 'node:test';
import { type FaultRun, testFaultRuns } from './fault-owners.ts';

const TOKEN = `effect-faults-${randomBytes(12).toString('hex')}`;
const SEEDS = [101, 202, 303];
const reportRoot = mkdtempSync(join(tmpdir(), 'flis-effect-faults-'));
after(() => rmSync(reportRoot, { recursive: true, force: true }));

const RUNS: FaultRun[] = [
  // Two offer rules: the settled flag of single writes, and two POSTs making two offers.
  { suites: ['offers', 'lifecycle'], faults: ['settled-ignored', 'offer-create-id-reused'] },
  {
    // One wrong read-back field: offer-upsert owns it; the flows that read back on their way are blocked by it.
    suites: ['offers', 'lifecycle'],
    faults: ['offer-readback-field-wrong'],
    // Both write a complete body every run; the generated flows are blocked only when a body writes offerVersion.
    mustBlock: {
      'offer-settled': /^blocked by offer-upsert on getOffer: /,
      'offer-create-ids': /^blocked by offer-upsert/,
    },
  },
  {
    // A GET answering another record (three kinds: record-identity's tests on three operations), and a DELETE that
    // removes what spec 3 rule 5 says it marks. The offer flows block at their first read, so they cost little.
    suites: ['contract', 'billing', 'invoices', 'offers', 'lifecycle'],
    faults: ['billing-group-get-wrong', 'invoice-get-wrong', 'offer-get-wrong', 'transport-order-delete-removes'],
    mustBlock: {
      'billing-forced-status': /^blocked by record-identity on getBillingGroup: /,
      'invoice-forms': /^blocked by record-identity/,
      'offer-upsert': /^blocked by record-identity on getOffer: /,
      'offer-lifecycle': /^blocked by record-identity on getOffer: /,
      'offer-bulk': /^blocked by record-identity on getOffer: /,
    },
  },
];

describe('effect and identity faults: the owner alone fails, on three seeds', { concurrency: 2 }, () =>
  testFaultRuns(RUNS, SEEDS, { token: TOKEN, reportRoot, runIdPrefix: 'flis-effect' }),
);
