/**
 * invoice-since-complete (spec 4.2): the other direction of invoice-since.
 * An invoice the whole GET /invoices shows (createdSince 1900,
 * suites/lib/whole-list.ts), created (or updated) on or after the date given as
 * `createdSince` (or `updatedSince`, sent with the whole list's createdSince), is
 * in the filtered list too: nothing that matches is left out. The dates sent are those
 * of invoice-since, all of them on every run: the days between an invoice's
 * created and updated days are where a server that reads updatedSince on
 * `created` leaves it out. The date starts at its 00:00 UTC (the records'
 * timestamps are in UTC, spec 2), so an invoice created or updated at or after
 * that instant is in the answer. A default page size is not shown (spec 8), so
 * when the filtered answer is as long as the whole one it may be a cut page
 * and is not judged.
 * Read-only.
 */
import { operationById } from '../../specs/contract.ts';
import { checkTest, test, type CheckContext } from '../lib/index.ts';
import { mapBoundedInOrder } from '../lib/parallel.ts';
import { allInvoices, listInvoices, sinceQueries, type ListedInvoice, type SinceQuery } from './invoices.ts';

async function nothingLeftOut(
  ctx: CheckContext,
  all: ListedInvoice[],
  { param, field, date }: SinceQuery,
): Promise<void> {
  const { items, exchange, query } = await listInvoices(ctx, { [param]: date });
  if (items.length >= all.length) return;
  const surelyAfter = Date.parse(`${date}T00:00:00Z`);
  const listed = new Set(items.map((i) => i.id));
  const left = all.filter((inv) => Date.parse(inv[field]) >= surelyAfter && !listed.has(inv.id));
  if (left.length > 0)
    ctx.check.fail(
      `GET /invoices?${new URLSearchParams(query)} left out ${left.length} invoice(s) the whole list shows ${field} after that date: ${left
        .slice(0, 5)
        .map((inv) => `${inv.id} (created ${inv.created}, updated ${inv.updated})`)
        .join(', ')}`,
      { exchanges: [exchange] },
    );
}

test(
  ...checkTest(
    {
      check: 'invoice-since-complete',
      operation: operationById('listInvoices'),
      title: 'createdSince and updatedSince leave out no invoice at or after the date',
    },
    async (ctx) => {
      const all = await allInvoices(ctx);
      await mapBoundedInOrder(sinceQueries(all), (q) => nothingLeftOut(ctx, all, q));
    },
  ),
);
