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

/** A single view's header: with milliseconds in created and updated where the variant writes them so (spec 2). */
function singleHeader(ctx: MockContext, i: Invoice): JsonObject {
  const h = header(i);
  // Stryker disable next-line ConditionalExpression, EqualityOperator, StringLiteral: spec 2 timestamps are date-times in UTC: their precision is not shown
  if (ctx.variant.singleViewTimestamps !== 'millis') return h;
  return { ...h, created: withMillis(i.created), updated: withMillis(i.updated) };
}

function withMillis(iso: string): string {
  return new Date(Date.parse(iso)).toISOString();
}

/** An embedded group or its details, its id under the key the variant uses (spec 2.7: fields not shown). */
function embedded(ctx: MockContext, o: JsonObject): JsonObject {
  // Stryker disable next-line ConditionalExpression, EqualityOperator, StringLiteral: spec 2.7 fields inside the billingGroups of an invoice are not shown
  if (ctx.variant.invoiceGroupIdField !== 'billingGroupId') return o;
  const { id, ...rest } = o;
  // Stryker disable next-line ObjectLiteral: spec 2.7 fields inside the billingGroups of an invoice are not shown
  return { billingGroupId: id, ...rest };
}

function listItem(i: Invoice): JsonObject {
  return { ...header(i), billingGroupIds: [...i.billingGroupIds] };
}

/**
 * The billing groups an invoice names, as GET /billingGroups/{id} shows them (forced statuses included). Every group
 * an invoice names is in the store (the seed makes them together, and nothing removes a group), so none is missing.
 */
export function billingGroupsOf(ctx: MockContext, billingGroupIds: readonly string[]): JsonObject[] {
  return billingGroupIds.map((id) => ctx.billing.get(id) as JsonObject);
}

/** The details of the billing groups an invoice names (spec 2.5), as its snapshot embeds them. */
export function billingGroupDetailsOf(ctx: MockContext, billingGroupIds: readonly string[]): JsonObject[] {
  return billingGroupIds.map((id) => ctx.billing.details(id) as JsonObject);
}

function withBillingGroups(ctx: MockContext, i: Invoice): JsonObject {
  return {
    ...singleHeader(ctx, i),
    billingGroups: billingGroupsOf(ctx, i.billingGroupIds).map((g) => embedded(ctx, g)),
  };
}

function withDetails(ctx: MockContext, i: Invoice): JsonObject {
  return {
    ...singleHeader(ctx, i),
    billingGroupDetails: billingGroupDetailsOf(ctx, i.billingGroupIds).map((d) => embedded(ctx, d)),
  };
}

/** The invoices in the variant's order: the store's (created, then id), or by updated, latest first, then id. */
function inOrder(ctx: MockContext, all: Invoice[]): Invoice[] {
  // Stryker disable next-line ConditionalExpression, EqualityOperator, StringLiteral: spec 4.2 shows no order of the invoice list
  if (ctx.variant.invoiceOrder !== 'updated-desc') return all;
  // Stryker disable next-line ArrowFunction: spec 4.2 shows no order of the invoice list
  const key = (i: Invoice) => Date.parse(i.updated);
  // Stryker disable next-line ArithmeticOperator, LogicalOperator, ConditionalExpression, EqualityOperator, UnaryOperator, ArrowFunction, MethodExpression: spec 4.2 shows no order of the invoice list
  return [...all].sort((a, b) => key(b) - key(a) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
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
      maxPageSize: ctx.variant.maxPageSize ?? 0,
      createdSinceMs,
      updatedSinceMs,
      limit,
      page,
    };
  },
  answer: (ctx, req) => pageOfInvoices(inOrder(ctx, ctx.invoices.list()), req).map(listItem),
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
