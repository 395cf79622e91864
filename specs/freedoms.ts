/**
 * The one table of freedoms: every place the spec leaves a choice to the server ("not shown", or silence), what the
 * checks therefore never judge, the code that leaves it open, and the conformant mock preset that takes the choice
 * another way and passes every suite on three seeds (tests/suites/conformant-seeds.test.ts and the presets' own
 * tests). docs/verdicts.md's table is generated from it (tests/docs/freedoms-table.ts) and
 * tests/docs/freedoms-table.test.ts holds each row to the tree: the files exist, the preset exists and sets the options
 * named. A new freedom is a row here, a variant option in mock/variant.ts, and a preset that takes it.
 */

export interface Freedom {
  /** What a server may do. */
  freedom: string;
  /** The spec's words that leave it open. */
  spec: string;
  /** Where the checks leave it open (files of this repository). */
  leftOpenIn: readonly string[];
  /** The conformant preset that takes the choice (mock/variant.ts), and the options that make it. */
  proof: { preset: string; options: readonly string[] };
}

export const FREEDOMS: readonly Freedom[] = [
  // Status codes and bodies of answers.
  {
    freedom: 'any 2xx for a write, a create or an acknowledgement (200, 201, 202)',
    spec: 'spec 7: "status codes: not shown" beyond the error model',
    leftOpenIn: ['core/exchange.ts'],
    proof: { preset: 'different', options: ['createdStatus'] },
  },
  {
    freedom: 'any 4xx for a request the spec does not serve (an id that does not exist, a value refused)',
    spec: 'spec 7: "Error status codes: not shown"',
    leftOpenIn: ['suites/lib/world/gone.ts'],
    proof: { preset: 'open-choices', options: ['missingStatus'] },
  },
  {
    freedom: 'fields beyond those the spec shows, in every object answered',
    spec: 'spec 2 lists fields and forbids none beyond them',
    leftOpenIn: ['suites/model/twin-trial.ts'],
    proof: { preset: 'different', options: ['extraFields'] },
  },
  {
    freedom: 'values of an answer that are not stored (a time of retrieval)',
    spec: 'spec 2 does not forbid fields beyond those shown',
    leftOpenIn: ['suites/model/twin-trial.ts', 'suites/model/control-trial.ts'],
    proof: { preset: 'different', options: ['stampsRetrieval'] },
  },
  {
    freedom: "values a record carries of the server's own (an id it derives, the time it was written or processed)",
    spec: "spec 2.2: transportRequirementsId, sourceId and the like are the server's; spec 4.3: bodies not shown",
    leftOpenIn: ['suites/model/twin-trial.ts'],
    proof: { preset: 'default', options: [] },
  },
  {
    freedom: 'the booking an offer written without a bookingId is given (one shared default, or a fresh one each)',
    spec: 'spec 2.2: a default is not shown',
    leftOpenIn: ['suites/lib/world/offer-record.ts'],
    proof: { preset: 'default', options: [] },
  },
  // Identity.
  {
    freedom: 'the shape of the ids the server hands out (prefixed, UUID, numeric, characters a URL must encode)',
    spec: 'spec 2: "All identifiers are strings"',
    leftOpenIn: ['suites/lib/world/records.ts'],
    proof: { preset: 'offer-versions', options: ['idFormat'] },
  },
  {
    freedom: 'ids without letters, so no id that differs from them only by case',
    spec: 'spec 2: "All identifiers are strings"',
    leftOpenIn: ['suites/lib/case-twin.ts'],
    proof: { preset: 'eventual', options: ['idFormat'] },
  },
  // Time.
  {
    freedom: 'how long a write takes to show, in every view (offers, statuses, section 4.3 records)',
    spec: 'spec 1: writes are asynchronous; no time is shown',
    leftOpenIn: ['suites/lib/visibility-deadline.ts', 'suites/lib/world/world.ts'],
    proof: { preset: 'eventual', options: ['writeDelayMs', 'catalogueWriteDelayMs'] },
  },
  {
    freedom: 'records that move through states with time (an offer Open, then Accepted, then Delivered)',
    spec: 'spec 3: "Transitions: not shown"',
    leftOpenIn: ['suites/model/twin-trial.ts', 'suites/model/durable-kinds.ts'],
    proof: { preset: 'eventual', options: ['offerStatusOverTime'] },
  },
  {
    freedom: 'the words of a batch status (processed, done, none at all)',
    spec: 'spec 1 names the status of a write, not its values; spec 3: status lists not shown',
    leftOpenIn: ['suites/lib/batch-processed.ts'],
    proof: { preset: 'eventual', options: ['batchStatusWords'] },
  },
  {
    freedom: 'throttling: 429 with Retry-After while a quota is spent',
    spec: 'spec 8: rate limits not shown',
    leftOpenIn: ['runner/gateway.ts'],
    proof: { preset: 'throttled', options: ['throttle'] },
  },
  // Lists, filters and pages.
  {
    freedom: 'the order of every list (offers, billing groups, invoices, section 4.3 collections)',
    spec: 'spec 4.1, 4.2: "array of …", no order shown',
    leftOpenIn: ['suites/lib/world/record-views.ts'],
    proof: { preset: 'paged-lists', options: ['billingOrder', 'invoiceOrder'] },
  },
  {
    freedom: 'a list cut into pages with a paging sign (Link rel=next, a cursor), read through undocumented parameters',
    spec: 'spec 8: "maximum page size: not shown"; spec 4.2, 4.3 document no paging parameter for these lists',
    leftOpenIn: ['suites/lib/world/whole-lists.ts', 'suites/lib/world/record-views.ts'],
    proof: { preset: 'paged-lists', options: ['billingPageSize'] },
  },
  {
    freedom: 'section 4.3 collections paged and wrapped in an object',
    spec: 'spec 4.3: bodies not shown',
    leftOpenIn: ['suites/lib/world/record-views.ts'],
    proof: { preset: 'eventual', options: ['catalogueLists'] },
  },
  {
    freedom: 'a page smaller than the limit asked, and a default page size when none is asked',
    spec: 'spec 8: "maximum page size: not shown"',
    leftOpenIn: ['suites/lib/invoice-pages.ts'],
    proof: { preset: 'paged-lists', options: ['maxPageSize'] },
  },
  {
    freedom: 'the number of the first page (0 or 1)',
    spec: 'spec 4.2: "page (integer)", nothing more',
    leftOpenIn: ['suites/lib/invoice-pages.ts'],
    proof: { preset: 'open-choices', options: ['firstPage', 'defaultPageSize'] },
  },
  {
    freedom:
      'whether a date window includes its own bounds, and what an offer window is over (transport time or write time)',
    spec: 'spec 4.1, 4.2: "start (date), end (date)"',
    leftOpenIn: ['suites/billing/filter-match.ts', 'suites/offers/listing.spec.ts'],
    proof: { preset: 'open-choices', options: ['windowBounds', 'offerWindowOn'] },
  },
  {
    freedom: 'whether a list parameter is required (a window for offers and billing groups, createdSince for invoices)',
    spec: 'spec 4.1, 4.2: parameters listed, required-ness not shown',
    leftOpenIn: ['suites/offers/listing.spec.ts'],
    proof: {
      preset: 'offer-versions',
      options: ['offerListNeedsWindow', 'billingListNeedsWindow', 'invoiceListNeedsSince'],
    },
  },
  {
    freedom: 'whether GET /offers lists cancelled offers',
    spec: 'spec 4.1 does not say',
    leftOpenIn: ['suites/lib/world/offer-record.ts'],
    proof: { preset: 'eventual', options: ['listsCancelledOffers'] },
  },
  {
    freedom: 'GET /offers/{offerId} answering every version of the offer',
    spec: 'spec 4.1: "array of Offer", and not why it is an array',
    leftOpenIn: ['suites/lib/offers/flow-steps.ts'],
    proof: { preset: 'offer-versions', options: ['offerVersionsAnswered'] },
  },
  {
    freedom: 'the most items a bulk write takes (a larger one refused with a 4xx)',
    spec: 'spec 8: "maximum bulk size: not shown"',
    leftOpenIn: ['suites/offers/bulk.spec.ts'],
    proof: { preset: 'different', options: ['maxBulkItems'] },
  },
  // Bodies.
  {
    freedom: "the fields inside invoices' billingGroups and billingGroupDetails, the key of their id among them",
    spec: 'spec 2.7: "Fields inside the object arrays …: not shown"',
    leftOpenIn: ['suites/lib/world/invoices.ts'],
    proof: { preset: 'paged-lists', options: ['invoiceGroupIdField'] },
  },
  {
    freedom: 'the notation of a date-time (compared as instants, with or without milliseconds)',
    spec: 'spec 2: "Timestamps are ISO 8601 date-times in UTC"',
    leftOpenIn: ['suites/lib/world/invoices.ts'],
    proof: { preset: 'paged-lists', options: ['singleViewTimestamps'] },
  },
  {
    freedom: "what a GET of a section 4.3 record shows (its ids and the server's words, not the fields written)",
    spec: 'spec 4.3: request and response bodies not shown',
    leftOpenIn: ['suites/lib/world/record-book.ts'],
    proof: { preset: 'different', options: ['catalogueBodies', 'catalogueWrapped'] },
  },
  {
    freedom: 'a DELETE of a section 4.3 record that marks it deleted instead of removing it',
    spec: 'spec 1: clients delete; spec 4.3: bodies not shown',
    leftOpenIn: ['suites/lib/world/gone.ts'],
    proof: { preset: 'different', options: ['catalogueDelete'] },
  },
  // Input the spec binds the client on.
  {
    freedom:
      'reading leniently what a client should not have sent (a body under another content type, a wrong type dropped)',
    spec: 'spec 5 rule 3 binds the client; no field is marked required',
    leftOpenIn: ['suites/bad-input/rejected.spec.ts'],
    proof: { preset: 'different', options: ['lenientInput'] },
  },
];
