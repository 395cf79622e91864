/**
 * The billing groups other views show, for judging the whole GET /billingGroups both ways (spec 4.2): the list over
 * the whole window (suites/lib/whole-list.ts) is "array of billing group", and every filter it documents only narrows
 * it, so a group that a filtered list shows (`inactive` is true or false for every group: the two lists together show
 * every group), or that an invoice names (spec 2.6, `billingGroupIds`) and the GET by id answers dated inside the
 * window, is in the whole list, when nothing says that list was cut (suites/lib/world/whole-lists.ts).
 *
 * Who owns what it finds: the whole list leaving out a group the GET by id answers is view-consistency's (one group,
 * in every view that must show it); a filtered list showing a group the GET by id does not answer is billing-filters'
 * (it shows what matches no filter: nothing); an invoice naming a group that does not answer is invoice-references'.
 */
import { operationById } from '../../../specs/contract.ts';
import type { CheckId } from '../catalogue.ts';
import type { CheckContext } from '../check-test.ts';
import { type Exchange, is2xx } from '../exchange.ts';
import { narrowedListQuery, WHOLE_BILLING_WINDOW, WHOLE_INVOICE_SINCE } from '../whole-list.ts';
import { surelyInWholeWindow } from './billing-groups.ts';
import { wholeness } from './whole-lists.ts';
import { VIEW_CONSISTENCY, type Divergence } from './world.ts';

type Json = Record<string, unknown>;

/** Groups read by id at most, of those the whole list leaves out: enough to show it, bounded on a large deployment. */
const MAX_READS = 20;

const WHOLE_QUERY = `GET /billingGroups?start=${WHOLE_BILLING_WINDOW.start}&end=${WHOLE_BILLING_WINDOW.end}`;

function idsOf(body: unknown): string[] {
  if (!Array.isArray(body)) return [];
  return body
    .map((g) => (typeof g === 'object' && g !== null ? (g as Json).id : undefined))
    .filter((id): id is string => typeof id === 'string');
}

/** Where a group was seen, other than the whole list: the answer that showed it and who owns that answer. */
interface Sighting {
  id: string;
  where: string;
  x: Exchange;
  /** The owner of the view that showed it, if the group turns out not to be there at all. */
  ownerIfAbsent: CheckId;
}

/** The groups the two `inactive` lists (over the whole window) and the invoices show, the first sighting of each. */
async function sightings(ctx: CheckContext): Promise<Sighting[]> {
  const list = operationById('listBillingGroups');
  const [inactive, active, invoices] = await Promise.all([
    ctx.api.op(list, { query: narrowedListQuery('listBillingGroups', { inactive: 'true' }) }),
    ctx.api.op(list, { query: narrowedListQuery('listBillingGroups', { inactive: 'false' }) }),
    ctx.api.op(operationById('listInvoices'), { query: WHOLE_INVOICE_SINCE }),
  ]);
  const seen = new Map<string, Sighting>();
  for (const [x, where] of [
    [inactive, 'GET /billingGroups?inactive=true'],
    [active, 'GET /billingGroups?inactive=false'],
  ] as const)
    if (is2xx(x))
      for (const id of idsOf(x.response.body))
        if (!seen.has(id)) seen.set(id, { id, where, x, ownerIfAbsent: 'billing-filters' });
  if (is2xx(invoices) && Array.isArray(invoices.response.body))
    for (const inv of invoices.response.body as Json[]) {
      const named = Array.isArray(inv?.billingGroupIds) ? inv.billingGroupIds : [];
      for (const id of named)
        if (typeof id === 'string' && !seen.has(id))
          seen.set(id, {
            id,
            where: `invoice ${String(inv.id)} (billingGroupIds)`,
            x: invoices,
            ownerIfAbsent: 'invoice-references',
          });
    }
  return [...seen.values()];
}

/**
 * The first group the whole list `whole` leaves out that another view shows and the GET by id answers dated inside
 * the window, as a divergence, when nothing says the list was cut; or a view showing a group that is not there.
 */
export async function groupLeftOutOfWholeList(ctx: CheckContext, whole: Exchange): Promise<Divergence | undefined> {
  if (!is2xx(whole) || !Array.isArray(whole.response.body)) return undefined;
  const listed = new Set(idsOf(whole.response.body));
  const others = (await sightings(ctx)).filter((s) => !listed.has(s.id));
  if (others.length === 0) return undefined;
  const w = wholeness(ctx, whole, 'group(s)');
  if (!w.whole) return undefined;
  for (const s of others.slice(0, MAX_READS)) {
    const x = await ctx.api.op(operationById('getBillingGroup'), { params: { billingGroupId: s.id } });
    const body = x.response.body as Json | undefined;
    if (!is2xx(x)) {
      if (x.response.status >= 400 && x.response.status < 500)
        return {
          owner: s.ownerIfAbsent,
          clause: s.ownerIfAbsent === 'invoice-references' ? 'spec 2.6' : 'spec 4.2',
          message: `${s.where} shows billing group ${s.id}, which neither ${WHOLE_QUERY} lists nor GET /billingGroups/${s.id} answers (${x.response.status})`,
          exchanges: [s.x, whole, x],
        };
      continue;
    }
    if (body?.id !== s.id || !surelyInWholeWindow(body.date)) continue;
    return {
      owner: VIEW_CONSISTENCY,
      clause: 'spec 4.2',
      message: `${WHOLE_QUERY} leaves out billing group ${s.id}, which ${s.where} shows and GET /billingGroups/${s.id} answers dated ${String(body.date)}: the list answered ${w.why}, so it is the whole list, and no documented filter of it leaves that group out`,
      exchanges: [s.x, x, whole],
    };
  }
  return undefined;
}
