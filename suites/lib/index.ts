/**
 * What a check author uses, in one place: `import { checkTest, test, skip, … } from '../lib/index.ts'`. The rest of
 * suites/lib/ serves these, and core/ is the product's plumbing below every part of it (the HTTP client, redaction,
 * the traffic observer, the failure record, curl, polling): a check takes what it needs of core/ from here, never
 * from core/ itself (scripts/check-imports.ts), so a new check should need nothing else. docs/writing-a-check.md walks through them.
 *
 * A check is `test(...checkTest(meta, async (ctx) => { … }))`. Its body gets one context, always named `ctx`:
 * - `ctx.api` sends requests (`ctx.api.op(operationById('getOffer'), { params })`) and records every exchange;
 * - `ctx.check` judges them (`expectSuccess`, `expectSchema`, `fail(message, { pointer })`): a failure is a record
 *   with the exchange, the JSON pointer and a curl command;
 * - `ctx.cleanup` undoes what the test wrote, pass or fail; `ctx.runId` tags everything it writes;
 * - `skip.nothingToJudge` / `skip.notShown` / `skip.inconclusive` / `skip.blockedBy(ctx, owner, x, reason)`: the
 *   four ways a check says it did not judge, which the reports tell apart.
 *
 * A property over generated inputs runs through `checkProperty` (the run's seed, runs and path: a failure prints a
 * `flis run … --seed N --path P` that replays it); an asynchronous write is awaited with `pollVisible` or, for an
 * offer, `awaitOffer`, never a fixed sleep. An offer-effect check that sees a wrong read-back asks a control (a fresh
 * offer written a simpler way) which check owns the fault: `updateControl`, `updateReplayControl`, `postControl`,
 * `bulkControl`, `writeControl`, `deleteControl`.
 */

// The check itself: its test, its context, its verdicts.
export type { CheckContext } from './check-context.ts';
export { Cleanup } from './cleanup.ts';
export { type CheckTestMeta, checkTest, test } from './check-test.ts';
export { Check, type Clause, schemaProblem } from './check.ts';
export { CheckBlocked, RECORD_IDENTITY, RESPONSE_SCHEMA } from './check-blocked.ts';
export { type CheckId, type ClauseOf, clausesOf } from './catalogue.ts';
export { skip } from '../../core/skip.ts';
export { type Exchange, is2xx } from '../../core/exchange.ts';
export { type Target, target } from '../../core/target.ts';
export type { AuthMode, CallOptions } from '../../core/client.ts';
export { CheckFailure, type Severity } from '../../core/check-failure.ts';

// Generated inputs and waiting for writes to show.
export { checkProperty } from './property.ts';
export { noteVisibleAfter, pollVisible } from './visibility-deadline.ts';
export { offerWriteBodyArb } from '../generators/offer-write-body.ts';
export { bulkItemArb } from '../generators/bulk-item.ts';
export { freshId, scopedIds } from './fresh-id.ts';
export { runNow } from './clock.ts';
export { caseTwinOf } from './case-twin.ts';
export { concurrency, mapBounded, mapBoundedInOrder, settleBounded } from './parallel.ts';

// Bodies to send: valid ones, and the invalid ones the bad-input and served checks need.
export {
  MALFORMED_JSON,
  offerBulkItem,
  offerWriteBody,
  offsetOfferWriteBody,
  opaqueRecord,
  placeholderParams,
  SHOWN_BILLING_GROUP_STATUS,
  schemaInvalidBody,
  sparseOfferWriteBodies,
  validLookingBody,
} from './fixtures.ts';

// Offers: the flow steps, the expected read-back, and the six controls that find a fault's owner.
export {
  bulkWriteOffers,
  createOffer,
  deleteOffer,
  readOffer,
  readVerdict,
  upsertOffer,
  writtenVersion,
} from './offers/flow-steps.ts';
export { putOffer, putVisibleOffer, readOfferUpdatedTo, readOfferWrittenAs } from './offers/setup-offers.ts';
export { waitForOffer } from './offer-visible.ts';
export { listedOfferIds, otherOfferIds } from './offer-identity.ts';
export { documentedOffer, fieldsThatDiffer, offerIn } from './offers/offer-fields.ts';
export { type AwaitOptions, awaitOffer, writeLiveOffer } from './offers/await-offer.ts';
export {
  bulkControl,
  deleteControl,
  postControl,
  updateControl,
  updateReplayControl,
  writeControl,
} from './offers/controls.ts';
export { type Expectation, expectationsOf, mismatches, readBackOwner, unmetPointers } from './readback.ts';

// Invoices: the pages of a list walked whole.
export { knownInvoices, walkPages } from './invoice-pages.ts';

// Lists, records and the run's tags, as the product's core reads them (core/).
export {
  narrowedListQuery,
  WHOLE_BILLING_WINDOW,
  WHOLE_INVOICE_SINCE,
  WHOLE_OFFER_WINDOW,
  wholeListQuery,
} from '../../core/whole-list.ts';
export { recordsOf, statusOf } from '../../core/listed-records.ts';
export { forcedTag, isForcedTag, isForeignTag } from '../../core/forced-tag.ts';

// The token and what must never show of it: for the auth probes, which send its near misses.
export { redactText, secretForms, secretsWithDerived } from '../../core/redact.ts';
export { nearMissTokens } from '../../core/near-miss-tokens.ts';
