/**
 * invoice-since (spec 4.2): `createdSince` and `updatedSince` (dates) return
 * only invoices created, or updated, at or after that date. The date is drawn
 * from the invoices' own dates so an ignored filter shows older ones. A query
 * date carries no time zone; spec 2 says timestamps are UTC, but a server that
 * reads the date in its own zone is not failed for it: a timestamp counts as
 * before the date only when it is more than 14 hours (the largest UTC offset)
 * before the date's UTC midnight. Read-only.
 */
import fc from 'fast-check';
import { operationById } from '../../specs/contract.ts';
import { checkTest, test } from '../lib/check-test.ts';
import { checkProperty } from '../lib/property.ts';
import { allInvoices, listInvoices, type ListedInvoice } from './invoices.ts';

const SLACK_MS = 14 * 3_600_000;

function utcDate(timestamp: string): string | undefined {
  const ms = Date.parse(timestamp);
  return Number.isFinite(ms) ? new Date(ms).toISOString().slice(0, 10) : undefined;
}

test(
  ...checkTest(
    {
      check: 'invoice-since',
      clause: 'spec 4.2',
      operation: operationById('listInvoices'),
      title: 'createdSince and updatedSince return only invoices at or after the date',
    },
    async (ctx) => {
      const all = await allInvoices(ctx);
      const datesOf = (field: 'created' | 'updated'): string[] =>
        [...new Set(all.map((i) => utcDate(i[field])).filter((d): d is string => d !== undefined))].sort();
      const query = fc.oneof(
        fc
          .constantFrom(...datesOf('created'))
          .map((date) => ({ param: 'createdSince' as const, field: 'created' as const, date })),
        fc
          .constantFrom(...datesOf('updated'))
          .map((date) => ({ param: 'updatedSince' as const, field: 'updated' as const, date })),
      );
      await checkProperty(ctx, [query], async ({ param, field, date }) => {
        const { items, exchange } = await listInvoices(ctx, { [param]: date });
        const floor = Date.parse(`${date}T00:00:00Z`) - SLACK_MS;
        const early = items
          .map((inv: ListedInvoice, i) => ({ i, inv }))
          .filter(({ inv }) => Date.parse(inv[field]) < floor);
        const first = early[0];
        if (first) {
          ctx.check.fail(
            `GET /invoices?${param}=${date} returned ${early.length} invoice(s) ${field} before that date: ${early
              .slice(0, 5)
              .map(({ inv }) => `${inv.id} (${field} ${inv[field]})`)
              .join(', ')}`,
            { exchanges: [exchange], pointer: `/${first.i}/${field}` },
          );
        }
      });
    },
  ),
);
