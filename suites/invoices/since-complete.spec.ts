/**
 * invoice-since-complete (spec 4.2): the other direction of invoice-since. An invoice the run knows (the whole
 * GET /invoices, createdSince 1900, core/whole-list.ts, and every page of it: the unpaged list may itself be a
 * first page, suites/lib/invoice-pages.ts), created (or updated) on or after the date given as `createdSince` (or
 * `updatedSince`, sent with the whole list's createdSince), or both when both are given, is in the filtered list:
 * nothing that matches is left out. The dates sent are those of invoice-since, all of them on every run: the days
 * between an invoice's created and updated days are where a server that reads updatedSince on `created` leaves it
 * out. The date starts at its 00:00 UTC (the records' timestamps are in UTC, spec 2), so an invoice created or
 * updated at or after that instant is in the answer. A default page size is not shown (spec 8), so a filtered answer
 * is judged only when nothing says it was cut (suites/lib/world/whole-lists.ts: no paging sign, and shorter than
 * another answer without a limit, or than 10 invoices). Read-only.
 */
import { operationById } from '../../specs/contract.ts';
import { checkTest, test, type CheckContext, knownInvoices, mapBoundedInOrder } from '../lib/index.ts';
import { wholeness } from '../lib/world/index.ts';
import {
  allInvoices,
  listInvoices,
  pairedFilters,
  singleFilters,
  sinceMismatch,
  type ListedInvoice,
  type SinceFilter,
} from './invoices.ts';

async function nothingLeftOut(ctx: CheckContext, known: readonly ListedInvoice[], f: SinceFilter): Promise<void> {
  const { items, exchange, query } = await listInvoices(ctx, { ...f });
  const w = wholeness(ctx, exchange, 'invoice(s)');
  if (!w.whole) return;
  const listed = new Set(items.map((i) => i.id));
  const left = known.filter((inv) => sinceMismatch(inv, f) === undefined && !listed.has(inv.id));
  if (left.length > 0)
    ctx.check.fail(
      `GET /invoices?${new URLSearchParams(query)} left out ${left.length} invoice(s) the run knows that match it (from the whole list and its pages): ${left
        .slice(0, 5)
        .map((inv) => `${inv.id} (created ${inv.created}, updated ${inv.updated})`)
        .join(', ')}; it answered ${w.why}, so it is the whole answer`,
      { exchanges: [exchange] },
    );
}

test(
  ...checkTest(
    {
      check: 'invoice-since-complete',
      operation: operationById('listInvoices'),
      title: 'createdSince and updatedSince, alone and together, leave out no invoice at or after the date',
    },
    async (ctx) => {
      const all = await allInvoices(ctx);
      const known = [...(await knownInvoices(ctx, all as unknown as Record<string, unknown>[])).values()].filter(
        (i): i is Record<string, unknown> & ListedInvoice =>
          typeof i.created === 'string' && typeof i.updated === 'string',
      );
      await mapBoundedInOrder([...singleFilters(all), ...pairedFilters(all)], (f) => nothingLeftOut(ctx, known, f));
    },
  ),
);
