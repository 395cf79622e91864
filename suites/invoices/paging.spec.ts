/**
 * invoice-paging (spec 4.2): walking `page` by `page` with a `limit`, alone or with the since filters, gives every
 * invoice of the filtered list once: no repeats, no gaps, and nothing the filtered list does not hold. The spec says
 * neither whether the first page is 0 or 1 nor a maximum page size (spec 8), so the first page is found and a walk
 * ends at the first empty page, not the first short one (suites/lib/invoice-pages.ts); a walk that reaches its bound
 * is judged on repeats only.
 *
 * Every run walks the same pages (the same verdict whatever the seed): the whole list one invoice a page, so every
 * place two neighbours meet is a page boundary (invoices sharing a `created` or `updated` instant among them: an
 * order on an equal sort key must still give each once), and each since filter and both together with small pages
 * (suites/invoices/invoices.ts pagedFilters); random page sizes over the whole list add to them.
 *
 * The pages are compared with the filtered list asked without a limit. An invoice of that list no page shows is a
 * gap (this check's); one a page shows that the list leaves out, where nothing says the list was cut
 * (suites/lib/world/whole-lists.ts), is the list's when the GET by id answers it (view-consistency for the whole list,
 * invoice-since-complete for a filtered one) and this check's when it does not (a page shows an invoice that is not
 * there). An invoice on a page that does not match the filter is invoice-since's; a page longer than its limit is
 * invoice-limit's. Read-only.
 */
import fc from 'fast-check';
import { operationById } from '../../specs/contract.ts';
import {
  checkTest,
  test,
  type CheckContext,
  skip,
  type Exchange,
  is2xx,
  checkProperty,
  walkPages,
} from '../lib/index.ts';
import { reportDivergence, VIEW_CONSISTENCY, wholeness } from '../lib/world/index.ts';
import {
  allInvoices,
  describeFilter,
  listInvoices,
  pagedFilters,
  sinceMismatch,
  type ListedInvoice,
  type SinceFilter,
} from './invoices.ts';

/** One invoice a page for the whole list; small pages for the filters. */
function limitsOf(f: SinceFilter): number[] {
  if (f.createdSince !== undefined && f.updatedSince !== undefined) return [1];
  if (f.createdSince !== undefined) return [2];
  if (f.updatedSince !== undefined) return [3];
  return [1];
}

function label(f: SinceFilter, limit: number): string {
  const q = describeFilter(f);
  return `limit ${limit}${q ? ` with ${q}` : ''}`;
}

async function judgeWalk(
  ctx: CheckContext,
  all: readonly ListedInvoice[],
  f: SinceFilter,
  limit: number,
  maxPages: number,
): Promise<void> {
  const reference = await listInvoices(ctx, { ...f });
  const { walk, refused } = await walkPages(ctx, { ...f }, limit, maxPages);
  if (!walk)
    return ctx.check.fail(`GET /invoices (${label(f, limit)}) page=1 answered ${refused?.exchange.response.status}`, {
      exchanges: refused ? [refused.exchange] : [],
    });
  const seenOn = new Map<string, number>();
  for (const p of walk.pages)
    for (const [i, inv] of (p.items ?? []).entries()) {
      const id = String(inv.id);
      const why = sinceMismatch(inv as unknown as ListedInvoice, f);
      if (why !== undefined)
        skip.blockedBy(
          ctx,
          'invoice-since',
          p.exchange,
          `page ${p.n} (${label(f, limit)}) shows invoice ${id}: ${why}`,
        );
      const earlier = seenOn.get(id);
      if (earlier !== undefined)
        ctx.check.fail(
          `page ${p.n} (${label(f, limit)}, first page ${walk.base}) repeats invoice ${id}, already on page ${earlier}`,
          { exchanges: [p.exchange], pointer: `/${i}` },
        );
      seenOn.set(id, p.n);
    }
  if (!walk.ended) {
    ctx.testInfo.annotations.push({
      type: 'note',
      description: `${label(f, limit)}: ${maxPages} pages did not reach an empty one; only repeats were judged`,
    });
    return;
  }
  const inList = reference.items.filter((inv) => sinceMismatch(inv, f) === undefined);
  const missing = inList.filter((inv) => !seenOn.has(inv.id));
  if (missing.length > 0) blockIfFilterLeavesOut(ctx, all, f, reference);
  if (missing.length > 0)
    ctx.check.fail(
      `walking the pages (${label(f, limit)}, first page ${walk.base}) never shows ${missing.length} of the ${inList.length} invoices GET /invoices?${new URLSearchParams(reference.query)} lists: ${missing
        .slice(0, 10)
        .map((inv) => `${inv.id} (created ${inv.created}, updated ${inv.updated})`)
        .join(', ')}`,
      { exchanges: [reference.exchange, ...walk.pages.slice(-1).map((p) => p.exchange)] },
    );
  await judgeExtras(
    ctx,
    f,
    limit,
    reference,
    [...seenOn.keys()],
    walk.pages.map((p) => p.exchange),
  );
}

/**
 * The control of a gap under a filter: the filtered list asked without a limit, judged whole, leaves out an invoice of
 * the whole list that matches it. Then the filter leaves out matches with no page involved, which is
 * invoice-since-complete's rule, and the pages are not judged on it.
 */
function blockIfFilterLeavesOut(
  ctx: CheckContext,
  all: readonly ListedInvoice[],
  f: SinceFilter,
  reference: Awaited<ReturnType<typeof listInvoices>>,
): void {
  if (Object.keys(f).length === 0 || !wholeness(ctx, reference.exchange, 'invoice(s)').whole) return;
  const listed = new Set(reference.items.map((i) => i.id));
  const left = all.find((inv) => sinceMismatch(inv, f) === undefined && !listed.has(inv.id));
  if (left)
    skip.blockedBy(
      ctx,
      'invoice-since-complete',
      reference.exchange,
      `GET /invoices?${new URLSearchParams(reference.query)} leaves out invoice ${left.id} (created ${left.created}, updated ${left.updated}), which matches it, with no page asked`,
    );
}

/** Invoices the pages show and the unpaged list (judged whole) leaves out: whose, by whether the GET by id answers. */
async function judgeExtras(
  ctx: CheckContext,
  f: SinceFilter,
  limit: number,
  reference: Awaited<ReturnType<typeof listInvoices>>,
  paged: string[],
  pages: Exchange[],
): Promise<void> {
  const listed = new Set(reference.items.map((i) => i.id));
  const extra = paged.find((id) => !listed.has(id));
  if (extra === undefined) return;
  const w = wholeness(ctx, reference.exchange, 'invoice(s)');
  if (!w.whole) return;
  const x = await ctx.api.op(operationById('getInvoice'), { params: { invoiceId: extra } });
  const list = `GET /invoices?${new URLSearchParams(reference.query)}`;
  if (is2xx(x) && (x.response.body as { id?: unknown } | undefined)?.id === extra)
    reportDivergence(ctx, {
      owner: Object.keys(f).length === 0 ? VIEW_CONSISTENCY : 'invoice-since-complete',
      clause: 'spec 4.2',
      message: `${list} leaves out invoice ${extra}, which its pages (${label(f, limit)}) and GET /invoices/${extra} show; it answered ${w.why}, so it is the whole list`,
      exchanges: [reference.exchange, x],
    });
  ctx.check.fail(
    `the pages (${label(f, limit)}) show invoice ${extra}, which neither ${list} lists (${w.why}) nor GET /invoices/${extra} answers (${x.response.status})`,
    { exchanges: [...pages.slice(-1), x] },
  );
}

test(
  ...checkTest(
    {
      check: 'invoice-paging',
      operation: operationById('listInvoices'),
      title: 'page by page, alone and with the since filters: each invoice of the filtered list once, and no other',
    },
    async (ctx) => {
      const all = await allInvoices(ctx);
      const n = all.length;
      // A walk of one invoice a page over the whole list meets every boundary. The unpaged list may be a first page
      // cut at a default size (spec 8), so a walk may go on to twice its length before it is taken as unending.
      for (const f of pagedFilters(all))
        for (const limit of limitsOf(f)) await judgeWalk(ctx, all, f, limit, Math.ceil((2 * n) / limit) + 3);
      // Small pages are the interesting ones, but a walk of more than ~25 pages says nothing more.
      const limits = fc.integer({ min: Math.max(1, Math.ceil(n / 25)), max: Math.max(1, n) });
      await checkProperty(ctx, [limits], (limit) => judgeWalk(ctx, all, {}, limit, Math.ceil((2 * n) / limit) + 3), {
        numRuns: Math.max(1, Math.ceil(ctx.api.target.runs / 4)),
        independentRuns: true,
      });
    },
  ),
);
