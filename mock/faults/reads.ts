/**
 * Faults of filters, windows and pages (spec 4.1, 4.2): a parameter ignored, a bound moved, a page repeated, a match
 * left out. Each bends what the request asks (the route's `read` step, mock/routes/steps.ts) before it is answered,
 * or the answer with what was asked in view.
 */
import type { FastifyRequest } from 'fastify';
import type { BillingGroup } from '../billing-store.ts';
import type { FaultName } from '../faults.ts';
import { dateStartMs, isoDate } from '../formats.ts';
import type { InvoicePageRequest } from '../invoice-store.ts';
import { billingGroupList, type GroupFilter } from '../routes/billing-groups.ts';
import { invoiceList } from '../routes/invoices.ts';
import { offerList, type OfferWindow } from '../routes/offers.ts';
import type { Bend, FaultLayer } from './layer.ts';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

function bendOfferWindow(layer: FaultLayer, bend: (w: OfferWindow) => OfferWindow): void {
  layer.steps('GET /offers', offerList, { asked: bend });
}

function bendGroupFilter(layer: FaultLayer, bend: (f: GroupFilter) => GroupFilter): void {
  layer.steps('GET /billingGroups', billingGroupList, { asked: bend });
}

function bendInvoicePage(layer: FaultLayer, bend: (req: InvoicePageRequest) => InvoicePageRequest): void {
  layer.steps('GET /invoices', invoiceList, { asked: bend });
}

/** A date bound moved by whole days. */
function shiftDate(date: string | undefined, days: number): string | undefined {
  return date === undefined ? undefined : isoDate((dateStartMs(date) as number) + days * DAY_MS);
}

/** createdSince read from earlier than the date given. */
function createdSinceEarlier(ms: number): (req: InvoicePageRequest) => InvoicePageRequest {
  return (req) => (req.createdSinceMs === undefined ? req : { ...req, createdSinceMs: req.createdSinceMs - ms });
}

/**
 * Leaves out the last matching group, under any filter that leaves some group out (a window around every group is
 * the whole list, which the checks compare with). Not one dated on a bound's own day: whether `start` and `end`
 * include it is not shown, so leaving it out would be a conformant choice.
 */
function dropLastMatch(layer: FaultLayer, listed: BillingGroup[], filter: GroupFilter): BillingGroup[] {
  const narrowed = listed.length < layer.ctx.billing.list().length;
  if (Object.values(filter).every((v) => v === undefined) || !narrowed) return listed;
  const onBound = (g: BillingGroup) => g.date.slice(0, 10) === filter.start || g.date.slice(0, 10) === filter.end;
  const dropped = listed.filter((g) => !onBound(g)).at(-1);
  return listed.filter((g) => g !== dropped);
}

function updatedSinceGiven(request: FastifyRequest): boolean {
  return (request.query as Record<string, unknown> | undefined)?.updatedSince !== undefined;
}

export const readBends = {
  'billing-filter-ignored': (layer) => bendGroupFilter(layer, (f) => ({ ...f, customerId: undefined })),
  'page-repeats': (layer) =>
    bendInvoicePage(layer, (req) => (req.page === undefined ? req : { ...req, page: req.firstPage })),
  'limit-ignored': (layer) => bendInvoicePage(layer, (req) => ({ ...req, limit: undefined })),
  'created-since-ignored': (layer) => bendInvoicePage(layer, (req) => ({ ...req, createdSinceMs: undefined })),
  'billing-filter-drops-match': (layer) =>
    layer.steps('GET /billingGroups', billingGroupList, {
      answered: (listed, filter) => dropLastMatch(layer, listed, filter),
    }),
  'updated-since-drops-match': (layer) =>
    layer.steps('GET /invoices', invoiceList, {
      answered: (page, _req, request) => (updatedSinceGiven(request) ? page.slice(0, -1) : page),
    }),
  'offer-window-ignored': (layer) => bendOfferWindow(layer, () => ({ start: undefined, end: undefined })),
  // 12 hours on each side, whichever timestamp the list filters on.
  'offer-window-widened': (layer) =>
    bendOfferWindow(layer, ({ start, end }) => ({
      start: start === undefined ? start : start - 12 * HOUR_MS,
      end: end === undefined ? end : end + 12 * HOUR_MS,
    })),
  'billing-window-widened': (layer) =>
    bendGroupFilter(layer, (f) => ({ ...f, start: shiftDate(f.start, -1), end: shiftDate(f.end, 1) })),
  'created-since-widened': (layer) => bendInvoicePage(layer, createdSinceEarlier(DAY_MS)),
  // An invoice updated after the date but created before it is left out: the date bounds `created` instead.
  'updated-since-on-created': (layer) =>
    bendInvoicePage(layer, (req) => {
      if (req.updatedSinceMs === undefined) return req;
      const createdSinceMs = Math.max(req.createdSinceMs ?? Number.NEGATIVE_INFINITY, req.updatedSinceMs);
      return { ...req, updatedSinceMs: undefined, createdSinceMs };
    }),
  // From 10:00 UTC of the day before.
  'created-since-hours-early': (layer) => bendInvoicePage(layer, createdSinceEarlier(14 * HOUR_MS)),
} satisfies Partial<Record<FaultName, Bend>>;
