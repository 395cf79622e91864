/**
 * invoice-limit (spec 4.2): GET /invoices?limit=L answers at most L invoices.
 * A server may answer fewer (its maximum page size is not shown, spec 8), so
 * only "at most" is asserted. Every L from 1 to one less than the number of
 * invoices (at most MAX_LIMITS of them) is sent on every run, side by side, so an
 * ignored limit shows as too many whatever the seed. Each carries the whole
 * list's `createdSince` (suites/lib/whole-list.ts), which a server may need.
 * Read-only.
 */
import { operationById } from '../../specs/contract.ts';
import { checkTest, test } from '../lib/index.ts';
import { mapBoundedInOrder } from '../lib/parallel.ts';
import { allInvoices, listInvoices } from './invoices.ts';

const MAX_LIMITS = 50;

test(
  ...checkTest(
    {
      check: 'invoice-limit',
      operation: operationById('listInvoices'),
      title: 'limit=L answers at most L invoices',
    },
    async (ctx) => {
      const all = await allInvoices(ctx);
      const limits = Array.from({ length: Math.min(MAX_LIMITS, Math.max(1, all.length - 1)) }, (_, i) => i + 1);
      await mapBoundedInOrder(limits, async (limit) => {
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
