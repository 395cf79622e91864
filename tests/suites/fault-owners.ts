/**
 * One fault, one failure: for every fault switch of the mock, the EXACT set of
 * checks that fail when it is on, among the suites run with it. That is the
 * owner, plus at most one other where the fault truly breaks two rules (said
 * in `why`). Checks that merely depend on a broken response report themselves
 * blocked and are not in the set. A Record over FaultName: a fault without an
 * entry does not compile.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { SuiteRunResult } from '../../runner/run-suites.ts';
import { blockedChecks, describeFailures, failedChecks, runOnMock, testLocations } from './run-on-mock.ts';
import type { FaultName } from '../../mock/faults.ts';

export interface FaultOwners {
  /** The checks that fail, owner first. */
  fails: string[];
  /**
   * Proof that THIS fault was caught when several share a run: a failure of `check` on `operation`, with `title`,
   * or whose record's message matches `message`.
   */
  evidence: { check: string; operation?: string; title?: RegExp; message?: RegExp };
  /** Why a second check fails too. */
  why?: string;
}

export const FAULT_OWNERS: Record<FaultName, FaultOwners> = {
  'offer-quantity-as-string': {
    fails: ['response-schema'],
    evidence: { check: 'response-schema', operation: 'getOffer' },
  },
  'offer-unknown-price-strategy': {
    fails: ['response-schema'],
    evidence: { check: 'response-schema', operation: 'getOffer' },
  },
  'billing-group-missing-status': {
    fails: ['response-schema'],
    evidence: { check: 'response-schema', operation: 'getBillingGroup' },
  },
  'invoice-bad-created-timestamp': {
    fails: ['response-schema'],
    evidence: { check: 'response-schema', operation: 'listInvoices' },
  },
  'ack-missing-batch-id': {
    fails: ['response-schema'],
    evidence: { check: 'response-schema', operation: 'upsertOffer' },
  },
  'auth-missing-token-accepted': {
    fails: ['auth-required'],
    evidence: { check: 'auth-required', message: /: no token → 2\d\d/ },
  },
  'auth-wrong-token-accepted': {
    fails: ['auth-required'],
    evidence: { check: 'auth-required', message: /wrong token → 2\d\d/ },
  },
  'route-missing': {
    fails: ['operation-served'],
    evidence: { check: 'operation-served', operation: 'listFuelPickups' },
  },
  'deprecated-removed': { fails: ['deprecated-served'], evidence: { check: 'deprecated-served' } },
  'bad-input-500': {
    fails: ['no-5xx', 'bad-input-rejected'],
    evidence: { check: 'no-5xx' },
    why: 'a 5xx to bad input breaks HTTP semantics (no-5xx) and is not the 4xx bad-input-rejected asks for; bad-input-rejected reports it with contract severity',
  },
  'text-content-type': {
    fails: ['json-content-type'],
    evidence: { check: 'json-content-type', operation: 'listBillingGroups' },
  },
  'cancel-flag-ignored': { fails: ['offer-cancel'], evidence: { check: 'offer-cancel', title: /cancel: true/ } },
  'delete-not-cancel': { fails: ['offer-cancel'], evidence: { check: 'offer-cancel', title: /DELETE/ } },
  // offer-cancel and offer-settled set their flag by an update: a plain update on a fresh offer shows them whose it is.
  'update-not-applied': { fails: ['offer-upsert'], evidence: { check: 'offer-upsert' } },
  'bulk-item-dropped': { fails: ['offer-bulk'], evidence: { check: 'offer-bulk' } },
  'bulk-items-mixed': { fails: ['offer-bulk'], evidence: { check: 'offer-bulk' } },
  'forced-status-not-removed': { fails: ['billing-forced-status'], evidence: { check: 'billing-forced-status' } },
  'delete-status-ignored': { fails: ['billing-bulk-status'], evidence: { check: 'billing-bulk-status' } },
  'forced-status-ignored': { fails: ['billing-forced-status'], evidence: { check: 'billing-forced-status' } },
  'billing-filter-ignored': { fails: ['billing-filters'], evidence: { check: 'billing-filters' } },
  'page-repeats': { fails: ['invoice-paging'], evidence: { check: 'invoice-paging' } },
  'limit-ignored': { fails: ['invoice-limit'], evidence: { check: 'invoice-limit' } },
  'created-since-ignored': { fails: ['invoice-since'], evidence: { check: 'invoice-since' } },
  'invalid-body-accepted': { fails: ['bad-input-rejected'], evidence: { check: 'bad-input-rejected' } },
  'snapshot-has-billing-groups': { fails: ['invoice-forms'], evidence: { check: 'invoice-forms' } },
  'batch-status-missing': { fails: ['batch-status'], evidence: { check: 'batch-status' } },
  'price-strategy-stored': { fails: ['unknown-price-strategy'], evidence: { check: 'unknown-price-strategy' } },
  // The checks of issue 8 item 3; tests/suites/new-checks-faults.test.ts runs them.
  'offer-timestamp-not-utc': {
    fails: ['utc-timestamps'],
    evidence: { check: 'utc-timestamps', operation: 'getOffer' },
  },
  'booking-event-delete-removes': {
    fails: ['event-cancel'],
    evidence: { check: 'event-cancel', operation: 'deleteBookingEvent' },
  },
  'transport-order-events-not-cancelled': {
    fails: ['event-cancel'],
    evidence: { check: 'event-cancel', operation: 'deleteTransportOrder' },
  },
  'auth-near-miss-token-accepted': {
    fails: ['auth-required'],
    evidence: { check: 'auth-required', message: /case changed → 2\d\d/ },
  },
  'api-prefix-wrong': { fails: ['api-prefix'], evidence: { check: 'api-prefix' } },
  'billing-filter-drops-match': {
    fails: ['billing-filters-complete'],
    evidence: { check: 'billing-filters-complete' },
  },
  'record-route-missing': {
    fails: ['operation-served'],
    evidence: { check: 'operation-served', operation: 'getOrder' },
  },
  'updated-since-drops-match': { fails: ['invoice-since-complete'], evidence: { check: 'invoice-since-complete' } },
  'bulk-cancel-ignored': { fails: ['offer-bulk-flags'], evidence: { check: 'offer-bulk-flags' } },
  // Issue 17 sections 1, 2 and 4 (verdicts-a); tests/suites/auth-filter-faults.test.ts runs them.
  'auth-forgotten-on-invoice-read': {
    fails: ['auth-required'],
    evidence: { check: 'auth-required', message: /getInvoice \(GET \/invoices\/\{invoiceId\}\): no token → 200/ },
  },
  'offer-window-ignored': { fails: ['offer-listing'], evidence: { check: 'offer-listing', message: /outside/ } },
  'offer-window-widened': { fails: ['offer-listing'], evidence: { check: 'offer-listing', message: /outside/ } },
  'billing-window-widened': {
    fails: ['billing-filters'],
    evidence: { check: 'billing-filters', message: /is (before start|after end)/ },
  },
  'created-since-widened': { fails: ['invoice-since'], evidence: { check: 'invoice-since', message: /createdSince/ } },
  'updated-since-on-created': {
    fails: ['invoice-since-complete'],
    evidence: { check: 'invoice-since-complete', message: /updatedSince/ },
  },
  'empty-list-null': {
    fails: ['response-schema'],
    evidence: { check: 'response-schema', operation: 'listBillingGroups' },
  },
  // Issue 17 sections 3 and 5; tests/suites/effect-faults.test.ts runs them.
  'settled-ignored': { fails: ['offer-settled'], evidence: { check: 'offer-settled' } },
  'offer-readback-field-wrong': {
    fails: ['offer-upsert'],
    evidence: { check: 'offer-upsert', title: /every documented field/ },
  },
  'offer-create-id-reused': { fails: ['offer-create-ids'], evidence: { check: 'offer-create-ids' } },
  'billing-group-get-wrong': {
    fails: ['record-identity'],
    evidence: { check: 'record-identity', operation: 'getBillingGroup' },
  },
  'invoice-get-wrong': { fails: ['record-identity'], evidence: { check: 'record-identity', operation: 'getInvoice' } },
  'transport-order-delete-removes': {
    fails: ['event-cancel'],
    evidence: { check: 'event-cancel', operation: 'deleteTransportOrder' },
  },
  // Only a sequence meets it (an update, then a DELETE): offer-lifecycle's own; flow-faults.test.ts runs it.
  'delete-after-update-ignored': { fails: ['offer-lifecycle'], evidence: { check: 'offer-lifecycle' } },
  // Every offer flow reads by id on its way and is blocked by record-identity; effect-faults.test.ts runs it.
  'offer-get-wrong': {
    fails: ['record-identity'],
    evidence: { check: 'record-identity', operation: 'getOffer', message: /listed offer/ },
  },
  // Identities, fidelity and bounds between records' values; tests/suites/fidelity-faults.test.ts runs them.
  'bulk-batch-id-reused': {
    fails: ['record-identity'],
    evidence: { check: 'record-identity', operation: 'bulkWriteOffers', message: /both answered batchId/ },
  },
  'references-sorted': {
    fails: ['offer-upsert'],
    evidence: { check: 'offer-upsert', message: /\/references: wrote/ },
  },
  'timestamp-offset-dropped': {
    fails: ['offer-upsert'],
    evidence: { check: 'offer-upsert', title: /edges the shapes allow/, message: /\/transportTimestamp: wrote/ },
  },
  'created-since-hours-early': {
    fails: ['invoice-since'],
    evidence: { check: 'invoice-since', message: /createdSince=.* before that date/ },
  },
  'half-open-window-500': {
    fails: ['no-5xx'],
    evidence: { check: 'no-5xx', operation: 'listOffers', message: /half-open window/ },
  },
  // Advisory: json-content-type's failure record carries severity advisory.
  'invoice-json-bom': {
    fails: ['json-content-type'],
    evidence: { check: 'json-content-type', operation: 'getInvoice', message: /byte-order mark/ },
  },
  // Advisory: operation-served's failure record carries severity advisory; the record GETs it needs are blocked.
  'catalogue-write-refused': {
    fails: ['operation-served'],
    evidence: { check: 'operation-served', operation: 'upsertLargeContract', message: /refused the valid token/ },
  },
  // Neighbours and views (world-faults.test.ts): an effect reaching a record it does not name, views that disagree.
  'transport-order-delete-cancels-neighbours': {
    fails: ['event-cancel'],
    evidence: { check: 'event-cancel', operation: 'deleteTransportOrder', message: /which it does not name/ },
  },
  'offer-delete-cancels-booking': {
    fails: ['offer-cancel'],
    evidence: { check: 'offer-cancel', operation: 'deleteOffer', message: /which it does not name/ },
  },
  'snapshot-other-invoice-groups': {
    fails: ['view-consistency'],
    evidence: {
      check: 'view-consistency',
      message: /^GET \/invoicesBillingGroupDetailsSnapshot\/.* carries billingGroupDetails/,
    },
  },
  'forced-status-list-stale': {
    fails: ['view-consistency'],
    evidence: { check: 'view-consistency', message: /shows different statuses in different views/ },
  },
  'booking-event-delete-cancels-booking-events': {
    fails: ['event-cancel'],
    evidence: { check: 'event-cancel', operation: 'deleteBookingEvent', message: /which it does not name/ },
  }, // Billing groups and invoices both ways, across operations, combined and at the edges (billing-model-faults.test.ts).
  'bulk-removal-only-bulk-forced': {
    fails: ['billing-bulk-status'],
    evidence: {
      check: 'billing-bulk-status',
      message: /after POST \/billingGroups\/bulkStatusUpdate \[\S+ deleteStatus\], .*anything but/,
    },
  },
  'put-over-bulk-ignored': {
    fails: ['billing-forced-status'],
    evidence: { check: 'billing-forced-status', message: /after PUT \/billingGroups\/\S+\/status '[^']*seq-b2'/ },
  },
  'bulk-first-item-decides': {
    fails: ['billing-bulk-status'],
    evidence: { check: 'billing-bulk-status', message: /bulkStatusUpdate \[\S+ '[^']+', \S+ deleteStatus\]/ },
  },
  'status-write-any-case': {
    fails: ['billing-forced-status'],
    evidence: { check: 'billing-forced-status', message: /a group the write did not name .*differs only by case/ },
  },
  'list-leaves-out-forced': {
    fails: ['view-consistency'],
    evidence: { check: 'view-consistency', message: /leaves out billing group \S+ after PUT / },
  },
  'billing-list-needs-filter': {
    fails: ['view-consistency'],
    evidence: { check: 'view-consistency', message: /leaves out billing group .* answered 0 group\(s\)/ },
  },
  'details-inactive-default': {
    fails: ['billing-details'],
    evidence: { check: 'billing-details', message: /show inactive false/ },
  },
  'invoice-groups-drop-inactive': {
    fails: ['view-consistency'],
    evidence: { check: 'view-consistency', message: /^GET \/invoices\/\S+ .* out of billingGroups/ },
  },
  'unpaged-invoices-drop-drafts': {
    fails: ['invoice-since-complete'],
    evidence: { check: 'invoice-since-complete', message: /left out .* the run knows/ },
  },
  'billing-customer-overrides-filters': {
    fails: ['billing-filters'],
    evidence: { check: 'billing-filters', message: /"customerId".*do not match/ },
  },
  'invoice-filter-after-paging': {
    fails: ['invoice-paging'],
    evidence: { check: 'invoice-paging', message: /with updatedSince=\S+, first page \d\) never shows/ },
  },
  'created-since-dropped-with-updated': {
    fails: ['invoice-since'],
    evidence: { check: 'invoice-since', message: /createdSince=\S+&updatedSince=.*before createdSince/ },
  },
  'limit-ignored-with-updated-since': {
    fails: ['invoice-limit'],
    evidence: { check: 'invoice-limit', message: /updatedSince=.*answered \d+ invoices/ },
  },
  'page-boundary-skips-ties': {
    fails: ['invoice-paging'],
    evidence: { check: 'invoice-paging', message: /\(limit 1, first page \d\) never shows/ },
  },
  'billing-group-id-any-case': {
    fails: ['record-identity'],
    evidence: { check: 'record-identity', operation: 'getBillingGroup', message: /in the other case/ },
  },
  'invoice-id-any-case': {
    fails: ['record-identity'],
    evidence: { check: 'record-identity', operation: 'getInvoice', message: /in the other case/ },
  },
  // Section 4.3 records addressed by their path (tests/suites/record-model-faults.test.ts).
  'record-child-overwrites-parent': {
    fails: ['record-isolation'],
    evidence: { check: 'record-isolation', message: /\/attachment\// },
  },
  'record-ids-fold-case': { fails: ['record-isolation'], evidence: { check: 'record-isolation', message: /-AB\b/ } },
  'record-posted-not-updated': {
    fails: ['record-upsert'],
    evidence: { check: 'record-upsert', message: /\/(customers|products)\// },
  },
  'record-list-omits-updated': {
    fails: ['record-upsert'],
    evidence: { check: 'record-upsert', operation: 'upsertOrder', message: /GET \/orders leaves it out/ },
  },
  'record-list-keeps-deleted': {
    fails: ['record-delete'],
    evidence: { check: 'record-delete', operation: 'deleteOrder', message: /still lists the record/ },
  },
  'record-second-delete-ignored': { fails: ['world-model'], evidence: { check: 'world-model' } },
  // Reads, time, offers at the edges (tests/suites/reads-and-time-faults.test.ts).
  'offer-read-marks-queried': {
    fails: ['safe-reads'],
    evidence: { check: 'safe-reads', operation: 'getOffer', message: /shows queried true on the offer/ },
  },
  'record-read-stamps-viewed': {
    fails: ['safe-reads'],
    evidence: { check: 'safe-reads', message: /shows lastViewedAt .* on the record of/ },
  },
  'batch-status-read-once': {
    fails: ['safe-reads'],
    evidence: { check: 'safe-reads', operation: 'getBatchRequestsStatus', message: /no longer shows the write/ },
  },
  'forced-status-expires': {
    fails: ['durable-state'],
    evidence: { check: 'durable-state', message: /^billing group .* \(forced by (PUT|bulk)/ },
  },
  'deleted-record-returns': {
    fails: ['durable-state'],
    evidence: { check: 'durable-state', message: /\(deleted\) showed what was written/ },
  },
  'offer-ids-case-folded': {
    fails: ['record-identity'],
    evidence: { check: 'record-identity', title: /differ only by case/ },
  },
  'delete-cancels-unbooked-offers': {
    fails: ['offer-cancel'],
    evidence: { check: 'offer-cancel', title: /share default values/ },
  },
  'booking-write-uncancels': {
    fails: ['offer-cancel'],
    evidence: { check: 'offer-cancel', message: /an update of offer .*, another offer of the booking/ },
  },
  'bulk-update-of-single-offer-ignored': {
    fails: ['offer-lifecycle'],
    evidence: { check: 'offer-lifecycle', message: /after bulk\(live offer/ },
  },
  'offer-list-one-per-timestamp': {
    fails: ['offer-listing'],
    evidence: { check: 'offer-listing', title: /shares a transportTimestamp/ },
  },
  'offer-list-stale-after-update': {
    fails: ['view-consistency'],
    evidence: { check: 'view-consistency', operation: 'listOffers', message: /otherwise than GET \/offers\// },
  },
};

/** The checks a run with these faults must fail: the union of their sets. */
export function expectedFailing(faults: readonly FaultName[]): string[] {
  return [...new Set(faults.flatMap((f) => FAULT_OWNERS[f].fails))].sort();
}

/**
 * A run with `faults` on failed exactly the union of their sets, each fault shows its own evidence, and every
 * failure is a reproduction whose test points at its own spec file (never at a suites/lib helper).
 */
export function assertExactFailures(r: SuiteRunResult, faults: readonly FaultName[], token: string): void {
  const label = faults.join(' + ');
  assert.ok(
    !r.failures.some((f) => f.title === 'suite error'),
    `${label}: the run itself broke:\n${describeFailures(r)}`,
  );
  assert.deepEqual(failedChecks(r), expectedFailing(faults), `${label}: failing checks\n${describeFailures(r)}`);
  for (const fault of faults) {
    const { check, operation, title, message } = FAULT_OWNERS[fault].evidence;
    const shown = r.failures.some(
      (f) =>
        f.check === check &&
        (operation === undefined || f.record?.operationId === operation || f.operation === operation) &&
        (title === undefined || title.test(f.title)) &&
        (message === undefined || message.test(f.record?.message ?? '')),
    );
    assert.ok(
      shown,
      `${fault}: no failure of ${check}${operation ? ` on ${operation}` : ''}${title ? ` titled ${title}` : ''}${message ? ` saying ${message}` : ''}:\n${describeFailures(r)}`,
    );
  }
  for (const f of r.failures) {
    assert.ok(f.record, `${f.title}: no flis-failure record attached`);
    assert.equal(f.record.check, f.check, `${f.title}: the record names check '${f.record.check}'`);
    assert.ok(f.record.severity, `${f.title}: the record carries no severity`);
    assert.ok(
      f.record.exchanges.length > 0 && f.record.curl.length === f.record.exchanges.length,
      `${f.title}: exchanges and curls`,
    );
    assert.ok(!JSON.stringify(f.record).includes(token), `${f.title}: the failure record carries the token`);
  }
  assertSpecLocations(r);
}

/** Each check of `mustBlock` has a test skipped as blocked with a reason matching its pattern. */
export function assertBlockedAs(r: SuiteRunResult, mustBlock: Record<string, RegExp> = {}): void {
  const blocked = blockedChecks(r);
  for (const [check, pattern] of Object.entries(mustBlock))
    assert.ok(
      (blocked.get(check) ?? []).some((reason) => pattern.test(reason)),
      `${check} is not blocked as ${pattern}; blocked: ${JSON.stringify([...blocked])}`,
    );
}

/** Every test of the run is located in its own spec file (results.json), not in the helper that builds it, and is weighed. */
export function assertSpecLocations(r: SuiteRunResult): void {
  const located = testLocations(r);
  assert.ok(located.length > 0, 'results.json lists no test');
  const elsewhere = located.filter((l) => !/\.spec\.ts$/.test(l.file));
  assert.deepEqual(elsewhere, [], 'tests located outside their spec file');
  const unweighed = located.filter((l) => l.severity !== 'contract' && l.severity !== 'advisory');
  assert.deepEqual(unweighed, [], 'tests without a severity annotation');
}

/** One run of a fault test: the suites, the faults on together, and the checks that must be blocked (by whom). */
export interface FaultRun {
  suites: string[];
  faults: FaultName[];
  mustBlock?: Record<string, RegExp>;
}

/**
 * A test per run and seed: the suites fail exactly the faults' owners (assertExactFailures) and every check of
 * `mustBlock` is blocked as its pattern says. Call inside a describe.
 */
export function testFaultRuns(
  runs: readonly FaultRun[],
  seeds: readonly number[],
  opts: { token: string; reportRoot: string; runIdPrefix: string },
): void {
  for (const [i, { suites, faults, mustBlock }] of runs.entries())
    for (const seed of seeds)
      test(`${faults.join(' + ')} (${suites.join(', ')}), seed ${seed}`, async () => {
        const r = await runOnMock({
          token: opts.token,
          suites,
          faults,
          // By the run's place, not its faults: a dozen names would make a folder name longer than a file system takes.
          reportDir: join(opts.reportRoot, `run-${i}-${seed}`),
          runId: `${opts.runIdPrefix}-${seed}-${faults.length}`,
          seed,
          runs: 3,
          visibilityTimeoutMs: 1_500,
        });
        assert.equal(r.exitCode, 1, `the suites passed with ${faults.join(', ')} on`);
        assertExactFailures(r, faults, opts.token);
        const blocked = blockedChecks(r);
        for (const [check, pattern] of Object.entries(mustBlock ?? {}))
          assert.ok(
            (blocked.get(check) ?? []).some((reason) => pattern.test(reason)),
            `${check} is not blocked as ${pattern}; blocked: ${JSON.stringify([...blocked])}`,
          );
      });
}
