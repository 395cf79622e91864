/**
 * invoice-since-complete (spec 4.2): the other direction of invoice-since.
 * An invoice the unfiltered GET /invoices shows, created (or updated) on or
 * after the date given as `createdSince` (or `updatedSince`), is in the
 * filtered list too: nothing that matches is left out. Two allowances keep it
 * fair to every reasonable server:
 * - a query date carries no time zone, so an invoice counts as surely after
 *   the date only from 14 hours (the largest UTC offset) after its UTC midnight;
 * - a default page size is not shown (spec 8), so when the filtered answer is
 *   as long as the unfiltered one it may be a cut page and is not judged.
 * Read-only.
 */
import fc from 'fast-check';
import { operationById } from '../../specs/contract.ts';
import { checkTest, test } from '../lib/check-test.ts';
import { checkProperty } from '../lib/property.ts';
import { allInvoices, listInvoices } from './invoices.ts';

const SLACK_MS = 14 * 3_600_000;

function utcDay(timestamp: string): string | undefined {
  const ms = Date.parse(timestamp);
  return Number.isFinite(ms) ? new Date(ms).toISOString().slice(0, 10) : undefined;
}

test(
  ...checkTest(
    {
      check: 'invoice-since-complete',
      clause: 'spec 4.2',
      operation: operationById('listInvoices'),
      title: 'createdSince and updatedSince leave out no invoice at or after the date',
    },
    async (ctx) => {
      const all = await allInvoices(ctx);
      const days = (field: 'created' | 'updated') =>
        [...new Set(all.map((i) => utcDay(i[field])).filter((d): d is string => d !== undefined))].sort();
      const query = fc.oneof(
        fc.constantFrom(...days('created')).map((date) => ({ param: 'createdSince', field: 'created' as const, date })),
        fc.constantFrom(...days('updated')).map((date) => ({ param: 'updatedSince', field: 'updated' as const, date })),
      );
      await checkProperty(ctx, [query], async ({ param, field, date }) => {
        const { items, exchange } = await listInvoices(ctx, { [param]: date });
        if (items.length >= all.length) return;
        const surelyAfter = Date.parse(`${date}T00:00:00Z`) + SLACK_MS;
        const listed = new Set(items.map((i) => i.id));
        const left = all.filter((inv) => Date.parse(inv[field]) >= surelyAfter && !listed.has(inv.id));
        if (left.length > 0)
          ctx.check.fail(
            `GET /invoices?${param}=${date} left out ${left.length} invoice(s) the unfiltered list shows ${field} after that date: ${left
              .slice(0, 5)
              .map((inv) => `${inv.id} (${field} ${inv[field]})`)
              .join(', ')}`,
            { exchanges: [exchange] },
          );
      });
    },
  ),
);
