/**
 * GET /invoices page by page (spec 4.2: `limit`, `page`). The spec says neither whether the first page is 0 or 1 nor
 * a maximum page size (spec 8), so:
 * - the first page is found: page=0 refused, empty, or the same as page=1 means pages start at 1; otherwise at 0;
 * - a walk ends at the first empty page (or a 4xx past the end), not at the first short one, so a server that caps the
 *   page size below the limit still pages;
 * - a walk is bounded; a walk that reaches its bound says so (`ended` false), and only what it saw is judged.
 * Every request carries the whole list's `createdSince` where the query has none (suites/lib/whole-list.ts).
 */
import { operationById } from '../../specs/contract.ts';
import type { CheckContext } from './check-test.ts';
import type { Exchange } from './exchange.ts';
import { concurrency } from './parallel.ts';
import { narrowedListQuery } from './whole-list.ts';

export type InvoiceQuery = Record<string, string | number>;

export interface InvoicePage {
  n: number;
  /** Absent when the page answered 4xx (past the end, or a page number the server does not use). */
  items?: Record<string, unknown>[];
  exchange: Exchange;
}

/** `limit` and `page` on top of `query` (its since filters), with the whole list's createdSince where it has none. */
export async function invoicePage(
  ctx: CheckContext,
  query: InvoiceQuery,
  limit: number,
  n: number,
): Promise<InvoicePage> {
  const x = await ctx.api.op(operationById('listInvoices'), {
    query: narrowedListQuery('listInvoices', { ...query, limit, page: n }),
  });
  if (x.response.status >= 400 && x.response.status < 500) return { n, exchange: x };
  ctx.check.expectSuccess(x, `GET /invoices?${new URLSearchParams(queryText({ ...query, limit, page: n }))}`);
  ctx.check.expectSchema(x, 'invoice-list', 'spec 4.2');
  return { n, items: x.response.body as Record<string, unknown>[], exchange: x };
}

export function queryText(q: InvoiceQuery): Record<string, string> {
  return Object.fromEntries(Object.entries(narrowedListQuery('listInvoices', q)).map(([k, v]) => [k, String(v)]));
}

export function idsOf(items: readonly Record<string, unknown>[] | undefined): string[] {
  return (items ?? []).map((i) => i.id).filter((id): id is string => typeof id === 'string');
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
}

/** 0 or 1: the number of the first page, from how page=0 and page=1 answer; `undefined` when page=1 is refused. */
export async function firstPage(
  ctx: CheckContext,
  query: InvoiceQuery,
  limit: number,
): Promise<{ base?: 0 | 1; one: InvoicePage; zero: InvoicePage }> {
  const [zero, one] = await Promise.all([invoicePage(ctx, query, limit, 0), invoicePage(ctx, query, limit, 1)]);
  if (!one.items) return { one, zero };
  const z = idsOf(zero.items);
  const base = !zero.items || z.length === 0 || sameSet(z, idsOf(one.items)) ? 1 : 0;
  return { base, one, zero };
}

export interface Walk {
  /** The number of the first page. */
  base: 0 | 1;
  /** Every page read, up to the first empty one. */
  pages: InvoicePage[];
  /** True when an empty page (or a 4xx) ended it; false when it stopped at its bound. */
  ended: boolean;
}

/**
 * Every page of `query` with `limit`, from the first page to the first empty one, at most `maxPages` pages (the
 * first page's reads are reused). Answers undefined when page=1 is refused (the caller says whose that is).
 */
export async function walkPages(
  ctx: CheckContext,
  query: InvoiceQuery,
  limit: number,
  maxPages: number,
): Promise<{ walk?: Walk; refused?: InvoicePage }> {
  const first = await firstPage(ctx, query, limit);
  if (first.base === undefined) return { refused: first.one };
  const base = first.base;
  const pages: InvoicePage[] = [];
  // Pages are read a few at a time, side by side; those past the first empty one are read for nothing, not judged.
  const batch = concurrency();
  for (let from = base; from < base + maxPages; from += batch) {
    const numbers = Array.from({ length: Math.min(batch, base + maxPages - from) }, (_, i) => from + i);
    const read = await Promise.all(
      numbers.map((n) => (n === 0 ? first.zero : n === 1 ? first.one : invoicePage(ctx, query, limit, n))),
    );
    for (const p of read) {
      if (!p.items || p.items.length === 0) return { walk: { base, pages, ended: true } };
      pages.push(p);
    }
  }
  return { walk: { base, pages, ended: false } };
}

/** A page size that walks `count` invoices in a few pages: at least 10 (no server caps below it, whole-lists.ts). */
export function knownWalkLimit(count: number): number {
  return Math.max(10, Math.ceil(count / 4));
}

/**
 * Every invoice the run can find: the unpaged list (since 1900) and every page of it walked with a few large pages,
 * since the unpaged list may itself be a first page cut at a default size (spec 8: page size not shown). Keyed by id,
 * the first answer showing each.
 */
export async function knownInvoices(
  ctx: CheckContext,
  unpaged: readonly Record<string, unknown>[],
): Promise<Map<string, Record<string, unknown>>> {
  const known = new Map<string, Record<string, unknown>>();
  for (const i of unpaged) if (typeof i.id === 'string') known.set(i.id, i);
  const limit = knownWalkLimit(unpaged.length);
  const { walk } = await walkPages(ctx, {}, limit, Math.ceil((unpaged.length * 2) / limit) + 3);
  for (const p of walk?.pages ?? [])
    for (const i of p.items ?? []) if (typeof i.id === 'string' && !known.has(i.id)) known.set(i.id, i);
  return known;
}
