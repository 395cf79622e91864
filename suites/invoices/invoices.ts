/** GET /invoices as a flow step: the answer checked (2xx, invoice-list shape) and reduced to its items. */
import { operationById } from '../../specs/contract.ts';
import type { CheckContext } from '../lib/check-test.ts';
import type { Exchange } from '../lib/exchange.ts';

export interface ListedInvoice {
  id: string;
  created: string;
  updated: string;
  billingGroupIds: string[];
}

export type InvoiceQuery = Record<string, string | number>;

export async function listInvoices(
  ctx: CheckContext,
  query: InvoiceQuery = {},
): Promise<{ items: ListedInvoice[]; exchange: Exchange }> {
  const x = await ctx.api.op(operationById('listInvoices'), { query });
  ctx.check.expectSuccess(x, `GET /invoices${Object.keys(query).length ? ` with ${JSON.stringify(query)}` : ''}`);
  ctx.check.expectSchema(x, 'invoice-list', 'spec 4.2');
  return { items: x.response.body as ListedInvoice[], exchange: x };
}

/** The unpaged list; skips the test (saying why) when the deployment has no invoice to judge. */
export async function allInvoices(ctx: CheckContext): Promise<ListedInvoice[]> {
  const { items } = await listInvoices(ctx);
  if (items.length === 0)
    ctx.testInfo.skip(
      true,
      'GET /invoices lists no invoice: nothing to page, filter or read, and the spec offers no way to create one',
    );
  return items;
}
