/**
 * invoice-paging (spec 4.2): walking `page` by `page` with a `limit` gives no
 * duplicates and no gaps against the unpaged list. The spec says neither
 * whether the first page is 0 or 1 nor a maximum page size (spec 8), so:
 * - the first page is detected: page=0 refused, empty, or the same as page=1
 *   means pages start at 1; otherwise they start at 0;
 * - the walk ends at the first empty page (or a 4xx past the end), not at the
 *   first short one, so a server that caps the page size below L still pages;
 * - the walk is bounded; if the bound is reached (the unpaged list may itself
 *   be a default first page) only duplicates are judged.
 * Every page and the unpaged list carry the whole list's `createdSince` (since
 * 1900, suites/lib/whole-list.ts), which a server may need. Read-only.
 */
import fc from 'fast-check';
import { operationById } from '../../specs/contract.ts';
import { type CheckContext, checkTest, test } from '../lib/index.ts';
import type { Exchange } from '../lib/exchange.ts';
import { checkProperty } from '../lib/property.ts';
import { narrowedListQuery } from '../lib/whole-list.ts';
import { allInvoices } from './invoices.ts';

interface Page {
  ids?: string[];
  exchange: Exchange;
}

async function page(ctx: CheckContext, limit: number, n: number): Promise<Page> {
  const x = await ctx.api.op(operationById('listInvoices'), {
    query: narrowedListQuery('listInvoices', { limit, page: n }),
  });
  if (x.response.status >= 400 && x.response.status < 500) return { exchange: x };
  ctx.check.expectSuccess(x, `GET /invoices?limit=${limit}&page=${n}`);
  ctx.check.expectSchema(x, 'invoice-list', 'spec 4.2');
  return { ids: (x.response.body as { id: string }[]).map((i) => i.id), exchange: x };
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && [...a].sort().join('\n') === [...b].sort().join('\n');
}

/** 0 or 1: the number of the first page, from how page=0 and page=1 answer. */
async function firstPage(ctx: CheckContext, limit: number): Promise<number> {
  const [zero, one] = [await page(ctx, limit, 0), await page(ctx, limit, 1)];
  if (!one.ids)
    ctx.check.fail(`GET /invoices?limit=${limit}&page=1 answered ${one.exchange.response.status}`, {
      exchanges: [one.exchange],
    });
  if (!zero.ids || zero.ids.length === 0 || sameSet(zero.ids, one.ids ?? [])) return 1;
  return 0;
}

test(
  ...checkTest(
    {
      check: 'invoice-paging',
      operation: operationById('listInvoices'),
      title: 'page by page: no duplicates, no gaps against the unpaged list',
    },
    async (ctx) => {
      const all = await allInvoices(ctx);
      const unpaged = all.map((i) => i.id);
      // Small pages are the interesting ones, but a walk of more than ~25 pages says nothing more.
      const limits = fc.integer({ min: Math.max(1, Math.ceil(unpaged.length / 25)), max: Math.max(1, unpaged.length) });
      await checkProperty(
        ctx,
        [limits],
        async (limit) => {
          const base = await firstPage(ctx, limit);
          const maxPages = Math.ceil(unpaged.length / limit) + 3;
          const seenOn = new Map<string, number>();
          let ended = false;
          for (let n = base; n < base + maxPages; n++) {
            const p = await page(ctx, limit, n);
            if (!p.ids || p.ids.length === 0) {
              ended = true;
              break;
            }
            for (const [i, id] of p.ids.entries()) {
              const earlier = seenOn.get(id);
              if (earlier !== undefined)
                ctx.check.fail(
                  `page ${n} (limit ${limit}, first page ${base}) repeats invoice ${id}, already on page ${earlier}`,
                  { exchanges: [p.exchange], pointer: `/${i}` },
                );
              seenOn.set(id, n);
            }
          }
          if (!ended) {
            ctx.testInfo.annotations.push({
              type: 'note',
              description: `limit ${limit}: ${maxPages} pages did not reach an empty one; only duplicates were judged`,
            });
            return;
          }
          const missing = unpaged.filter((id) => !seenOn.has(id));
          if (missing.length > 0)
            ctx.check.fail(
              `walking the pages with limit ${limit} (first page ${base}) never shows ${missing.length} of the ${unpaged.length} invoices of the unpaged list: ${missing.slice(0, 10).join(', ')}`,
              { exchanges: ctx.api.exchanges.slice(-1) },
            );
        },
        { numRuns: Math.max(1, Math.ceil(ctx.api.target.runs / 4)), independentRuns: true },
      );
    },
  ),
);
