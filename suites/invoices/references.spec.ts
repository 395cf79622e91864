/**
 * invoice-references (spec 1, spec 2.6): "Invoices reference billing groups":
 * every id in an invoice's `billingGroupIds` names a billing group that
 * GET /billingGroups/{id} answers. Read-only; at most 100 distinct ids are read.
 */
import { operationById } from '../../specs/contract.ts';
import { checkTest, test, skip, RECORD_IDENTITY } from '../lib/index.ts';
import { allInvoices } from './invoices.ts';

const MAX_READS = 100;

test(
  ...checkTest(
    {
      check: 'invoice-references',
      operation: operationById('getBillingGroup'),
      title: 'billingGroupIds refer to billing groups that exist',
    },
    async (ctx) => {
      const all = await allInvoices(ctx);
      const referrers = new Map<string, string>();
      for (const inv of all) for (const id of inv.billingGroupIds) if (!referrers.has(id)) referrers.set(id, inv.id);
      for (const [billingGroupId, invoiceId] of [...referrers].slice(0, MAX_READS)) {
        const x = await ctx.api.op(operationById('getBillingGroup'), { params: { billingGroupId } });
        const answered = x.response.status >= 200 && x.response.status < 300;
        const id = (x.response.body as { id?: unknown } | undefined)?.id;
        // A 2xx with another group is record-identity's fault (a GET by id answers that record).
        if (answered && typeof id === 'string' && id !== billingGroupId)
          skip.blockedBy(ctx, RECORD_IDENTITY, x, `GET /billingGroups/${billingGroupId} answered billing group ${id}`);
        if (!answered || id !== billingGroupId)
          ctx.check.fail(
            `invoice ${invoiceId} references billing group ${billingGroupId}, but GET /billingGroups/${billingGroupId} answered ${x.response.status}${x.response.status < 300 ? ` with id ${JSON.stringify((x.response.body as { id?: unknown } | undefined)?.id)}` : ''}`,
            { exchanges: [x] },
          );
      }
    },
  ),
);
