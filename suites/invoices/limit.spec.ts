/**
 * invoice-limit (spec 4.2): GET /invoices?limit=L answers at most L invoices.
 * A server may answer fewer (its maximum page size is not shown, spec 8), so
 * only "at most" is asserted. L is drawn from 1 to the number of invoices, so
 * an ignored limit shows as too many. Read-only.
 */
import fc from 'fast-check';
import { operationById } from '../../specs/contract.ts';
import { checkTest, test } from '../lib/check-test.ts';
import { checkProperty } from '../lib/property.ts';
import { allInvoices, listInvoices } from './invoices.ts';

test(
  ...checkTest(
    {
      check: 'invoice-limit',
      clause: 'spec 4.2',
      operation: operationById('listInvoices'),
      title: 'limit=L answers at most L invoices',
    },
    async (ctx) => {
      const all = await allInvoices(ctx);
      await checkProperty(ctx, [fc.integer({ min: 1, max: Math.max(1, all.length - 1) })], async (limit) => {
        const { items, exchange } = await listInvoices(ctx, { limit });
        if (items.length > limit)
          ctx.check.fail(`GET /invoices?limit=${limit} answered ${items.length} invoices`, {
            exchanges: [exchange],
            pointer: `/${limit}`,
          });
      });
    },
  ),
);
