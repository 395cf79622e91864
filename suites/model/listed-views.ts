/**
 * The views the contract gives the records the run cannot write, for safe reads (suites/model/control-trial.ts):
 * a billing group in the list over the whole window, by id and in its details (spec 4.2, 2.4, 2.5); an invoice in the
 * list since 1900, by id and in its snapshot (spec 4.2, 2.6). Each shows the record's documented fields; the list
 * used as a trial view is narrowed (a customer, a creation date) so it lists the subject and not the control.
 */
import { readSchemaFile, type SchemaName } from '../../schemas/registry.ts';
import { operationById } from '../../specs/contract.ts';
import { type Exchange, is2xx } from '../lib/index.ts';
import { narrowedListQuery, WHOLE_BILLING_WINDOW, WHOLE_INVOICE_SINCE } from '../lib/whole-list.ts';
import type { ListedView } from './control-trial.ts';
import type { Json } from './twin-trial.ts';

const fieldsOf = (schema: SchemaName): string[] => Object.keys((readSchemaFile(schema).properties ?? {}) as Json);

function documented(value: unknown, fields: readonly string[]): Json | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const v = value as Json;
  return Object.fromEntries(fields.filter((f) => f in v).map((f) => [f, v[f]]));
}

function element(x: Exchange, id: string): unknown {
  return is2xx(x) && Array.isArray(x.response.body)
    ? x.response.body.find((e) => typeof e === 'object' && e !== null && (e as Json).id === id)
    : undefined;
}

function single(x: Exchange, id: string): unknown {
  const body = x.response.body;
  return is2xx(x) && typeof body === 'object' && body !== null && (body as Json).id === id ? body : undefined;
}

const GROUP = fieldsOf('billing-group');
const DETAILS = fieldsOf('billing-group-details');
const INVOICE = fieldsOf('invoice');
const SNAPSHOT = fieldsOf('invoice-snapshot');
const INVOICE_LISTED = fieldsOf('invoice-list-item');

export const GROUP_LISTED: ListedView = {
  name: 'GET /billingGroups?start&end',
  read: (ctx) => ctx.api.op(operationById('listBillingGroups'), { query: WHOLE_BILLING_WINDOW }),
  shown: (x, id) => documented(element(x, id), GROUP),
};

export const GROUP_BY_ID: ListedView = {
  name: 'GET /billingGroups/{billingGroupId}',
  read: (ctx, id) => ctx.api.op(operationById('getBillingGroup'), { params: { billingGroupId: id } }),
  shown: (x, id) => documented(single(x, id), GROUP),
};

export const GROUP_DETAILS: ListedView = {
  name: 'GET /billingGroups/{billingGroupId}/details',
  read: (ctx, id) => ctx.api.op(operationById('getBillingGroupDetails'), { params: { billingGroupId: id } }),
  shown: (x, id) => documented(single(x, id), DETAILS),
};

/** The list of one customer's groups over the whole window: a list that holds the subject and not the control. */
export function groupsOfCustomer(customerId: string): ListedView {
  return {
    name: `GET /billingGroups?start&end&customerId=${customerId}`,
    read: (ctx) =>
      ctx.api.op(operationById('listBillingGroups'), { query: narrowedListQuery('listBillingGroups', { customerId }) }),
    shown: (x, id) => documented(element(x, id), GROUP),
  };
}

export const INVOICE_IN_LIST: ListedView = {
  name: 'GET /invoices?createdSince',
  read: (ctx) => ctx.api.op(operationById('listInvoices'), { query: WHOLE_INVOICE_SINCE }),
  shown: (x, id) => documented(element(x, id), INVOICE_LISTED),
};

export const INVOICE_BY_ID: ListedView = {
  name: 'GET /invoices/{invoiceId}',
  read: (ctx, id) => ctx.api.op(operationById('getInvoice'), { params: { invoiceId: id } }),
  shown: (x, id) => documented(single(x, id), INVOICE),
};

export const INVOICE_SNAPSHOT: ListedView = {
  name: 'GET /invoicesBillingGroupDetailsSnapshot/{invoiceId}',
  read: (ctx, id) => ctx.api.op(operationById('getInvoiceBillingGroupDetailsSnapshot'), { params: { invoiceId: id } }),
  shown: (x, id) => documented(single(x, id), SNAPSHOT),
};

/** The invoices created on or after a date (spec 4.2 `createdSince`): a list that holds the subject, not the control. */
export function invoicesSince(date: string): ListedView {
  return {
    name: `GET /invoices?createdSince=${date}`,
    read: (ctx) => ctx.api.op(operationById('listInvoices'), { query: { createdSince: date } }),
    shown: (x, id) => documented(element(x, id), INVOICE_LISTED),
  };
}
