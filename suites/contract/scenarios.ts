/**
 * How to exercise each documented operation of spec 4.1 and 4.2 for real:
 * reads use records the deployment already lists, writes use records the suite
 * writes itself (ids tagged with the run id) and undo what they change. A
 * scenario returns the responses of the operation under test; the checks
 * (response-schema, json-content-type) judge them.
 *
 * Keyed by operationId so that a documented operation added to the contract
 * without a scenario fails loudly instead of going untested.
 */
import { operationById, type Operation } from '../../specs/contract.ts';
import {
  type Exchange,
  is2xx,
  type CheckContext,
  narrowedListQuery,
  WHOLE_BILLING_WINDOW,
  WHOLE_INVOICE_SINCE,
  WHOLE_OFFER_WINDOW,
  pollVisible,
  runNow,
  SHOWN_BILLING_GROUP_STATUS,
  offerBulkItem,
  offerWriteBody,
  putOffer,
  putVisibleOffer,
  offsetOfferWriteBody,
  sparseOfferWriteBodies,
  readOfferUpdatedTo,
  readOfferWrittenAs,
} from '../lib/index.ts';
import { firstListed } from './discover.ts';

export interface Scenario {
  /** True when exercising the operation writes to the deployment: skipped unless writes are allowed. */
  writes: boolean;
  run(ctx: CheckContext, op: Operation): Promise<Exchange[]>;
}

function stringField(body: unknown, name: string): string | undefined {
  const v = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
  return typeof v === 'string' ? v : undefined;
}

const DAY_MS = 86_400_000;
function isoDay(offsetDays: number): string {
  return new Date(runNow() + offsetDays * DAY_MS).toISOString().slice(0, 10);
}

/**
 * Filters that match nothing on any deployment (a window in 1971, a date ten years ahead, a customer id made up
 * for the run): an empty result still has its documented shape, an array (spec 4.1, 4.2), which no other list
 * of a run would show.
 */
const NOTHING_MATCHES = {
  offers: { start: '1971-01-01T00:00:00Z', end: '1971-01-02T00:00:00Z' },
  billingGroups: (runId: string) => narrowedListQuery('listBillingGroups', { customerId: `${runId}-no-such-customer` }),
  invoices: () => ({ createdSince: isoDay(3650), updatedSince: isoDay(3650) }),
};

/**
 * Lists the offers, always with the documented window (spec 4.1; whether it is required is not shown); when writes
 * are allowed, first writes one so the list has an Offer to judge.
 */
async function listOffers(ctx: CheckContext, op: Operation): Promise<Exchange[]> {
  const whole = () => ctx.api.op(op, { query: WHOLE_OFFER_WINDOW });
  if (!ctx.api.target.allowWrites) return [await whole(), await ctx.api.op(op, { query: NOTHING_MATCHES.offers })];
  const offer = await putOffer(ctx, 'offer to list');
  const listed = (x: Exchange) =>
    is2xx(x) && Array.isArray(x.response.body) && x.response.body.some((o) => stringField(o, 'id') === offer.id);
  const seen = await pollVisible(whole, listed);
  // Which timestamp start/end filter on is not shown (spec 4.3); the whole window covers both readings.
  if (!seen.ok)
    ctx.testInfo.annotations.push({
      type: 'note',
      description: `offer ${offer.id} was not in the list of the whole window within ${seen.elapsedMs} ms; the list was judged as it was`,
    });
  const windowed = await ctx.api.op(op, {
    query: { start: new Date(runNow() - DAY_MS).toISOString(), end: new Date(runNow() + DAY_MS).toISOString() },
  });
  return [seen.value, windowed, await ctx.api.op(op, { query: NOTHING_MATCHES.offers })];
}

/**
 * Reads offers the suite wrote when writes are allowed: one written whole, and, when the server takes them, four
 * written sparse (the fields a server computes, judged when the write leaves their sources out) and one whose
 * transportTimestamp has another offset (answered in UTC), and the first again after a second version; else one the
 * deployment lists.
 */
async function getOffer(ctx: CheckContext, op: Operation): Promise<Exchange[]> {
  if (ctx.api.target.allowWrites) {
    const [whole, ...more] = await Promise.all([
      putVisibleOffer(ctx, 'offer to read'),
      ...sparseOfferWriteBodies(ctx.runId).map((body) => readOfferWrittenAs(ctx, body)),
      readOfferWrittenAs(ctx, offsetOfferWriteBody(ctx.runId)),
    ]);
    // Once more after a second version: a server may answer the earlier one beside it, and both are Offers.
    const second = offerWriteBody(ctx.runId);
    const updated = await readOfferUpdatedTo(
      ctx,
      whole.id,
      { ...second, offer: { ...second.offer, offerVersion: '2' } },
      '2',
    );
    return [whole.read, ...[...more, updated].filter((x): x is Exchange => x !== undefined)];
  }
  const offer = await firstListed(ctx, 'listOffers');
  return [await ctx.api.op(op, { params: { offerId: offer.id } })];
}

async function createOffer(ctx: CheckContext, op: Operation): Promise<Exchange[]> {
  const x = await ctx.api.op(op, { json: offerWriteBody(ctx.runId) });
  const id = stringField(x.response.body, 'id');
  if (is2xx(x) && id) ctx.cleanup.offer(id, { awaitVisible: true });
  return [x];
}

/** Both documented uses of the upsert: the create, then an update of the now visible offer. */
async function upsertOffer(ctx: CheckContext, op: Operation): Promise<Exchange[]> {
  const created = await putVisibleOffer(ctx, 'offer written by PUT');
  const update = { ...offerWriteBody(ctx.runId), settled: false };
  update.offer!.quantity = 5;
  const updated = await ctx.api.op(op, { params: { offerId: created.id }, json: update });
  return [created.exchange, updated];
}

async function deleteOffer(ctx: CheckContext, op: Operation): Promise<Exchange[]> {
  const offer = await putVisibleOffer(ctx, 'offer to cancel');
  const x = await ctx.api.op(op, { params: { offerId: offer.id } });
  if (is2xx(x)) ctx.cleanup.offerCancelled(offer.id);
  return [x];
}

async function bulkWriteOffers(ctx: CheckContext, op: Operation): Promise<Exchange[]> {
  const items = [offerBulkItem(ctx.runId), offerBulkItem(ctx.runId)];
  const x = await ctx.api.op(op, { json: items });
  for (const item of items) ctx.cleanup.offer(item.id, { awaitVisible: true });
  return [x];
}

async function readBillingGroup(ctx: CheckContext, op: Operation): Promise<Exchange[]> {
  const group = await firstListed(ctx, 'listBillingGroups');
  return [await ctx.api.op(op, { params: { billingGroupId: group.id } })];
}

async function readInvoice(ctx: CheckContext, op: Operation): Promise<Exchange[]> {
  const invoice = await firstListed(ctx, 'listInvoices');
  return [await ctx.api.op(op, { params: { invoiceId: invoice.id } })];
}

/**
 * The billing group whose status the suite forces, and the value it forces: its
 * current status (or the one value spec 3 shows), so the visible status does not
 * change while the forced status exists. The undo removes the forced status.
 */
async function groupToForce(ctx: CheckContext): Promise<{ billingGroupId: string; status: string }> {
  const group = await firstListed(ctx, 'listBillingGroups');
  const status = typeof group.item.status === 'string' ? group.item.status : SHOWN_BILLING_GROUP_STATUS;
  return { billingGroupId: group.id, status };
}

function removeForcedStatusLater(ctx: CheckContext, billingGroupId: string): void {
  ctx.cleanup.add(`remove forced status of billing group ${billingGroupId}`, () =>
    ctx.api.op(operationById('removeBillingGroupStatus'), { params: { billingGroupId } }),
  );
}

async function forceBillingGroupStatus(ctx: CheckContext, op: Operation): Promise<Exchange[]> {
  const { billingGroupId, status } = await groupToForce(ctx);
  removeForcedStatusLater(ctx, billingGroupId);
  return [await ctx.api.op(op, { params: { billingGroupId }, json: { status } })];
}

async function removeBillingGroupStatus(ctx: CheckContext, op: Operation): Promise<Exchange[]> {
  const { billingGroupId, status } = await groupToForce(ctx);
  // Force first, so there is a forced status to remove.
  const forced = await ctx.api.op(operationById('forceBillingGroupStatus'), {
    params: { billingGroupId },
    json: { status },
  });
  const removed = await ctx.api.op(op, { params: { billingGroupId } });
  if (!is2xx(removed) && is2xx(forced)) removeForcedStatusLater(ctx, billingGroupId);
  return [removed];
}

/** Both documented uses of the bulk update (spec 3 rule 3): force, then remove with deleteStatus true. */
async function bulkUpdateBillingGroupStatus(ctx: CheckContext, op: Operation): Promise<Exchange[]> {
  const { billingGroupId, status } = await groupToForce(ctx);
  const forced = await ctx.api.op(op, { json: [{ billingGroupId, status, deleteStatus: false }] });
  const removed = await ctx.api.op(op, { json: [{ billingGroupId, deleteStatus: true }] });
  if (!is2xx(removed)) removeForcedStatusLater(ctx, billingGroupId);
  return [forced, removed];
}

/** The lists are asked with their documented window (core/whole-list.ts; whether it is required is not shown). */
async function listBillingGroups(ctx: CheckContext, op: Operation): Promise<Exchange[]> {
  const plain = await ctx.api.op(op, { query: WHOLE_BILLING_WINDOW });
  const filtered = await ctx.api.op(op, { query: { start: isoDay(-3650), end: isoDay(3650), inactive: false } });
  return [plain, filtered, await ctx.api.op(op, { query: NOTHING_MATCHES.billingGroups(ctx.runId) })];
}

async function listInvoices(ctx: CheckContext, op: Operation): Promise<Exchange[]> {
  const plain = await ctx.api.op(op, { query: WHOLE_INVOICE_SINCE });
  const limited = await ctx.api.op(op, { query: { createdSince: isoDay(-3650), limit: 2 } });
  return [plain, limited, await ctx.api.op(op, { query: NOTHING_MATCHES.invoices() })];
}

const scenarios: Record<string, Scenario> = {
  listOffers: { writes: false, run: listOffers },
  createOffer: { writes: true, run: createOffer },
  getOffer: { writes: false, run: getOffer },
  upsertOffer: { writes: true, run: upsertOffer },
  deleteOffer: { writes: true, run: deleteOffer },
  bulkWriteOffers: { writes: true, run: bulkWriteOffers },
  listBillingGroups: { writes: false, run: listBillingGroups },
  getBillingGroup: { writes: false, run: readBillingGroup },
  getBillingGroupDetails: { writes: false, run: readBillingGroup },
  forceBillingGroupStatus: { writes: true, run: forceBillingGroupStatus },
  removeBillingGroupStatus: { writes: true, run: removeBillingGroupStatus },
  bulkUpdateBillingGroupStatus: { writes: true, run: bulkUpdateBillingGroupStatus },
  listInvoices: { writes: false, run: listInvoices },
  getInvoice: { writes: false, run: readInvoice },
  getInvoiceBillingGroupDetailsSnapshot: { writes: false, run: readInvoice },
};

/** The scenario of a documented operation; a missing one is a suite bug, reported as such. */
export function scenarioFor(op: Operation): Scenario {
  const s = scenarios[op.operationId];
  if (s) return s;
  return {
    writes: false,
    run: () =>
      Promise.reject(
        new Error(
          `suite bug: no scenario for documented operation ${op.operationId}; add one to suites/contract/scenarios.ts`,
        ),
      ),
  };
}
