/** Invoices (spec 4.2): a filtered, paged list and two single views that differ in what they embed (spec 2.6). */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { MockContext } from '../context.ts';
import { HttpError, notFound } from '../errors.ts';
import { dateStartMs } from '../formats.ts';
import { pageOfInvoices, type Invoice, type InvoicePageRequest } from '../invoice-store.ts';
import type { JsonObject } from '../json.ts';
import { emptyList } from '../lists.ts';
import { dateParam, positiveIntParam, wholeNumberParam } from '../query.ts';
import { pathParam } from './params.ts';

/** The invoice-bad-created-timestamp fault: a day-first local time, a classic non-ISO rendering. */
function badTimestamp(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`;
}

function header(ctx: MockContext, i: Invoice): JsonObject {
  const { billingGroupIds: _ids, ...rest } = i;
  return ctx.faults.has('invoice-bad-created-timestamp') ? { ...rest, created: badTimestamp(i.created) } : rest;
}

function listItem(ctx: MockContext, i: Invoice): JsonObject {
  return { ...header(ctx, i), billingGroupIds: [...i.billingGroupIds] };
}

function withBillingGroups(ctx: MockContext, i: Invoice): JsonObject {
  return {
    ...header(ctx, i),
    billingGroups: i.billingGroupIds.map((id) => ctx.billing.get(id)).filter((g) => g !== undefined),
  };
}

/** The snapshot-other-invoice-groups fault: the groups of the invoice listed after this one (the first after the last). */
function snapshotGroupIds(ctx: MockContext, i: Invoice): string[] {
  if (!ctx.faults.has('snapshot-other-invoice-groups')) return i.billingGroupIds;
  const all = ctx.invoices.list();
  const next = all[(all.findIndex((x) => x.id === i.id) + 1) % all.length];
  return next?.billingGroupIds ?? i.billingGroupIds;
}

function withDetails(ctx: MockContext, i: Invoice): JsonObject {
  const out: JsonObject = {
    ...header(ctx, i),
    billingGroupDetails: snapshotGroupIds(ctx, i)
      .map((id) => ctx.billing.details(id))
      .filter((d) => d !== undefined),
  };
  if (ctx.faults.has('snapshot-has-billing-groups')) out.billingGroups = withBillingGroups(ctx, i).billingGroups;
  return out;
}

function readPageRequest(ctx: MockContext, request: FastifyRequest): InvoicePageRequest {
  const createdSince = dateParam(request, 'createdSince');
  if (ctx.variant.invoiceListNeedsSince && createdSince === undefined)
    throw new HttpError(400, 'INVALID_QUERY', 'GET /invoices needs createdSince');
  const updatedSince = dateParam(request, 'updatedSince');
  const limit = positiveIntParam(request, 'limit');
  const firstPage = ctx.variant.firstPage ?? 1;
  const page = firstPage === 0 ? wholeNumberParam(request, 'page') : positiveIntParam(request, 'page');
  const req: InvoicePageRequest = { firstPage, defaultPageSize: ctx.variant.defaultPageSize ?? 0 };
  // created-since-widened: counted from the day before; created-since-hours-early: from 10:00 UTC of the day before.
  const widen = ctx.faults.has('created-since-widened')
    ? 86_400_000
    : ctx.faults.has('created-since-hours-early')
      ? 14 * 3_600_000
      : 0;
  if (createdSince !== undefined && !ctx.faults.has('created-since-ignored'))
    req.createdSinceMs = (dateStartMs(createdSince) as number) - widen;
  if (updatedSince !== undefined) req.updatedSinceMs = dateStartMs(updatedSince) as number;
  if (ctx.faults.has('updated-since-on-created')) req.updatedSinceOn = 'created';
  if (limit !== undefined && !ctx.faults.has('limit-ignored')) req.limit = limit;
  // page-repeats: every page after the first answers the first page again.
  if (page !== undefined) req.page = ctx.faults.has('page-repeats') ? firstPage : page;
  return req;
}

function existingInvoice(ctx: MockContext, request: FastifyRequest): Invoice {
  const invoice = ctx.invoices.get(pathParam(request, 'invoiceId'));
  if (!invoice) throw notFound('invoice');
  if (!ctx.faults.has('invoice-get-wrong')) return invoice;
  // invoice-get-wrong: the invoice listed after the one asked for (the first after the last).
  const all = ctx.invoices.list();
  return all[(all.findIndex((i) => i.id === invoice.id) + 1) % all.length] ?? invoice;
}

/** The invoice-json-bom fault: the JSON text is sent after a UTF-8 byte-order mark (RFC 8259 section 8.1 forbids one). */
async function withByteOrderMark(_request: FastifyRequest, _reply: FastifyReply, payload: unknown): Promise<unknown> {
  return typeof payload === 'string' ? `\uFEFF${payload}` : payload;
}

export function invoiceRoutes(ctx: MockContext) {
  return async (app: FastifyInstance): Promise<void> => {
    app.get('/invoices', async (request) => {
      const req = readPageRequest(ctx, request);
      const page = pageOfInvoices(ctx.invoices.list(), req);
      // updated-since-drops-match: the last invoice that matches updatedSince is left out.
      const dropped = ctx.faults.has('updated-since-drops-match') && req.updatedSinceMs !== undefined;
      return emptyList(
        ctx,
        (dropped ? page.slice(0, -1) : page).map((i) => listItem(ctx, i)),
      );
    });
    const single = ctx.faults.has('invoice-json-bom') ? { onSend: withByteOrderMark } : {};
    app.get('/invoices/:invoiceId', single, async (request) => withBillingGroups(ctx, existingInvoice(ctx, request)));
    app.get('/invoicesBillingGroupDetailsSnapshot/:invoiceId', async (request) =>
      withDetails(ctx, existingInvoice(ctx, request)),
    );
  };
}
