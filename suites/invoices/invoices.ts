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

/** The since filters of GET /invoices (spec 4.2), alone or together. */
export interface SinceFilter {
  createdSince?: string;
  updatedSince?: string;
}

/** A date starts at its 00:00 UTC: the records' timestamps are in UTC (spec 2). */
function dayStartMs(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

/** Why an invoice does not match the filter (created or updated before its date), or undefined when it does. */
export function sinceMismatch(inv: Pick<ListedInvoice, 'created' | 'updated'>, f: SinceFilter): string | undefined {
  if (f.createdSince !== undefined && !(Date.parse(inv.created) >= dayStartMs(f.createdSince)))
    return `created ${inv.created}, before createdSince ${f.createdSince}`;
  if (f.updatedSince !== undefined && !(Date.parse(inv.updated) >= dayStartMs(f.updatedSince)))
    return `updated ${inv.updated}, before updatedSince ${f.updatedSince}`;
  return undefined;
}

export function describeFilter(f: SinceFilter): string {
  return Object.entries(f)
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
}

/** Every listed date as createdSince and as updatedSince, alone. */
export function singleFilters(all: readonly ListedInvoice[]): SinceFilter[] {
  const dates = sinceDates(all);
  return [...dates.map((createdSince) => ({ createdSince })), ...dates.map((updatedSince) => ({ updatedSince }))];
}

/** Pairs sent at most: a filter of two dates is one request, but a deployment may have many invoices. */
const MAX_PAIRS = 40;

/**
 * createdSince and updatedSince together (spec 4.2 lists both; nothing says one excludes the other), each pair a day
 * an invoice was created on and a day another was updated on: the invoice at the same place in the other order, so
 * that each date leaves out invoices the other lets through, where a server applying one of them only, or either,
 * lists too many, and one comparing them with the wrong field too few. The whole list (since 1900) carries a
 * createdSince already, so a pair is the first query in which both dates narrow the answer.
 */
export function pairedFilters(all: readonly ListedInvoice[]): SinceFilter[] {
  const byCreated = [...all].sort((a, b) => Date.parse(a.created) - Date.parse(b.created));
  const byUpdated = [...all].sort((a, b) => Date.parse(b.updated) - Date.parse(a.updated));
  const pairs = new Map<string, SinceFilter>();
  for (const [i, inv] of byCreated.entries()) {
    const other = byUpdated[i];
    const [c, u] = [Date.parse(inv.created), Date.parse(other?.updated ?? '')];
    if (!Number.isFinite(c) || !Number.isFinite(u)) continue;
    const f = { createdSince: utcDay(c), updatedSince: utcDay(u) };
    pairs.set(describeFilter(f), f);
  }
  const list = [...pairs.values()];
  if (list.length <= MAX_PAIRS) return list;
  return Array.from({ length: MAX_PAIRS }, (_, i) => list[Math.floor((i * list.length) / MAX_PAIRS)]!);
}

/**
 * The filters whose pages the invoice checks walk (spec 4.2: `limit` and `page` with the since filters): none, each
 * alone and both, at dates a third into the invoices by creation and halfway by update, so each narrows the list.
 */
export function pagedFilters(all: readonly ListedInvoice[]): SinceFilter[] {
  const created = all
    .map((i) => Date.parse(i.created))
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  const updated = all
    .map((i) => Date.parse(i.updated))
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  const c = created[Math.floor(created.length / 3)];
  const u = updated[Math.floor(updated.length / 2)];
  if (c === undefined || u === undefined) return [{}];
  const [createdSince, updatedSince] = [utcDay(c), utcDay(u)];
  return [{}, { createdSince }, { updatedSince }, { createdSince, updatedSince }];
}
