/**
 * Fault switches: each one is a deliberate contract violation that one specific
 * check of the suites must catch. The list is closed so a typo in a fault test
 * fails loudly instead of silently testing a conformant mock. How each one bends
 * the conformant mock lives apart, in the fault layer (mock/faults/): the routes
 * and stores hold the semantics only.
 */

export const faultNames = [
  // Contract faults: a response or status code breaks the documented contract.
  'offer-quantity-as-string',
  'offer-unknown-price-strategy',
  'billing-group-missing-status',
  'invoice-bad-created-timestamp',
  'ack-missing-batch-id',
  'auth-missing-token-accepted',
  'auth-wrong-token-accepted',
  'route-missing',
  'deprecated-removed',
  'bad-input-500',
  'text-content-type',
  // Flow faults: every single response looks right, but a multi-step flow breaks.
  'cancel-flag-ignored',
  'delete-not-cancel',
  'update-not-applied',
  'bulk-item-dropped',
  'bulk-items-mixed',
  'forced-status-not-removed',
  'delete-status-ignored',
  'forced-status-ignored',
  'billing-filter-ignored',
  'page-repeats',
  'limit-ignored',
  'created-since-ignored',
  'invalid-body-accepted',
  'snapshot-has-billing-groups',
  'batch-status-missing',
  'price-strategy-stored',
  // Clauses that need a fault of their own, so that the check enforcing each can be seen to fail.
  'offer-timestamp-not-utc',
  'booking-event-delete-removes',
  'transport-order-events-not-cancelled',
  'auth-near-miss-token-accepted',
  'api-prefix-wrong',
  'billing-filter-drops-match',
  'record-route-missing',
  'updated-since-drops-match',
  'bulk-cancel-ignored',
  // A refusal proves nothing, and a filter is judged both ways: what it leaves out and what it lets through.
  'auth-forgotten-on-invoice-read',
  'offer-window-ignored',
  'offer-window-widened',
  'billing-window-widened',
  'created-since-widened',
  'updated-since-on-created',
  'empty-list-null',
  // An effect is judged as a change, an identity as an identity, and read-back has one owning check.
  'settled-ignored',
  'offer-readback-field-wrong',
  'offer-create-id-reused',
  'billing-group-get-wrong',
  'invoice-get-wrong',
  'transport-order-delete-removes',
  // A fault only a sequence of writes meets, and a GET by id that answers another offer.
  'delete-after-update-ignored',
  'offer-get-wrong',
  // What the server hands out names one write each; what was written reads back as written; bounds between days.
  'bulk-batch-id-reused',
  'references-sorted',
  'timestamp-offset-dropped',
  'created-since-hours-early',
  'half-open-window-500',
  'invoice-json-bom',
  'catalogue-write-refused',
  // An effect reaching records it does not name (spec 3 rules 4, 5), and views of one record that disagree.
  'transport-order-delete-cancels-neighbours',
  'offer-delete-cancels-booking',
  'snapshot-other-invoice-groups',
  'forced-status-list-stale',
  'booking-event-delete-cancels-booking-events',
  // Section 4.3 records addressed by their path (spec 1, 4.3): effects across records, ids at the edges, sequences
  // across operations, both directions of a view.
  'record-child-overwrites-parent',
  'record-ids-fold-case',
  'record-posted-not-updated',
  'record-list-omits-updated',
  'record-list-keeps-deleted',
  'record-second-delete-ignored',
  // A GET that changes what a later GET shows, and a state that changes by itself after it showed.
  'offer-read-marks-queried',
  'record-read-stamps-viewed',
  'batch-status-read-once',
  'forced-status-expires',
  'deleted-record-returns',
  // Offers at the edges: case, shared defaults, equal sort keys, both views, writes of two kinds in sequence.
  'offer-ids-case-folded',
  'delete-cancels-unbooked-offers',
  'booking-write-uncancels',
  'bulk-update-of-single-offer-ignored',
  'offer-list-one-per-timestamp',
  'offer-list-stale-after-update',
  // Billing groups and invoices judged both ways, across operations, with combined parameters and at the edges of
  // identity (issue 31): each one small bug a server built by someone else could have.
  'bulk-removal-only-bulk-forced',
  'put-over-bulk-ignored',
  'bulk-first-item-decides',
  'status-write-any-case',
  'list-leaves-out-forced',
  'billing-list-needs-filter',
  'details-inactive-default',
  'invoice-groups-drop-inactive',
  'unpaged-invoices-drop-drafts',
  'billing-customer-overrides-filters',
  'invoice-filter-after-paging',
  'created-since-dropped-with-updated',
  'limit-ignored-with-updated-since',
  'page-boundary-skips-ties',
  'billing-group-id-any-case',
  'invoice-id-any-case',
] as const;

export type FaultName = (typeof faultNames)[number];

export const faultDescriptions: Record<FaultName, string> = {
  'offer-quantity-as-string': 'Offer.quantity is a string instead of a number in every Offer response (spec 2.2).',
  'offer-unknown-price-strategy': "Offer.priceStrategy is 'Dynamic', outside the documented enum (spec 2.2, spec 3).",
  'billing-group-missing-status':
    'Billing group responses (list and single) omit the required status field (spec 2.4).',
  'invoice-bad-created-timestamp':
    'Invoice.created is not an ISO 8601 date-time in list, single and snapshot responses (spec 2, spec 2.6).',
  'ack-missing-batch-id': 'PUT /offers/{offerId} answers {} without batchId (spec 2.7, spec 4.1).',
  'auth-missing-token-accepted':
    'Requests without an Authorization header are served on every operation (spec 5 rule 2).',
  'auth-wrong-token-accepted': 'Any bearer token is accepted, not only the configured one (spec 5).',
  'route-missing': 'GET /fuel/pickups answers 404: a catalogued operation is not served (spec 4.3).',
  'deprecated-removed':
    'The 8 deprecated operations answer 410 Gone although the spec still lists them (spec 9 rule 3).',
  'bad-input-500':
    'Malformed JSON or schema-invalid bodies on POST/PUT /offers and POST /offers/bulk answer 500 instead of 4xx.',
  'text-content-type':
    'GET /billingGroups answers its JSON body with content-type text/plain (spec 4: bodies are JSON).',
  'cancel-flag-ignored':
    'cancel: true in the body of POST /offers or PUT /offers/{offerId} does not set canceled (spec 3 rule 4).',
  'delete-not-cancel': 'DELETE /offers/{offerId} answers a batchId but leaves canceled false (spec 3 rule 4).',
  'update-not-applied':
    'A PUT /offers/{offerId} to an existing offer is acknowledged but does not change it (spec 1: upserts).',
  'bulk-item-dropped': 'The last item of a bulk offer write of 2+ items is never stored (spec 4.1).',
  'bulk-items-mixed': 'In a bulk offer write of 2+ items, the contents of the first two items are swapped (spec 4.1).',
  'forced-status-not-removed':
    'DELETE /billingGroups/{id}/status answers success but keeps the forced status (spec 3 rule 2); bulk deleteStatus still works.',
  'delete-status-ignored':
    'bulkStatusUpdate ignores deleteStatus: true and forces the item status instead (spec 3 rule 3).',
  'forced-status-ignored':
    'PUT /billingGroups/{id}/status answers success but the status does not change (spec 3 rule 1); bulk forcing still works.',
  'billing-filter-ignored': 'GET /billingGroups ignores the customerId filter (spec 4.2).',
  'page-repeats': 'GET /invoices answers the same items for page N+1 as for page N (spec 4.2).',
  'limit-ignored': 'GET /invoices ignores limit; pages still work with the default page size (spec 4.2).',
  'created-since-ignored': 'GET /invoices ignores createdSince (spec 4.2).',
  'invalid-body-accepted': 'Schema-invalid offer write bodies are accepted with a batchId instead of a 4xx (spec 2.3).',
  'snapshot-has-billing-groups':
    'GET /invoicesBillingGroupDetailsSnapshot/{id} carries billingGroups besides billingGroupDetails (spec 2.6).',
  'batch-status-missing': 'GET /bookings/requestsStatus/batch/{batchId} answers 404 for batches that exist (spec 1).',
  'price-strategy-stored':
    'A priceStrategy sent in an offer write is stored and read back even outside the enum (spec 2.2, spec 3); offers written without one stay valid.',
  'offer-timestamp-not-utc':
    'Offer.transportTimestamp is written with a +02:00 offset (the same instant, but not in UTC, spec 2).',
  'booking-event-delete-removes':
    'DELETE /bookings/{bookingId}/events/{eventId} removes the event (GET answers 404) instead of marking it canceled (spec 3 rule 5).',
  'transport-order-events-not-cancelled':
    'DELETE of a carrier booking transport order leaves its events canceled: false (spec 3 rule 5).',
  'auth-near-miss-token-accepted':
    'A token differing from the real one only in case, in its last character, or by one character more or less is accepted (spec 5).',
  'api-prefix-wrong': 'The interface is served under /api/v0 instead of the version prefix /apis/v0 (spec 9 rule 2).',
  'billing-filter-drops-match':
    'GET /billingGroups with any filter that leaves some group out also leaves out the last group that matches it (spec 4.2: nothing that matches is left out).',
  'record-route-missing':
    'GET /orders/{orderId} answers 404 even for an order that exists: a catalogued operation is not served (spec 4.3).',
  'updated-since-drops-match':
    'GET /invoices with updatedSince leaves out the last invoice updated at or after the date (spec 4.2).',
  'bulk-cancel-ignored':
    'cancel: true in a POST /offers/bulk item does not set canceled; single writes honour it (spec 3 rule 4).',
  // A refusal proves nothing, and a filter is judged both ways.
  'auth-forgotten-on-invoice-read':
    'GET /invoices/{invoiceId} forgets authentication: without a token it answers 404 for an unknown id and 200 for a real one (spec 5 rule 2).',
  'offer-window-ignored': 'GET /offers ignores start and end: every offer is listed (spec 4.1).',
  'offer-window-widened':
    'GET /offers widens the window by 12 hours on each side, whichever timestamp it filters on (spec 4.1).',
  'billing-window-widened': 'GET /billingGroups widens start and end by one day each (spec 4.2).',
  'created-since-widened': 'GET /invoices counts createdSince from the day before the date given (spec 4.2).',
  'updated-since-on-created':
    'GET /invoices filters updatedSince on created instead of updated: an invoice updated after the date but created before it is left out (spec 4.2).',
  'empty-list-null':
    'GET /offers, /billingGroups and /invoices answer null instead of an empty array when nothing matches (spec 4.1, 4.2).',
  'settled-ignored':
    'settled in the body of POST /offers or PUT /offers/{offerId} is acknowledged but does not change settled (spec 2.3); bulk items honour it.',
  'offer-readback-field-wrong':
    "Offers read back offerVersion with '.0' appended: a value that was never written (spec 1, 2.3: a write is read back as written).",
  'offer-create-id-reused':
    'POST /offers answers the id of the previous POST again, so the second create overwrites the first offer (spec 4.1: POST creates).',
  'billing-group-get-wrong':
    'GET /billingGroups/{id} answers the next billing group in the list instead of the one asked for (spec 4.2).',
  'invoice-get-wrong':
    'GET /invoices/{id} and GET /invoicesBillingGroupDetailsSnapshot/{id} answer the next invoice instead of the one asked for (spec 4.2).',
  'transport-order-delete-removes':
    'DELETE of a carrier booking transport order removes the order and its events instead of marking the events cancelled (spec 3 rule 5).',
  'delete-after-update-ignored':
    'DELETE /offers/{offerId} of an offer updated since its creation answers a batchId but leaves it live; offers never updated are cancelled (spec 3 rule 4).',
  'offer-get-wrong':
    'GET /offers/{offerId} answers the next stored offer (with its own id) instead of the one asked for (spec 4.1).',
  'bulk-batch-id-reused':
    "Every POST /offers/bulk after the first answers the first bulk's batchId, whose status then speaks of the latest bulk only (spec 1, 2.7: a batchId names one write).",
  'references-sorted':
    'Offer references are stored sorted instead of in the order written (spec 2.2, 2.3: an array of string, and JSON arrays are ordered).',
  'timestamp-offset-dropped':
    'A transportTimestamp written with an offset (…T12:00:00+02:00) is stored as its wall time in UTC (…T12:00:00Z): another instant (spec 2, 2.3).',
  'created-since-hours-early':
    'GET /invoices reads createdSince 14 hours early (from 10:00 UTC of the day before), so it lists invoices created late on the day before (spec 4.2).',
  'half-open-window-500':
    'GET /offers with start alone or end alone answers 500 (a window with one bound is a request the server can judge: a 4xx or a list).',
  'invoice-json-bom':
    'GET /invoices/{invoiceId} sends its JSON after a UTF-8 byte-order mark (RFC 8259 section 8.1: a networked JSON text must not begin with one).',
  'catalogue-write-refused':
    'PUT /largeContracts/{contractId} answers 403 to the valid token: a catalogued write the token cannot make is not served (spec 4.3).',
  // Neighbours and views.
  'transport-order-delete-cancels-neighbours':
    "DELETE of a carrier booking transport order marks its events cancelled, and also the events of the booking's other transport orders (spec 3 rule 5: all its events).",
  'offer-delete-cancels-booking':
    'DELETE /offers/{offerId} cancels the offer, and also every other offer with the same bookingId (spec 3 rule 4: the offer).',
  'snapshot-other-invoice-groups':
    "GET /invoicesBillingGroupDetailsSnapshot/{id} carries the billing group details of the next invoice's groups instead of its own (spec 2.6).",
  'forced-status-list-stale':
    "After a forced status, GET /billingGroups/{id} and its details show it, but GET /billingGroups and its state filter keep showing the group's own status (spec 3 rule 1, spec 4.2).",
  'booking-event-delete-cancels-booking-events':
    'DELETE /bookings/{bookingId}/events/{eventId} marks the event canceled, and also every other event of the booking (spec 3 rule 5: the event).',
  'record-child-overwrites-parent':
    'PUT /orders/{orderId}/attachment/{attachmentId} also writes its body over the order /orders/{orderId} (spec 1: a write creates or updates the record its path names, a child is not its parent).',
  'record-ids-fold-case':
    'Section 4.3 records are keyed by their ids folded to lower case, so ids that differ only by case name one record (spec 2: identifiers are strings).',
  'record-posted-not-updated':
    'A customer or product made by POST /customers, /products or their bulk answers a PUT to its id with success and stays as the POST made it (spec 1: a PUT updates the record at its path).',
  'record-list-omits-updated':
    'GET /orders leaves out every order written more than once, while GET /orders/{orderId} shows it (spec 1, 4.3: one record in every view).',
  'record-list-keeps-deleted':
    'DELETE /orders/{orderId} removes the order from GET /orders/{orderId}, but GET /orders keeps listing it as it was (spec 1: clients delete).',
  'record-second-delete-ignored':
    'Only the first DELETE of a section 4.3 record path removes it: a record made again and deleted again answers success and stays (spec 1).',
  'offer-read-marks-queried':
    'GET /offers/{offerId} marks the offer queried once it has answered: the next read shows queried: true (HTTP semantics: a GET is safe).',
  'record-read-stamps-viewed':
    'A GET of one section 4.3 record stores lastViewedAt on it after answering: the next read shows it (HTTP semantics: a GET is safe).',
  'batch-status-read-once':
    'GET /bookings/requestsStatus/batch/{batchId} answers a batch once; every later read of it answers 404 (HTTP semantics: a GET is safe).',
  'forced-status-expires':
    'A forced billing-group status lasts one second, then the group shows its own status again (spec 3 rules 1, 2: it stays until removed).',
  'deleted-record-returns':
    'A section 4.3 record a DELETE removed is back a second later, as it was (spec 1: what was written stays until written again).',
  'offer-ids-case-folded':
    'Offers are keyed by their id in lower case: PUT /offers/X-AB overwrites /offers/X-ab, which GET of either answers (spec 2: ids are strings).',
  'delete-cancels-unbooked-offers':
    'DELETE of an offer written without a bookingId also cancels every other offer written without one, of the same carrier (spec 3 rule 4).',
  'booking-write-uncancels':
    'A write to an offer stores every other offer of its booking as live again, undoing their cancellation (spec 3 rule 4).',
  'bulk-update-of-single-offer-ignored':
    'A bulk item to an offer that POST or PUT created is answered but changes nothing; bulk items that create, and PUTs, still work (spec 2.3, 4.1).',
  'offer-list-one-per-timestamp':
    'GET /offers is keyed by transportTimestamp: of offers that share one, only the one written last is listed (spec 4.1).',
  'offer-list-stale-after-update':
    'GET /offers lists every offer as it was created: later updates and cancellations show by id only (spec 4.1: one offer, two views).',
  'bulk-removal-only-bulk-forced':
    'A bulkStatusUpdate item with deleteStatus true removes a forced status only if a bulk call forced it; one forced by PUT stays (spec 3 rule 3).',
  'put-over-bulk-ignored':
    'PUT /billingGroups/{id}/status answers success but leaves a status a bulk call forced in place (spec 3 rule 1).',
  'bulk-first-item-decides':
    'Every item of a bulkStatusUpdate call does what its first item does: all force, or all remove (spec 3 rule 3: per item).',
  'status-write-any-case':
    'PUT and DELETE /billingGroups/{id}/status find the group whatever the case of the id, so a write to another id changes it (spec 2: ids are strings; spec 3 rules 1, 2).',
  'list-leaves-out-forced':
    'GET /billingGroups without a state filter leaves out every group whose status is forced (spec 4.2: one group in every view).',
  'billing-list-needs-filter':
    'GET /billingGroups answers an empty list unless a state, customerId or inactive filter is given (spec 4.2: the filters only narrow the list).',
  'details-inactive-default':
    "GET /billingGroups/{id}/details shows inactive: false for every group, the default, not the group's own value (spec 2.5).",
  'invoice-groups-drop-inactive':
    'GET /invoices/{id} leaves the inactive billing groups the invoice names out of billingGroups (spec 2.6: one invoice, its groups in every view).',
  'unpaged-invoices-drop-drafts':
    'GET /invoices without a limit or page leaves out invoices whose status is Draft; the pages show them (spec 4.2).',
  'billing-customer-overrides-filters':
    'GET /billingGroups with customerId ignores the state and inactive filters given with it (spec 4.2: filters hold together).',
  'invoice-filter-after-paging':
    'GET /invoices with a limit cuts the page first and applies updatedSince to it afterwards, so pages of the filtered list leave invoices out (spec 4.2).',
  'created-since-dropped-with-updated':
    'GET /invoices ignores createdSince when updatedSince is given too (spec 4.2: both filters hold together).',
  'limit-ignored-with-updated-since': 'GET /invoices ignores limit when updatedSince is given (spec 4.2).',
  'page-boundary-skips-ties':
    'GET /invoices pages by a cursor on created: the page after one that ends on an invoice sharing its created instant with the next leaves that next one out (spec 4.2).',
  'billing-group-id-any-case':
    'GET /billingGroups/{id} finds the group whatever the case of the id: an id with its letters in the other case answers the group (spec 2, spec 4.2).',
  'invoice-id-any-case':
    'GET /invoices/{id} and its snapshot find the invoice whatever the case of the id: an id with its letters in the other case answers the invoice (spec 2, spec 4.2).',
};

/** The switched-on faults of one mock; `has` is the only question the fault layer asks. */
export interface Faults {
  has(name: FaultName): boolean;
}

function isFaultName(name: string): name is FaultName {
  return (faultNames as readonly string[]).includes(name);
}

/** Throws on an unknown name so a misspelt fault can never pass as "conformant". */
export function parseFaults(names: readonly string[] = []): Faults {
  const unknown = names.filter((n) => !isFaultName(n));
  if (unknown.length > 0) {
    throw new Error(`unknown fault ${unknown.map((n) => `'${n}'`).join(', ')}; allowed: ${faultNames.join(', ')}`);
  }
  const on = new Set<string>(names);
  return { has: (name) => on.has(name) };
}
