/**
 * invoice-limit (spec 4.2): GET /invoices?limit=L answers at most L invoices, alone, on any page and with the since
 * filters. A server may answer fewer (its maximum page size is not shown, spec 8), so only "at most" is asserted.
 * Every L from 1 to one less than the number of invoices (at most MAX_LIMITS of them) is sent on every run, side by
 * side, so an ignored limit shows as too many whatever the seed; then the small limits on the first pages of each
 * since filter and of both together (suites/invoices/invoices.ts pagedFilters), where a server that applies the limit
 * to the unfiltered list only, or to the first page only, answers more. Each carries the whole list's `createdSince`
 * where it has none (suites/lib/whole-list.ts), which a server may need. Read-only.
 */
import { operationById } from '../../specs/contract.ts';
import { checkTest, test, type CheckContext } from '../lib/index.ts';
import { mapBoundedInOrder } from '../lib/parallel.ts';
import { allInvoices, listInvoices, pagedFilters, type InvoiceQuery } from './invoices.ts';

const MAX_LIMITS = 50;
/** Limits and page numbers combined with the filters: page 1 and 2 are pages whether the first is 0 or 1. */
const SMALL_LIMITS = [1, 2, 3];
const PAGES = [1, 2];

async function atMost(ctx: CheckContext, query: InvoiceQuery, limit: number): Promise<void> {
  const { items, exchange } = await listInvoices(ctx, { ...query, limit });
  if (items.length > limit)
    ctx.check.fail(
      `GET /invoices?${new URLSearchParams(exchange.request.url.split('?')[1] ?? '')} answered ${items.length} invoices`,
      {
        exchanges: [exchange],
        pointer: `/${limit}`,
      },
    );
}

test(
  ...checkTest(
    {
      check: 'invoice-limit',
      operation: operationById('listInvoices'),
      title: 'limit=L answers at most L invoices, on any page and with the since filters',
    },
    async (ctx) => {
      const all = await allInvoices(ctx);
      const limits = Array.from({ length: Math.min(MAX_LIMITS, Math.max(1, all.length - 1)) }, (_, i) => i + 1);
      await mapBoundedInOrder(limits, (limit) => atMost(ctx, {}, limit));
      const combined = pagedFilters(all).flatMap((f) =>
        SMALL_LIMITS.flatMap((limit) => PAGES.map((page) => ({ query: { ...f, page } as InvoiceQuery, limit }))),
      );
      await mapBoundedInOrder(combined, ({ query, limit }) => atMost(ctx, query, limit));
    },
  ),
);
