/**
 * Every check of the suites as data: its id (the `check` annotation and the first word of its tests' titles), the
 * clauses of ../shared/interface-spec.md it enforces, how much its failures weigh by default, and the suite it lives
 * in. A check's tests take their clause and severity from here (suites/lib/check-test.ts), and `CheckId`, derived
 * from the rows, types every check id the suites name: a check, or the owner a check is blocked by (one fault, one
 * failure), that has no row does not compile. The rows do not list what each check owns: any check whose rule another
 * check meets on its way is the owner that check names (`check.blocked(owner, …)`); a comment says it where a check
 * owns more than its clauses tell.
 *
 * `tests/suites/catalogue.test.ts` keeps the rest true: every row is some suite's, in the suite it names, and every
 * spec clause cited here is in the project's clause list. docs/checks-and-severity.md says in words what each check
 * judges.
 */
import type { ClauseId } from '../../specs/check-ids.ts';
import type { Severity } from './check-failure.ts';

export const SUITES = [
  'contract',
  'records',
  'offers',
  'lifecycle',
  'billing',
  'invoices',
  'model',
  'bad-input',
  'webhooks',
] as const;
export type SuiteName = (typeof SUITES)[number];

export interface CatalogueEntry<Id extends string = CheckId> {
  id: Id;
  clauses: readonly ClauseId[];
  /** The weight of the check's failures; a failure record may carry its own (a 5xx is always `contract`). */
  severity: Severity;
  suite: SuiteName;
}

const RESPONSE_SHAPES = ['spec 2.2', 'spec 2.4', 'spec 2.5', 'spec 2.6', 'spec 2.7'] as const;

const ROWS = [
  { id: 'auth-required', clauses: ['spec 5 rule 2'], severity: 'contract', suite: 'contract' },
  // Owns every documented response shape (spec 2).
  {
    id: 'response-schema',
    clauses: ['spec 4.1', 'spec 4.2', 'spec 4.3', ...RESPONSE_SHAPES],
    severity: 'contract',
    suite: 'contract',
  },
  { id: 'json-content-type', clauses: ['spec 4'], severity: 'contract', suite: 'contract' },
  // Owns a 5xx answer.
  { id: 'no-5xx', clauses: ['HTTP semantics'], severity: 'contract', suite: 'contract' },
  { id: 'operation-served', clauses: ['spec 4.3'], severity: 'contract', suite: 'contract' },
  { id: 'deprecated-served', clauses: ['spec 9 rule 3'], severity: 'contract', suite: 'contract' },
  { id: 'utc-timestamps', clauses: ['spec 2'], severity: 'contract', suite: 'contract' },
  { id: 'event-cancel', clauses: ['spec 3 rule 5'], severity: 'contract', suite: 'contract' },
  { id: 'api-prefix', clauses: ['spec 9 rule 2'], severity: 'contract', suite: 'contract' },
  { id: 'offer-upsert', clauses: ['spec 1', 'spec 2.3', 'spec 4.1'], severity: 'contract', suite: 'offers' },
  // Owns the record a GET by id answers: the record with that id; checks that read by id are blocked by it.
  {
    id: 'record-identity',
    clauses: ['spec 4.1', 'spec 4.2', 'spec 4.3'],
    severity: 'contract',
    suite: 'contract',
  },
  { id: 'offer-idempotent', clauses: ['spec 1', 'spec 4.1'], severity: 'contract', suite: 'offers' },
  { id: 'offer-cancel', clauses: ['spec 3 rule 4'], severity: 'contract', suite: 'offers' },
  { id: 'offer-settled', clauses: ['spec 2.2', 'spec 2.3'], severity: 'contract', suite: 'offers' },
  { id: 'offer-create-ids', clauses: ['spec 4.1', 'spec 2.7'], severity: 'contract', suite: 'offers' },
  { id: 'offer-bulk', clauses: ['spec 2.3', 'spec 4.1'], severity: 'contract', suite: 'offers' },
  { id: 'offer-bulk-flags', clauses: ['spec 2.3', 'spec 3 rule 4'], severity: 'contract', suite: 'offers' },
  { id: 'offer-listing', clauses: ['spec 4.1'], severity: 'contract', suite: 'offers' },
  // Owns the batch status of a write (GET /bookings/requestsStatus/batch/{batchId}).
  { id: 'batch-status', clauses: ['spec 1'], severity: 'contract', suite: 'offers' },
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
  // Owns one record showing the same documented fields in every view that shows it (list, by id, details, snapshot,
  // filters): the world model (suites/lib/world/) finds where two views disagree, and this check reports it.
  {
    id: 'view-consistency',
    clauses: ['spec 2.4', 'spec 2.5', 'spec 2.6', 'spec 3 rule 1', 'spec 4.1', 'spec 4.2', 'spec 4.3'],
    severity: 'contract',
    suite: 'billing',
  },
  // Section 4.3 records as path-addressed records (suites/lib/world/record-groups.ts): a PUT stores the record at its
  // path, a DELETE removes or marks it, and a write changes no record but the one its path names.
  { id: 'record-upsert', clauses: ['spec 1', 'spec 4.3'], severity: 'contract', suite: 'records' },
  { id: 'record-delete', clauses: ['spec 1', 'spec 4.3'], severity: 'contract', suite: 'records' },
  { id: 'record-isolation', clauses: ['spec 1', 'spec 4.3'], severity: 'contract', suite: 'records' },
  // A GET changes nothing a later GET shows (RFC 9110 9.2.1: GET is safe; spec 1: clients read).
  { id: 'safe-reads', clauses: ['HTTP semantics', 'spec 1'], severity: 'contract', suite: 'model' },
  // What was written stays until written again, judged by an audit a visibility deadline after the last write.
  {
    id: 'durable-state',
    clauses: ['spec 1', 'spec 3 rule 1', 'spec 3 rule 2', 'spec 3 rule 4', 'spec 3 rule 5'],
    severity: 'contract',
    suite: 'model',
  },
  // Random sequences across every operation against the model of the spec's state (suites/lib/world/); owns only the
  // divergences that no owner's own test (its control) shows.
  {
    id: 'world-model',
    clauses: [
      'HTTP semantics',
      'spec 1',
      'spec 2.2',
      'spec 2.3',
      'spec 3 rule 1',
      'spec 3 rule 2',
      'spec 3 rule 3',
      'spec 3 rule 4',
      'spec 3 rule 5',
      'spec 4.1',
      'spec 4.2',
      'spec 4.3',
    ],
    severity: 'contract',
    suite: 'model',
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
] as const satisfies readonly CatalogueEntry<string>[];

/** The id of a check of the suites: one of the catalogue's rows. */
export type CheckId = (typeof ROWS)[number]['id'];
/** The clauses the row of `C` cites: a test of `C` may narrow its citation to some of them, never add one. */
export type ClauseOf<C extends CheckId> = Extract<(typeof ROWS)[number], { id: C }>['clauses'][number];

export const CATALOGUE: readonly CatalogueEntry[] = ROWS;

const BY_ID = new Map<string, CatalogueEntry>(CATALOGUE.map((e) => [e.id, e]));

/**
 * `cited` as clauses of the row of `check`, for a citation read from the contract when the suites load (the clause an
 * operation or a schema names). A clause the row lacks is a bug of the suites: it throws, naming the row to extend.
 */
export function clausesOf<C extends CheckId>(check: C, cited: readonly string[]): ClauseOf<C>[] {
  const row: readonly string[] = catalogueEntry(check).clauses;
  const missing = cited.filter((c) => !row.includes(c));
  if (missing.length > 0)
    throw new Error(
      `suites/lib/catalogue.ts: add ${missing.map((c) => `'${c}'`).join(', ')} to the clauses of '${check}'`,
    );
  return cited as ClauseOf<C>[];
}

/** The row of a check; for any other text (a report's or a document's), undefined. */
export function catalogueEntry(id: CheckId): CatalogueEntry;
export function catalogueEntry(id: string): CatalogueEntry | undefined;
export function catalogueEntry(id: string): CatalogueEntry | undefined {
  return BY_ID.get(id);
}
