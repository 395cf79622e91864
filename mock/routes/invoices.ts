/**
 * Invoices (spec 4.2): a filtered, paged list and two single views that differ in what they embed (spec 2.6). The
 * list is written in two steps (steps.ts): the page the request asks for, then the answer.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MockContext } from '../context.ts';
import { HttpError, notFound } from '../errors.ts';
import { pageOfInvoices, type Invoice, type InvoicePageRequest } from '../invoice-store.ts';
import type { JsonObject } from '../json.ts';
import { dateStartParam, positiveIntParam, wholeNumberParam } from '../query.ts';
import { pathParam } from './params.ts';
import { stepsHandler, type Steps } from './steps.ts';

function header(i: Invoice): JsonObject {
  const { billingGroupIds: _ids, ...rest } = i;
  return rest;
}

function listItem(i: Invoice): JsonObject {
  return { ...header(i), billingGroupIds: [...i.billingGroupIds] };
}

/** The billing groups an invoice names, as GET /billingGroups/{id} shows them (forced statuses included). */
export function billingGroupsOf(ctx: MockContext, billingGroupIds: readonly string[]): JsonObject[] {
  return billingGroupIds.map((id) => ctx.billing.get(id)).filter((g) => g !== undefined);
}

/** The details of the billing groups an invoice names (spec 2.5), as its snapshot embeds them. */
export function billingGroupDetailsOf(ctx: MockContext, billingGroupIds: readonly string[]): JsonObject[] {
  return billingGroupIds.map((id) => ctx.billing.details(id)).filter((d) => d !== undefined);
}

function withBillingGroups(ctx: MockContext, i: Invoice): JsonObject {
  return { ...header(i), billingGroups: billingGroupsOf(ctx, i.billingGroupIds) };
}

function withDetails(ctx: MockContext, i: Invoice): JsonObject {
  return { ...header(i), billingGroupDetails: billingGroupDetailsOf(ctx, i.billingGroupIds) };
}

export const invoiceList: Steps<InvoicePageRequest, JsonObject[]> = {
  read(ctx, request) {
    const createdSinceMs = dateStartParam(request, 'createdSince');
    if (ctx.variant.invoiceListNeedsSince && createdSinceMs === undefined)
      // Stryker disable next-line StringLiteral: spec 7 error codes and bodies not shown
      throw new HttpError(400, 'INVALID_QUERY', 'GET /invoices needs createdSince');
    const updatedSinceMs = dateStartParam(request, 'updatedSince');
    const limit = positiveIntParam(request, 'limit');
    const firstPage = ctx.variant.firstPage ?? 1;
    const page = firstPage === 0 ? wholeNumberParam(request, 'page') : positiveIntParam(request, 'page');
    return {
      firstPage,
      defaultPageSize: ctx.variant.defaultPageSize ?? 0,
      createdSinceMs,
      updatedSinceMs,
      limit,
      page,
    };
  },
  answer: (ctx, req) => pageOfInvoices(ctx.invoices.list(), req).map(listItem),
};

function existingInvoice(ctx: MockContext, request: FastifyRequest): Invoice {
  const invoice = ctx.invoices.get(pathParam(request, 'invoiceId'));
  // Stryker disable next-line StringLiteral: spec 7 error codes and bodies not shown
  if (!invoice) throw notFound('invoice');
  return invoice;
}

export function invoiceRoutes(ctx: MockContext) {
  return async (app: FastifyInstance): Promise<void> => {
    app.get('/invoices', stepsHandler(ctx, invoiceList));
    app.get('/invoices/:invoiceId', async (request) => withBillingGroups(ctx, existingInvoice(ctx, request)));
    app.get('/invoicesBillingGroupDetailsSnapshot/:invoiceId', async (request) =>
      withDetails(ctx, existingInvoice(ctx, request)),
    );
  };
}
