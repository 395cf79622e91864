/**
 * invoice-since (spec 4.2): `createdSince` and `updatedSince` (dates) return only invoices created, or updated, at or
 * after that date, alone, together, and on every page of a paged list. Every date the invoices carry, the day after
 * each and a day between each one's created and updated days is sent on every run (suites/invoices/invoices.ts
 * sinceDates), side by side, so an ignored or widened filter shows older ones on any seed; then both dates together
 * (pairedFilters: a day an invoice was created on with a day another was updated on); then the pages of each filter
 * (pagedFilters) walked with small limits, where a server that applies a filter to the unpaged list only lets older
 * invoices through. The records' timestamps are in UTC (spec 2), so the day an invoice was created or updated on is
 * its UTC day, and the date starts at its 00:00 UTC: a server that reads it hours early lists invoices from the day
 * before. `updatedSince` alone is sent with the whole list's `createdSince` (since 1900, core/whole-list.ts),
 * which a server may need and which leaves no invoice out; a whole list that lists nothing is compared with the list
 * asked without a query. Read-only.
 */
import { operationById } from '../../specs/contract.ts';
import {
  checkTest,
  test,
  type CheckContext,
  type Exchange,
  is2xx,
  walkPages,
  mapBoundedInOrder,
  WHOLE_INVOICE_SINCE,
} from '../lib/index.ts';
import {
  allInvoices,
  describeFilter,
  listInvoices,
  pagedFilters,
  pairedFilters,
  singleFilters,
  sinceMismatch,
  type ListedInvoice,
  type SinceFilter,
} from './invoices.ts';

function judge(ctx: CheckContext, items: ListedInvoice[], x: Exchange, f: SinceFilter, where: string): void {
  const early = items.map((inv, i) => ({ i, inv, why: sinceMismatch(inv, f) })).filter((e) => e.why !== undefined);
  const first = early[0];
  if (first)
    ctx.check.fail(
      `${where} returned ${early.length} invoice(s) from before that date (${describeFilter(f)}): ${early
        .slice(0, 5)
        .map((e) => `${e.inv.id} (${e.why})`)
        .join(', ')}`,
      {
        exchanges: [x],
        pointer: `/${first.i}/${first.why?.startsWith('created') ? 'created' : 'updated'}`,
      },
    );
}

/**
 * The whole list (since 1900) leaves no invoice out, so one that lists none while GET /invoices without a query lists
 * invoices created since 1900 drops what createdSince must keep. Asked only when the whole list is empty, where no
 * other request of this check could see it; a server that refuses the list without createdSince shows nothing here.
 */
async function wholeSinceNotEmptied(ctx: CheckContext): Promise<void> {
  const whole = await listInvoices(ctx);
  if (whole.items.length > 0) return;
  const bare = await ctx.api.op(operationById('listInvoices'), { query: {} });
  if (!is2xx(bare) || !Array.isArray(bare.response.body)) return;
  const kept = (bare.response.body as ListedInvoice[]).filter(
    (inv) => sinceMismatch(inv, WHOLE_INVOICE_SINCE) === undefined,
  );
  if (kept.length > 0)
    ctx.check.fail(
      `GET /invoices?${new URLSearchParams(whole.query)} lists no invoice, but GET /invoices lists ${kept.length} ` +
        `created since that date: ${kept
          .slice(0, 5)
          .map((inv) => `${inv.id} (created ${inv.created})`)
          .join(', ')}`,
      { exchanges: [whole.exchange, bare] },
    );
}

async function onlySince(ctx: CheckContext, f: SinceFilter): Promise<void> {
  const { items, exchange, query } = await listInvoices(ctx, { ...f });
  judge(ctx, items, exchange, f, `GET /invoices?${new URLSearchParams(query)}`);
}

/** Small pages, so a filter applied to only some of them shows; a few pages of each are enough to see it. */
const PAGED_LIMITS = [3];
const MAX_PAGES = 4;

async function onlySinceOnPages(ctx: CheckContext, f: SinceFilter, limit: number): Promise<void> {
  const { walk } = await walkPages(ctx, { ...f }, limit, MAX_PAGES);
  for (const p of walk?.pages ?? [])
    judge(ctx, (p.items ?? []) as unknown as ListedInvoice[], p.exchange, f, `page ${p.n} (limit ${limit})`);
}

test(
  ...checkTest(
    {
      check: 'invoice-since',
      operation: operationById('listInvoices'),
      title:
        'createdSince and updatedSince, alone, together and on every page, return only invoices at or after the date',
    },
    async (ctx) => {
      await wholeSinceNotEmptied(ctx);
      const all = await allInvoices(ctx);
      await mapBoundedInOrder([...singleFilters(all), ...pairedFilters(all)], (f) => onlySince(ctx, f));
      const paged = pagedFilters(all).filter((f) => Object.keys(f).length > 0);
      await mapBoundedInOrder(
        paged.flatMap((f) => PAGED_LIMITS.map((limit) => ({ f, limit }))),
        ({ f, limit }) => onlySinceOnPages(ctx, f, limit),
      );
    },
  ),
);
