/**
 * invoice-forms (spec 2.6, spec 4.2): GET /invoices/{id} carries
 * `billingGroups`; GET /invoicesBillingGroupDetailsSnapshot/{id} carries
 * `billingGroupDetails` "in place of billingGroups", so it must not also carry
 * `billingGroups`. Read-only. An answer that is another invoice is
 * record-identity's to report: this check is then blocked by it.
 */
import fc from 'fast-check';
import { operationById } from '../../specs/contract.ts';
import { checkTest, test, skip, target, RECORD_IDENTITY, checkProperty } from '../lib/index.ts';
import { allInvoices } from './invoices.ts';

test(
  ...checkTest(
    {
      check: 'invoice-forms',
      operation: operationById('getInvoiceBillingGroupDetailsSnapshot'),
      title: 'the single invoice has billingGroups, the snapshot billingGroupDetails instead',
    },
    async (ctx) => {
      const all = await allInvoices(ctx);
      await checkProperty(
        ctx,
        [fc.constantFrom(...all.map((i) => i.id))],
        async (invoiceId) => {
          const single = await ctx.api.op(operationById('getInvoice'), { params: { invoiceId } });
          ctx.check.expectSuccess(single, `GET /invoices/${invoiceId}`);
          ctx.check.expectSchema(single, 'invoice', 'spec 2.6');
          const snapshot = await ctx.api.op(operationById('getInvoiceBillingGroupDetailsSnapshot'), {
            params: { invoiceId },
          });
          ctx.check.expectSuccess(snapshot, `GET /invoicesBillingGroupDetailsSnapshot/${invoiceId}`);
          ctx.check.expectSchema(snapshot, 'invoice-snapshot', 'spec 2.6');
          // Another invoice's answer is record-identity's fault (a GET by id answers that record), not a form.
          for (const x of [single, snapshot]) {
            const id = (x.response.body as { id?: unknown }).id;
            if (id !== invoiceId)
              skip.blockedBy(
                ctx,
                RECORD_IDENTITY,
                x,
                `asked for invoice ${invoiceId}, got invoice ${JSON.stringify(id)}`,
              );
          }
          if ('billingGroups' in (snapshot.response.body as object)) {
            ctx.check.fail(
              `the snapshot of invoice ${invoiceId} carries billingGroups besides billingGroupDetails; spec 2.6 has billingGroupDetails in place of billingGroups`,
              { exchanges: [snapshot], pointer: '/billingGroups' },
            );
          }
        },
        { numRuns: Math.min(all.length, target().runs), independentRuns: true },
      );
    },
  ),
);
