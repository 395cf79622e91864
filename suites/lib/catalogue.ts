/**
 * Every check of the suites as data: its id (the `check` annotation and the first word of its tests' titles), the
 * clauses of ../shared/interface-spec.md it enforces, how much its failures weigh by default, the suite it lives in,
 * and the shapes it owns (one fault, one failure: a check that meets a shape it does not own is blocked, not failed).
 *
 * `tests/suites/catalogue.test.ts` keeps it true: every check id used in the suites has a row here (its message
 * says which row to add), every clause a suite cites for a check is in the row, and every spec clause cited here
 * exists in the spec. docs/checks-and-severity.md says in words what each check judges.
 */
import type { Severity } from './check-failure.ts';

export const SUITES = ['contract', 'offers', 'lifecycle', 'billing', 'invoices', 'bad-input', 'webhooks'] as const;
export type SuiteName = (typeof SUITES)[number];

/** A clause of the spec: a section ("spec 4.1"), or a numbered rule of a section ("spec 3 rule 4"). */
export type SpecClauseId = `spec ${number}` | `spec ${number}.${number}` | `spec ${number} rule ${number}`;
/** Beyond the spec: a server answering 5xx breaks HTTP itself, whatever the spec says. */
export type ClauseId = SpecClauseId | 'HTTP semantics';

export interface CatalogueEntry {
  id: string;
  clauses: readonly ClauseId[];
  /** The weight of the check's failures; a failure record may carry its own (a 5xx is always `contract`). */
  severity: Severity;
  suite: SuiteName;
  /** What this check alone fails a server for, and other checks meeting it are blocked by. */
  owns?: readonly string[];
}

const RESPONSE_SHAPES = ['spec 2.2', 'spec 2.4', 'spec 2.5', 'spec 2.6', 'spec 2.7'] as const;

export const CATALOGUE: readonly CatalogueEntry[] = [
  { id: 'auth-required', clauses: ['spec 5 rule 2'], severity: 'contract', suite: 'contract' },
  {
    id: 'response-schema',
    clauses: ['spec 4.1', 'spec 4.2', 'spec 4.3', ...RESPONSE_SHAPES],
    severity: 'contract',
    suite: 'contract',
    owns: ['every documented response shape (spec 2)'],
  },
  { id: 'json-content-type', clauses: ['spec 4'], severity: 'contract', suite: 'contract' },
  { id: 'no-5xx', clauses: ['HTTP semantics'], severity: 'contract', suite: 'contract', owns: ['a 5xx answer'] },
  { id: 'operation-served', clauses: ['spec 4.3'], severity: 'contract', suite: 'contract' },
  { id: 'deprecated-served', clauses: ['spec 9 rule 3'], severity: 'contract', suite: 'contract' },
  { id: 'utc-timestamps', clauses: ['spec 2'], severity: 'contract', suite: 'contract' },
  { id: 'event-cancel', clauses: ['spec 3 rule 5'], severity: 'contract', suite: 'contract' },
  { id: 'api-prefix', clauses: ['spec 9 rule 2'], severity: 'contract', suite: 'contract' },
  { id: 'offer-upsert', clauses: ['spec 1', 'spec 2.3', 'spec 4.1'], severity: 'contract', suite: 'offers' },
  // A GET by id answers the record with that id; checks that read by id are blocked by it.
  {
    id: 'record-identity',
    clauses: ['spec 4.1', 'spec 4.2', 'spec 4.3'],
    severity: 'contract',
    suite: 'contract',
    owns: ['the record a GET by id answers'],
  },
  { id: 'offer-idempotent', clauses: ['spec 1', 'spec 4.1'], severity: 'contract', suite: 'offers' },
  { id: 'offer-cancel', clauses: ['spec 3 rule 4'], severity: 'contract', suite: 'offers' },
  { id: 'offer-settled', clauses: ['spec 2.2', 'spec 2.3'], severity: 'contract', suite: 'offers' },
  { id: 'offer-create-ids', clauses: ['spec 4.1', 'spec 2.7'], severity: 'contract', suite: 'offers' },
  { id: 'offer-bulk', clauses: ['spec 2.3', 'spec 4.1'], severity: 'contract', suite: 'offers' },
  { id: 'offer-bulk-flags', clauses: ['spec 2.3', 'spec 3 rule 4'], severity: 'contract', suite: 'offers' },
  { id: 'offer-listing', clauses: ['spec 4.1'], severity: 'contract', suite: 'offers' },
  {
    id: 'batch-status',
    clauses: ['spec 1'],
    severity: 'contract',
    suite: 'offers',
    owns: ['the batch status of a write (GET /bookings/requestsStatus/batch/{batchId})'],
  },
  {
    id: 'offer-lifecycle',
    clauses: ['spec 1', 'spec 2.3', 'spec 3 rule 4', 'spec 4.1'],
    severity: 'contract',
    suite: 'lifecycle',
  },
  {
    id: 'billing-forced-status',
    clauses: ['spec 3 rule 1', 'spec 3 rule 2'],
    severity: 'contract',
    suite: 'billing',
  },
  { id: 'billing-bulk-status', clauses: ['spec 3 rule 3'], severity: 'contract', suite: 'billing' },
  { id: 'billing-filters', clauses: ['spec 4.2'], severity: 'contract', suite: 'billing' },
  { id: 'billing-filters-complete', clauses: ['spec 4.2'], severity: 'contract', suite: 'billing' },
  { id: 'billing-details', clauses: ['spec 2.5'], severity: 'contract', suite: 'billing' },
  // The world model (suites/lib/world/) finds where two views of one record disagree; this check reports it.
  {
    id: 'view-consistency',
    clauses: ['spec 2.4', 'spec 2.5', 'spec 2.6', 'spec 3 rule 1', 'spec 4.2'],
    severity: 'contract',
    suite: 'billing',
    owns: [
      'one record, the same documented fields in every view that shows it (list, by id, details, snapshot, filters)',
    ],
  },
  { id: 'invoice-limit', clauses: ['spec 4.2'], severity: 'contract', suite: 'invoices' },
  { id: 'invoice-paging', clauses: ['spec 4.2'], severity: 'contract', suite: 'invoices' },
  { id: 'invoice-since', clauses: ['spec 4.2'], severity: 'contract', suite: 'invoices' },
  { id: 'invoice-since-complete', clauses: ['spec 4.2'], severity: 'contract', suite: 'invoices' },
  { id: 'invoice-forms', clauses: ['spec 2.6'], severity: 'contract', suite: 'invoices' },
  { id: 'invoice-references', clauses: ['spec 1', 'spec 2.6'], severity: 'contract', suite: 'invoices' },
  { id: 'unknown-price-strategy', clauses: ['spec 2.2', 'spec 3'], severity: 'contract', suite: 'bad-input' },
  {
    id: 'bad-input-rejected',
    clauses: ['HTTP semantics', 'spec 2.3', 'spec 4', 'spec 5 rule 3'],
    severity: 'advisory',
    suite: 'bad-input',
  },
  { id: 'webhook-envelope', clauses: ['spec 6'], severity: 'advisory', suite: 'webhooks' },
  { id: 'webhook-booking-allocated', clauses: ['spec 6 rule 1'], severity: 'contract', suite: 'webhooks' },
  { id: 'webhook-booking-updated', clauses: ['spec 6 rule 2'], severity: 'contract', suite: 'webhooks' },
  { id: 'webhook-booking-payload', clauses: ['spec 6'], severity: 'contract', suite: 'webhooks' },
  { id: 'webhook-fact', clauses: ['spec 6 rule 3'], severity: 'contract', suite: 'webhooks' },
];

export function catalogueEntry(id: string): CatalogueEntry | undefined {
  return CATALOGUE.find((e) => e.id === id);
}
