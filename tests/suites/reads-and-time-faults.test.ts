/**
 * Issue 31: reads, time and offers at the edges. A GET that changes what a later GET shows (safe-reads), a state that
 * changes by itself after it showed (durable-state), and offers where ids differ only by case (record-identity),
 * share default values or a later write reaches a cancellation (offer-cancel), share a sort key (offer-listing), are
 * listed otherwise than read by id (view-consistency), or are written by a bulk after a single write (offer-lifecycle).
 * Each fault fails exactly its owner (tests/suites/fault-owners.ts) on three seeds; faults that cannot hide each
 * other share a run over the suites that read or write their records. Where a check meets a fault another owns on its
 * way for certain (the isolation shape reads an offer and its case twin, and deletes offers written without a
 * bookingId), it is blocked by that owner.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe } from 'node:test';
import { type FaultRun, testFaultRuns } from './fault-owners.ts';

const TOKEN = `reads-time-faults-${randomBytes(12).toString('hex')}`;
const SEEDS = [101, 202, 303];
const reportRoot = mkdtempSync(join(tmpdir(), 'flis-reads-time-faults-'));
after(() => rmSync(reportRoot, { recursive: true, force: true }));

const RUNS: FaultRun[] = [
  // Reads that change what the next shows (an offer, a section 4.3 record, a batch status), and cancellations that
  // reach offers sharing default values or that a later write to the booking undoes.
  {
    suites: ['contract', 'records', 'offers', 'lifecycle', 'model'],
    faults: [
      'offer-read-marks-queried',
      'record-read-stamps-viewed',
      'batch-status-read-once',
      'delete-cancels-unbooked-offers',
      'booking-write-uncancels',
    ],
    mustBlock: { 'record-isolation': /^blocked by offer-cancel on getOffer: / },
  },
  // A forced status that expires; offers keyed by lower-cased id; a listing that keeps offers as created.
  {
    suites: ['contract', 'records', 'offers', 'billing', 'model'],
    faults: ['forced-status-expires', 'offer-ids-case-folded', 'offer-list-stale-after-update'],
    mustBlock: { 'record-isolation': /^blocked by record-identity on getOffer: / },
  },
  // A removed record that comes back; a listing keyed by timestamp; a bulk that does not update a single write.
  {
    suites: ['contract', 'records', 'offers', 'lifecycle', 'model'],
    faults: ['deleted-record-returns', 'offer-list-one-per-timestamp', 'bulk-update-of-single-offer-ignored'],
  },
];

describe(
  'reads, time and offers at the edges: each fault fails its owner alone, on three seeds',
  { concurrency: 2 },
  () => testFaultRuns(RUNS, SEEDS, { token: TOKEN, reportRoot, runIdPrefix: 'flis-reads-time' }),
);
