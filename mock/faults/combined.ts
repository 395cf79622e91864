/**
 * Faults of parameters that hold alone and fail together (spec 4.2): one filter overriding the others, a filter
 * applied to a page after it was cut, one since date dropped when the other is given, a limit dropped with a filter.
 */
import type { FastifyRequest } from 'fastify';
import type { FaultName } from '../faults.ts';
import { dateStartMs } from '../formats.ts';
import type { InvoicePageRequest } from '../invoice-store.ts';
import { billingGroupList } from '../routes/billing-groups.ts';
import { invoiceList } from '../routes/invoices.ts';
import type { Bend } from './layer.ts';

function without<T extends object>(value: T, ...keys: (keyof T)[]): T {
  const out = { ...value };
  for (const k of keys) delete out[k];
  return out;
}

/** updatedSince as the request gave it, in ms (the route's read step has checked it is a date). */
function updatedSinceOf(request: FastifyRequest): number | undefined {
  const v = (request.query as Record<string, unknown> | undefined)?.updatedSince;
  return typeof v === 'string' ? dateStartMs(v) : undefined;
}

function bendInvoicePage(bend: (req: InvoicePageRequest) => InvoicePageRequest): Bend {
  return (layer) => layer.steps('GET /invoices', invoiceList, { asked: bend });
}

export const combinedBends = {
  'billing-customer-overrides-filters': (layer) =>
    layer.steps('GET /billingGroups', billingGroupList, {
      asked: (f) => (f.customerId === undefined ? f : without(f, 'state', 'inactive')),
    }),
  // The page is cut from the list filtered without updatedSince, then updatedSince is applied to it.
  'invoice-filter-after-paging': (layer) =>
    layer.steps('GET /invoices', invoiceList, {
      asked: (req) => (req.limit === undefined ? req : without(req, 'updatedSinceMs')),
      answered: (page, req, request) => {
        const since = updatedSinceOf(request);
        if (req.limit === undefined || since === undefined) return page;
        return page.filter((i) => Date.parse(String(i.updated)) >= since);
      },
    }),
  'created-since-dropped-with-updated': bendInvoicePage((req) =>
    req.updatedSinceMs === undefined ? req : without(req, 'createdSinceMs'),
  ),
  'limit-ignored-with-updated-since': bendInvoicePage((req) =>
    req.updatedSinceMs === undefined ? req : without(req, 'limit'),
  ),
} satisfies Partial<Record<FaultName, Bend>>;
