/**
 * GET /invoices as a flow step: the answer checked (2xx, invoice-list shape) and reduced to its items. A query
 * without `createdSince` gets the whole list's (since 1900, suites/lib/whole-list.ts): a server may need it, and it
 * leaves no invoice out, so a check's own parameters alone narrow the answer.
 */
import { operationById } from '../../specs/contract.ts';
import type { Exchange } from '../lib/exchange.ts';
import { narrowedListQuery } from '../lib/whole-list.ts';
import { type CheckContext, skip } from '../lib/index.ts';

export interface ListedInvoice {
  id: string;
  created: string;
  updated: string;
  billingGroupIds: string[];
}

export type InvoiceQuery = Record<string, string | number>;

export async function listInvoices(
  ctx: CheckContext,
  asked: InvoiceQuery = {},
): Promise<{ items: ListedInvoice[]; exchange: Exchange; query: Record<string, string> }> {
  const query = Object.fromEntries(
    Object.entries(narrowedListQuery('listInvoices', asked)).map(([k, v]) => [k, String(v)]),
  );
  const x = await ctx.api.op(operationById('listInvoices'), { query });
  ctx.check.expectSuccess(x, `GET /invoices?${new URLSearchParams(query)}`);
  ctx.check.expectSchema(x, 'invoice-list', 'spec 4.2');
  return { items: x.response.body as ListedInvoice[], exchange: x, query };
}

/** The unpaged list of every invoice (since 1900); skips the test (saying why) when the deployment has no invoice to judge. */
export async function allInvoices(ctx: CheckContext): Promise<ListedInvoice[]> {
  const { items } = await listInvoices(ctx);
  if (items.length === 0)
    skip.nothingToJudge(
      ctx,
      'GET /invoices lists no invoice: nothing to page, filter or read, and the spec offers no way to create one',
    );
  return items;
}

const DAY_MS = 86_400_000;
/** More dates than this are thinned evenly: a deployment with thousands of invoices still gets a bounded check. */
const MAX_SINCE_DATES = 300;

function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * The dates worth sending as createdSince and updatedSince, all of them on every run (the same server gets the
 * same verdict whatever the seed): each day an invoice's created or updated falls on, the days just before and
 * after it, and a day strictly between its created and updated days. The values that tell two readings apart lie
 * between the values records carry: a server that reads the date some hours early differs from one that reads it
 * at 00:00 UTC only on the day after a record's day (it lists a record of the day before); one that compares
 * updatedSince with created differs only for a date after an invoice's created day and before its updated day.
 */
export function sinceDates(all: readonly ListedInvoice[]): string[] {
  const days = new Set<string>();
  for (const inv of all) {
    const [c, u] = [Date.parse(inv.created), Date.parse(inv.updated)];
    for (const t of [c, u].filter(Number.isFinite)) {
      days.add(utcDay(t - DAY_MS));
      days.add(utcDay(t));
      days.add(utcDay(t + DAY_MS));
    }
    if (Number.isFinite(c) && Number.isFinite(u) && u - c >= 2 * DAY_MS) days.add(utcDay((c + u) / 2));
  }
  const sorted = [...days].sort();
  if (sorted.length <= MAX_SINCE_DATES) return sorted;
  return Array.from({ length: MAX_SINCE_DATES }, (_, i) => sorted[Math.floor((i * sorted.length) / MAX_SINCE_DATES)]!);
}

export interface SinceQuery {
  param: 'createdSince' | 'updatedSince';
  field: 'created' | 'updated';
  date: string;
}

/** Every listed date as createdSince and as updatedSince. */
export function sinceQueries(all: readonly ListedInvoice[]): SinceQuery[] {
  const dates = sinceDates(all);
  return [
    ...dates.map((date) => ({ param: 'createdSince' as const, field: 'created' as const, date })),
    ...dates.map((date) => ({ param: 'updatedSince' as const, field: 'updated' as const, date })),
  ];
}
