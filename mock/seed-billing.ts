/** Seeded billing groups (12, four customers, four months) and invoices (25) that reference them. */
import type { BillingGroup, BillingGroupExtras } from './billing-store.ts';
import { isoDate, isoSeconds } from './formats.ts';
import type { Invoice, InvoicedBy } from './invoice-store.ts';
import type { JsonObject } from './json.ts';
import type { SeedCustomer } from './seed-catalogue.ts';
import { places } from './seed-directory.ts';
import { pick, seedTime, type Ref } from './seed-refs.ts';

export interface SeededGroup {
  group: BillingGroup;
  extras: BillingGroupExtras;
}

const lanes = [
  ['Chilled food pallets', 0, 4],
  ['Cement, 25 kg bags', 6, 1],
  ['Paper reels', 5, 7],
  ['Marine gas oil', 3, 2],
] as const;

const registrations = ['MX19 KTE', 'YK70 BNO', 'SF21 RZU'] as const;
const ownStatuses = ['Booked', 'Booked', 'Invoiced', 'Booked', 'Ready', 'Invoiced'] as const;

function money(value: number): number {
  return Math.round(value * 100) / 100;
}

function vehiclesOf(
  ref: Ref,
  i: number,
): Pick<BillingGroup, 'vehicles' | 'vehicleExternalIds' | 'vehicleNames' | 'vehiclesSnapshot'> {
  const n = i % 3;
  const registration = pick(registrations, n);
  return {
    vehicles: [ref('tractor', n)],
    vehicleExternalIds: [`TU-${String(500 + n)}`],
    vehicleNames: [registration],
    vehiclesSnapshot: [{ id: ref('tractor', n), name: registration, type: 'tractorUnit' }],
  };
}

function subcontractorsOf(
  ref: Ref,
  i: number,
): Pick<BillingGroup, 'subcontractors' | 'subcontractorExternalIds' | 'subcontractorNames' | 'subcontractorsSnapshot'> {
  if (i % 4 !== 1)
    return { subcontractors: [], subcontractorExternalIds: [], subcontractorNames: [], subcontractorsSnapshot: [] };
  const id = ref('subcontractor', 0);
  return {
    subcontractors: [id],
    subcontractorExternalIds: ['SUB-MOD'],
    subcontractorNames: ['Mersey Owner Drivers'],
    subcontractorsSnapshot: [{ id, name: 'Mersey Owner Drivers' }],
  };
}

function linesOf(
  ref: Ref,
  i: number,
  transport: number,
): Pick<BillingGroup, 'transport' | 'storage' | 'products' | 'manual'> {
  const job = ref('job', i);
  return {
    transport: [{ jobId: job, description: 'Full load', quantity: 1, unit: 'load', price: transport }],
    storage: i % 3 === 0 ? [{ description: 'Pallet storage', days: 4, pallets: 26, price: money(26 * 4 * 1.15) }] : [],
    products: i % 4 === 3 ? [{ productCode: 'MGO', litres: 2_000, price: money(2_000 * 0.78) }] : [],
    manual: i % 5 === 2 ? [{ description: 'Waiting time, 2 h', price: 90 }] : [],
  };
}

function sum(lines: JsonObject[]): number {
  return money(lines.reduce((total, l) => total + (typeof l.price === 'number' ? l.price : 0), 0));
}

function billingGroup(ref: Ref, customers: SeedCustomer[], i: number): SeededGroup {
  const customer = pick(customers, i);
  const [productDescription, fromIx, toIx] = pick(lanes, i);
  const transport = money(450 + i * 37.5);
  const lines = linesOf(ref, i, transport);
  const priceFaf = money(transport * 0.08);
  const [priceStorage, priceProduct, priceManual] = [sum(lines.storage), sum(lines.products), sum(lines.manual)];
  const group: BillingGroup = {
    id: ref('billing-group', i),
    humanReadableId: `BG-2025-${String(1041 + i)}`,
    date: isoDate(seedTime(i * 9)),
    priceManual,
    priceStorage,
    priceProduct,
    priceFaf,
    priceTransport: transport,
    priceTotal: money(priceManual + priceStorage + priceProduct + priceFaf + transport),
    from: pick(places, fromIx).locationName,
    to: pick(places, toIx).locationName,
    productDescription,
    properties:
      i % 2 === 0 ? { costCentre: `CC-${String(310 + (i % 4))}`, poNumber: `PO-${String(77_100 + i)}` } : null,
    customerId: customer.id,
    customerName: customer.name,
    customerIntegrationId: customer.integrationId,
    customerExternalId: customer.externalId,
    inactive: i % 5 === 3,
    status: pick(ownStatuses, i),
    ...vehiclesOf(ref, i),
    ...subcontractorsOf(ref, i),
    ...lines,
  };
  const extras: BillingGroupExtras = {
    branches: [{ id: ref('branch', i % 2), name: i % 2 === 0 ? 'Manchester Trafford Park' : 'Coleshill Hams Hall' }],
    crnNumber: `CRN-${customer.externalId}-${String(2025_00 + i)}`,
    jobs: [
      {
        jobId: ref('job', i),
        bookingId: ref('booking', i % 4),
        completedAt: isoSeconds(seedTime(i * 9, 14)),
        from: group.from,
        to: group.to,
      },
    ],
  };
  return { group, extras };
}

export function seedBillingGroups(ref: Ref, customers: SeedCustomer[]): SeededGroup[] {
  return Array.from({ length: 12 }, (_, i) => billingGroup(ref, customers, i));
}

const invoicers: readonly InvoicedBy[] = [
  { uid: 'usr-7c1f', email: 'priya.shah@albion-retail.example.co.uk', name: 'Priya Shah' },
  { uid: 'usr-30ad', email: 'gareth.evans@albion-retail.example.co.uk', name: 'Gareth Evans' },
  { uid: 'usr-91be', email: 'finance-bot@albion-retail.example.co.uk', name: 'Finance automation' },
];

const invoiceStatuses = ['Sent', 'Paid', 'Paid', 'Overdue', 'Draft'] as const;

/** Invoices 6 and 7 share a creation time on purpose: paging must then order by id. */
function createdAt(i: number): number {
  const j = i === 7 ? 6 : i;
  return seedTime(6 + j * 5, 1 + (j % 3) * 3) + (j % 2) * 15 * 60_000;
}

/**
 * Invoices 11 and 12 share an update time on purpose: a server that orders by `updated` must then page by something
 * more, as one that orders by `created` must for invoices 6 and 7.
 */
function updatedAt(i: number): number {
  const j = i === 12 ? 11 : i;
  return createdAt(j) + ((j * 7) % 12) * 86_400_000 + 2 * 3_600_000;
}

function invoice(ref: Ref, groups: SeededGroup[], i: number): Invoice {
  const created = createdAt(i);
  const ids = [pick(groups, i).group.id, ...(i % 3 === 0 ? [pick(groups, i + 5).group.id] : [])];
  return {
    id: ref('invoice', i),
    invoiceDate: isoDate(created),
    invoiceDueDate: isoDate(created + 30 * 86_400_000),
    invoicedBy: { ...pick(invoicers, i) },
    status: pick(invoiceStatuses, i),
    created: isoSeconds(created),
    updated: isoSeconds(updatedAt(i)),
    billingGroupIds: ids,
  };
}

export function seedInvoices(ref: Ref, groups: SeededGroup[]): Invoice[] {
  return Array.from({ length: 25 }, (_, i) => invoice(ref, groups, i));
}
