/**
 * Faults of two views of one record where one leaves out what the other shows (spec 2.4-2.6, 4.2): the whole list
 * without the groups whose status is forced, or without any group unless a filter is given; details that show the
 * default `inactive` instead of the group's; an invoice whose single view leaves out its inactive groups; the unpaged
 * invoice list without its drafts.
 */
import type { BillingGroup } from '../billing-store.ts';
import type { FaultName } from '../faults.ts';
import type { JsonObject } from '../json.ts';
import { billingGroupList } from '../routes/billing-groups.ts';
import { invoiceList } from '../routes/invoices.ts';
import type { Bend } from './layer.ts';

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export const viewBends = {
  'list-leaves-out-forced': (layer) => {
    const billing = layer.ctx.billing;
    const forced = new Set<string>();
    layer.decorate(billing, 'force', (force) => (id, status) => {
      forced.add(id);
      force(id, status);
    });
    layer.decorate(billing, 'unforce', (unforce) => (id) => {
      forced.delete(id);
      unforce(id);
    });
    layer.steps('GET /billingGroups', billingGroupList, {
      answered: (listed: BillingGroup[], filter) =>
        filter.state === undefined ? listed.filter((g) => !forced.has(g.id)) : listed,
    });
  },
  'billing-list-needs-filter': (layer) =>
    layer.steps('GET /billingGroups', billingGroupList, {
      answered: (listed, f) =>
        f.state === undefined && f.customerId === undefined && f.inactive === undefined ? [] : listed,
    }),
  'details-inactive-default': (layer) =>
    layer.route('GET /billingGroups/:billingGroupId/details', {
      answer: (payload) => (isObject(payload) ? { ...payload, inactive: false } : payload),
    }),
  'invoice-groups-drop-inactive': (layer) =>
    layer.route('GET /invoices/:invoiceId', {
      answer: (payload) =>
        isObject(payload) && Array.isArray(payload.billingGroups)
          ? { ...payload, billingGroups: payload.billingGroups.filter((g) => !(isObject(g) && g.inactive === true)) }
          : payload,
    }),
  'unpaged-invoices-drop-drafts': (layer) =>
    layer.steps('GET /invoices', invoiceList, {
      answered: (page, req) =>
        req.limit === undefined && req.page === undefined ? page.filter((i) => i.status !== 'Draft') : page,
    }),
} satisfies Partial<Record<FaultName, Bend>>;
