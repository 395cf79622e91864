/**
 * view-consistency (spec 2.4, 2.5, 2.6, 3 rule 1, 4.2): one record, the same in every view that shows it. The spec
 * names several views of one billing group (the list, GET by id, its details, the list under the `state` filter) and
 * three of one invoice (the list's `billingGroupIds`, GET by id's `billingGroups`, the snapshot's
 * `billingGroupDetails`). Where two views show the same documented field, they agree, once a write has had time to
 * show. Both tests keep a world model (suites/lib/world/) of what they read and wrote and compare every view of every
 * record in it with the model, before and after each write:
 * - invoices: every listed invoice (at most MAX_INVOICES) shows in its single view and its snapshot the documented
 *   fields its list entry shows, and names there the billing groups its list entry names, both ways: no other known
 *   group, and, once a view has shown an invoice's groups by their ids, every listed group it names (read-only);
 * - the whole list of billing groups: a group a filtered list (`inactive` true, false: together every group) or an
 *   invoice shows, and that the GET by id answers dated inside the window, is in the whole list, when nothing says
 *   that list was cut (suites/lib/world/whole-lists.ts; read-only);
 * - a forced status: one billing group is forced to a value naming the run, then the forced status is removed; after
 *   each write the list, the GET by id and the details show the same status, the model's, and the `state` filter with
 *   it lists the group; the invoices naming the group are compared again too. A group another run is forcing is
 *   passed over (runs share a deployment's groups: suites/billing/shared-groups.ts), never failed.
 * What the views leave open stays open: order, extra fields, how long a write takes to show (polled to the
 * visibility deadline, never a fixed wait), what the objects inside an invoice carry besides an id. A divergence
 * another check owns (a GET answering another record, a shape, a forced status that does not show in any view, a
 * filter leaving out a match) blocks this check by that owner.
 */
import { operationById } from '../../specs/contract.ts';
import {
  checkTest,
  test,
  type CheckContext,
  skip,
  forcedTag,
  isForeignTag,
  WHOLE_BILLING_WINDOW,
  WHOLE_INVOICE_SINCE,
} from '../lib/index.ts';
import {
  BillingGroupRecord,
  ForeignStatus,
  groupLeftOutOfWholeList,
  InvoiceBook,
  InvoiceRecord,
  reportDivergence,
  World,
  worldModelOn,
  type EffectOwner,
} from '../lib/world/index.ts';
import { listGroups, statusCandidates, type ListedGroup } from './groups.ts';
import { groupsForRun, takenOver } from './shared-groups.ts';
import { currentStatus, expectForced, forceStatus, removeStatus } from './status.ts';

/** Each invoice costs two reads a comparison: enough to meet every kind of invoice, few enough for a large deployment. */
const MAX_INVOICES = 30;

interface ListedInvoice {
  id: string;
  billingGroupIds: string[];
  entry: Record<string, unknown>;
}

function asInvoice(v: unknown): ListedInvoice | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const i = v as { id?: unknown; billingGroupIds?: unknown };
  if (typeof i.id !== 'string' || !Array.isArray(i.billingGroupIds)) return undefined;
  return {
    id: i.id,
    billingGroupIds: i.billingGroupIds.filter((g): g is string => typeof g === 'string'),
    entry: v as Record<string, unknown>,
  };
}

/**
 * GET /invoices since 1900 (core/whole-list.ts) as the server pages it without a limit (spec 4.2 shows no
 * default), and the groups it names.
 */
async function listInvoices(ctx: CheckContext): Promise<ListedInvoice[]> {
  const x = await ctx.api.op(operationById('listInvoices'), { query: WHOLE_INVOICE_SINCE });
  ctx.check.expectSuccess(x, `GET /invoices?createdSince=${WHOLE_INVOICE_SINCE.createdSince}`);
  ctx.check.expectSchema(x, 'invoice-list', 'spec 4.2');
  return (x.response.body as unknown[]).map(asInvoice).filter((i): i is ListedInvoice => i !== undefined);
}

/** What the invoices of a world share: the groups the billing list shows, and every group the invoices name. */
function invoiceBook(groups: readonly ListedGroup[], invoices: readonly ListedInvoice[]): InvoiceBook {
  const book = new InvoiceBook();
  for (const g of groups) {
    book.listedGroups.add(g.id);
    book.knownGroups.add(g.id);
  }
  for (const i of invoices) for (const g of i.billingGroupIds) book.knownGroups.add(g);
  return book;
}

/** Adds the invoices to the world (at most MAX_INVOICES); answers their records. */
function addInvoices(world: World, invoices: readonly ListedInvoice[], book: InvoiceBook): InvoiceRecord[] {
  return invoices.slice(0, MAX_INVOICES).map((i) => {
    const record = new InvoiceRecord(i.id, i.entry, book);
    world.add(`invoice ${i.id}`, record);
    return record;
  });
}

/**
 * Compares the invoices' views; an invoice judged before any view showed its groups by id is compared once more
 * when one since has (the order the list gives them in is the server's).
 */
async function settleInvoices(ctx: CheckContext, world: World, records: readonly InvoiceRecord[], step: string) {
  await world.settle(ctx, step);
  const blind = records.filter((r) => r.judgedBlind());
  if (blind.length === 0) return;
  const again = new World();
  for (const r of blind) again.add(`invoice ${r.id}`, r);
  await again.settle(ctx, step);
}

function skipUnlessWorldModel(ctx: CheckContext): void {
  if (!worldModelOn()) skip.nothingToJudge(ctx, 'the world model is off (FLIS_WORLD_MODEL=off, for the bench)');
}

test(
  ...checkTest(
    {
      check: 'view-consistency',
      clauses: ['spec 2.6', 'spec 4.2'],
      operation: operationById('getInvoiceBillingGroupDetailsSnapshot'),
      title: 'an invoice shows the same fields and billing groups in the list, by id and in its snapshot, both ways',
    },
    async (ctx) => {
      skipUnlessWorldModel(ctx);
      const invoices = await listInvoices(ctx);
      if (invoices.length === 0) skip.nothingToJudge(ctx, 'GET /invoices lists no invoice: nothing to compare');
      const { groups } = await listGroups(ctx);
      const world = new World();
      const records = addInvoices(world, invoices, invoiceBook(groups, invoices));
      await settleInvoices(ctx, world, records, 'reading');
    },
  ),
);

test(
  ...checkTest(
    {
      check: 'view-consistency',
      clauses: ['spec 4.2'],
      operation: operationById('listBillingGroups'),
      title: 'the whole list of billing groups shows every group a filtered list or an invoice shows',
    },
    async (ctx) => {
      const x = await ctx.api.op(operationById('listBillingGroups'), { query: WHOLE_BILLING_WINDOW });
      ctx.check.expectSuccess(
        x,
        `GET /billingGroups?start=${WHOLE_BILLING_WINDOW.start}&end=${WHOLE_BILLING_WINDOW.end}`,
      );
      ctx.check.expectSchema(x, 'billing-group-list', 'spec 4.2');
      const d = await groupLeftOutOfWholeList(ctx, x);
      if (d) reportDivergence(ctx, d);
      if ((x.response.body as unknown[]).length === 0)
        skip.nothingToJudge(ctx, 'no view shows a billing group: nothing to compare');
    },
  ),
);

const FORCED: EffectOwner = { check: 'billing-forced-status', clause: 'spec 3 rule 1' };
const REMOVED: EffectOwner = { check: 'billing-forced-status', clause: 'spec 3 rule 2' };

test(
  ...checkTest(
    {
      check: 'view-consistency',
      clauses: ['spec 2.4', 'spec 2.5', 'spec 3 rule 1', 'spec 4.2'],
      operation: operationById('listBillingGroups'),
      title: 'a forced status shows the same in the list, by id, in the details and under the state filter',
      writes: true,
    },
    async (ctx) => {
      skipUnlessWorldModel(ctx);
      const runId = ctx.runId;
      const { groups } = await listGroups(ctx);
      const invoices = await listInvoices(ctx);
      const passedOver: string[] = [];
      // From the end of the run's order: the forced-status tests of this suite take the first ones.
      for (const group of groupsForRun(groups, runId).reverse().slice(0, MAX_GROUPS_TRIED)) {
        try {
          return await forcedStatusViews(ctx, group, groups, invoices);
        } catch (error) {
          if (!(error instanceof ForeignStatus)) throw error;
          passedOver.push(error.message);
        }
      }
      if (passedOver.length === 0)
        skip.nothingToJudge(ctx, 'GET /billingGroups lists no billing group this run may force');
      skip.inconclusive(
        ctx,
        `other runs were forcing statuses on every billing group tried (${passedOver.join('; ')})`,
      );
    },
  ),
);

/**
 * A group is passed over while another run's forced value shows on it; at most this many are tried. Each run sharing
 * the deployment holds up to two groups at a time (the bulk test's), and runs started together may start at the same
 * group, so a few tries are not enough: twelve let this run find a free group beside five others.
 */
const MAX_GROUPS_TRIED = 12;

/** Reads, forces a status, removes it: after each step every view of the group and of its invoices agrees with the model. */
async function forcedStatusViews(
  ctx: CheckContext,
  group: ListedGroup,
  groups: ListedGroup[],
  invoices: ListedInvoice[],
): Promise<void> {
  const own = (await currentStatus(ctx, group.id)) ?? group.status;
  if (isForeignTag(own, ctx.runId)) throw new ForeignStatus(group.id, `GET by id showed '${own}'`);
  ctx.cleanup.billingStatus(group.id, own);
  const world = new World();
  const record = new BillingGroupRecord(group.id, { is: own }, FORCED);
  world.add(record.key, record);
  const naming = invoices.filter((i) => i.billingGroupIds.includes(group.id)).slice(0, 3);
  addInvoices(world, naming, invoiceBook(groups, invoices));
  await world.settle(ctx, 'reading');

  const forced = await forceSomeStatus(ctx, group.id, own, groups);
  record.expect({ is: forced }, FORCED, async () =>
    expectForced(ctx, await forceStatus(ctx, group.id, forced), group.id),
  );
  await world.settle(ctx, `PUT /billingGroups/${group.id}/status '${forced}'`);

  const taken = await takenOver(ctx, group.id, ctx.runId);
  if (taken !== undefined) throw new ForeignStatus(group.id, `GET by id showed '${taken}' before the DELETE`);
  await removeStatus(ctx, group.id);
  record.expect({ not: forced }, REMOVED);
  await world.settle(ctx, `DELETE /billingGroups/${group.id}/status`);
}

/** Forces a value naming the run; a server with a closed list of statuses (spec 3 shows none) gets one it shows. */
async function forceSomeStatus(
  ctx: CheckContext,
  billingGroupId: string,
  own: string,
  groups: readonly ListedGroup[],
): Promise<string> {
  const tag = forcedTag(ctx.runId, 'views');
  const put = await forceStatus(ctx, billingGroupId, tag);
  if (put.response.status < 400 || put.response.status > 499) {
    expectForced(ctx, put, billingGroupId);
    return tag;
  }
  const { values, invented } = statusCandidates(groups, own, ctx.runId);
  const shown = values[0];
  const again = shown === undefined || invented ? undefined : await forceStatus(ctx, billingGroupId, shown);
  if (shown === undefined || again === undefined || (again.response.status >= 400 && again.response.status <= 499))
    skip.nothingToJudge(
      ctx,
      `billing group ${billingGroupId}: the server refused '${tag}' and shows no other status to force`,
    );
  expectForced(ctx, again, billingGroupId);
  return shown;
}
