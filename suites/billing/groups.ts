/**
 * The billing groups the flows use. Nothing in the spec creates billing groups,
 * so the suite works on the ones the deployment lists. Forced-status tests
 * avoid the first listed group (the contract suite reads it) and take disjoint
 * groups (sorted by id), so parallel tests never force the same group.
 */
import { operationById } from '../../specs/contract.ts';
import { type Exchange, statusOf, isForcedTag, WHOLE_BILLING_WINDOW, type CheckContext, skip } from '../lib/index.ts';
import type { GroupFacts } from '../generators/billing-filter.ts';
import { groupLeftOutOfWholeList, reportDivergence } from '../lib/world/index.ts';

export interface ListedGroup extends GroupFacts {
  id: string;
}

function asGroup(v: unknown): ListedGroup | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const g = v as Record<string, unknown>;
  const status = statusOf(g);
  if (typeof g.id !== 'string' || status === undefined) return undefined;
  return {
    id: g.id,
    status,
    date: String(g.date ?? ''),
    customerId: String(g.customerId ?? ''),
    inactive: g.inactive === true,
  };
}

/**
 * GET /billingGroups over the whole window (core/whole-list.ts), every group it lists. When it lists none, the
 * deployment may still have groups that another view shows (a filtered list, an invoice): the whole list then leaves
 * them out, which view-consistency owns (suites/lib/world/billing-list-evidence.ts), and the test is blocked by it;
 * otherwise the test is skipped, saying why: nothing to work on.
 */
export async function listGroups(ctx: CheckContext): Promise<{ groups: ListedGroup[]; exchange: Exchange }> {
  const x = await ctx.api.op(operationById('listBillingGroups'), { query: WHOLE_BILLING_WINDOW });
  ctx.check.expectSuccess(x, `GET /billingGroups?start=${WHOLE_BILLING_WINDOW.start}&end=${WHOLE_BILLING_WINDOW.end}`);
  ctx.check.expectSchema(x, 'billing-group-list', 'spec 4.2');
  const groups = (x.response.body as unknown[]).map(asGroup).filter((g): g is ListedGroup => g !== undefined);
  if (groups.length === 0) {
    const d = await groupLeftOutOfWholeList(ctx, x);
    if (d) reportDivergence(ctx, d);
    skip.nothingToJudge(
      ctx,
      'GET /billingGroups lists no billing group, and no filtered list or invoice shows one: nothing to check, and the spec offers no way to create one',
    );
  }
  return { groups, exchange: x };
}

/** Groups a write test may force, slot 0 for the single-status test, 1 and 2 for the bulk test. */
export function writableGroups(groups: readonly ListedGroup[]): ListedGroup[] {
  const rest = groups.slice(1).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return rest.length > 0 ? rest : [...groups];
}

/**
 * Status values to force on a group: values the deployment itself shows, and
 * 'Booked' (the one value spec 3 shows), other than the group's own. When there
 * is none, an invented value, which a server with a closed list may refuse.
 */
export function statusCandidates(
  groups: readonly ListedGroup[],
  own: string,
  runId: string,
): { values: string[]; invented: boolean } {
  const shown = [...new Set(['Booked', ...groups.map((g) => g.status)])]
    .filter((s) => s !== own && !isForcedTag(s))
    .sort();
  return shown.length > 0 ? { values: shown, invented: false } : { values: [`${runId}-forced`], invented: true };
}
