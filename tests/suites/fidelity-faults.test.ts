/**
 * What the server hands out names one write each, what was written reads back
 * as written for the edges the shapes allow, and a date filter is judged
 * between the days records carry. Each fault fails exactly its owning check
 * (tests/suites/fault-owners.ts) on three seeds: the offer flows that meet a
 * wrong read-back on their way are blocked by offer-upsert, never failed.
 * Faults with different owners share a run; the two read-back faults are both
 * offer-upsert's and would hide each other, so each has a run of its own, with
 * the suites that write what it bends (only offer-upsert writes offsets).
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe } from 'node:test';
import { type FaultRun, testFaultRuns } from './fault-owners.ts';

const TOKEN = `fidelity-faults-${randomBytes(12).toString('hex')}`;
const SEEDS = [101, 202, 303];
const reportRoot = mkdtempSync(join(tmpdir(), 'flis-fidelity-faults-'));
after(() => rmSync(reportRoot, { recursive: true, force: true }));

const RUNS: FaultRun[] = [
  {
    // A batchId handed out twice (record-identity), references read back sorted (offer-upsert; the generated offer
    // flows that draw a list out of order are blocked by it, which ones depends on the seed), and createdSince read
    // 14 hours early (invoice-since), a 500 for a window with one bound (no-5xx, which alone sends one), and a
    // byte-order mark before an invoice's JSON (json-content-type, advisory), and a catalogued write refused to the
    // valid token (operation-served, advisory; the record GET that needed it is blocked).
    mustBlock: { 'json-content-type': /^blocked by operation-served on upsertLargeContract: / },
    suites: ['contract', 'offers', 'lifecycle', 'invoices'],
    faults: [
      'bulk-batch-id-reused',
      'references-sorted',
      'created-since-hours-early',
      'half-open-window-500',
      'invoice-json-bom',
      'catalogue-write-refused',
    ],
  },
  { suites: ['offers'], faults: ['timestamp-offset-dropped'] },
];

describe('identity, fidelity and bound faults: the owner alone fails, on three seeds', { concurrency: 2 }, () =>
  testFaultRuns(RUNS, SEEDS, { token: TOKEN, reportRoot, runIdPrefix: 'flis-fidelity' }),
);
