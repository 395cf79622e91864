/**
 * invoice-since (spec 4.2): `createdSince` and `updatedSince` (dates) return
 * only invoices created, or updated, at or after that date. Every date the
 * invoices carry, the day after each and a day between each one's created and
 * updated days is sent on every run (suites/invoices/invoices.ts sinceDates), side
 * by side, so an ignored or widened filter shows older ones on any seed. The
 * records' timestamps are in UTC (spec 2), so the day an invoice was created or
 * updated on is its UTC day, and the date starts at its 00:00 UTC: a server that
 * reads it hours early lists invoices from the day before. `updatedSince` is
 * sent with the whole list's `createdSince` (since 1900, suites/lib/whole-list.ts),
 * which a server may need and which leaves no invoice out; `createdSince` under
 * test is sent alone. Read-only.
 */
import { operationById } from '../../specs/contract.ts';
import { checkTest, test, type CheckContext } from '../lib/index.ts';
import { mapBoundedInOrder } from '../lib/parallel.ts';
import { allInvoices, listInvoices, sinceQueries, type ListedInvoice, type SinceQuery } from './invoices.ts';

async function onlySince(ctx: CheckContext, { param, field, date }: SinceQuery): Promise<void> {
  const { items, exchange, query } = await listInvoices(ctx, { [param]: date });
  const floor = Date.parse(`${date}T00:00:00Z`);
  const early = items.map((inv: ListedInvoice, i) => ({ i, inv })).filter(({ inv }) => Date.parse(inv[field]) < floor);
  const first = early[0];
  if (first) {
    ctx.check.fail(
      `GET /invoices?${new URLSearchParams(query)} returned ${early.length} invoice(s) ${field} before that date: ${early
        .slice(0, 5)
        .map(({ inv }) => `${inv.id} (${field} ${inv[field]})`)
        .join(', ')}`,
      { exchanges: [exchange], pointer: `/${first.i}/${field}` },
    );
  }
}

test(
  ...checkTest(
    {
      check: 'invoice-since',
      operation: operationById('listInvoices'),
      title: 'createdSince and updatedSince return only invoices at or after the date',
    },
    async (ctx) => {
      const all = await allInvoices(ctx);
      await mapBoundedInOrder(sinceQueries(all), (q) => onlySince(ctx, q));
    },
  ),
);
