/**
 * The one offer API of the suites (spec 4.1), in two parts.
 *
 * Flow steps, for checks that judge offers (the offers, lifecycle and bad-input
 * suites): each write checks its own acknowledgement (any 2xx, the documented
 * ack shape) and registers what it wrote for cleanup; `awaitOffer` waits for an
 * asynchronous write to show up (spec 1) by polling with the target's deadline,
 * never a fixed sleep, and tells a check's own fault from another's.
 *
 * Set-up offers, at the end of this file, for checks that judge something else
 * (the contract suite: an offer to read, list, address or cancel): a PUT whose
 * ack is not judged, cancelled when the test ends once it is visible, because a
 * DELETE that overtakes its create could miss it.
 */
import type { OfferBulkItem, OfferWrite } from '../../schemas/types.generated.ts';
import { validate } from '../../schemas/registry.ts';
import { operationById } from '../../specs/contract.ts';
import { CheckBlocked, RECORD_IDENTITY, RESPONSE_SCHEMA } from './check-blocked.ts';
import type { CheckContext } from './check-test.ts';
import { type Exchange, is2xx } from './exchange.ts';
import { offerWriteBody } from './fixtures.ts';
import { freshId } from './fresh-id.ts';
import { answeredListedOther } from './offer-identity.ts';
import { waitForOffer } from './offers/offer-visible.ts';
import { noteVisibleAfter, pollVisible } from './property.ts';
import { BATCH_CHECK_EVERY_MS, batchesProcessed } from './batch-processed.ts';
import {
  expectationsOf,
  mismatches,
  readBackOwner,
  unmetPointers,
  unmetVerdict,
  type Expectation,
} from './readback.ts';

/** The check that owns "two POST /offers create two offers under two ids" (create-ids.spec.ts). */
export const OFFER_CREATE_IDS = 'offer-create-ids';

export interface Ack {
  batchId: string;
  exchange: Exchange;
  /** Every batch the write was answered with (a bulk the server took in parts has several). */
  batchIds: string[];
}

function field(x: Exchange, name: string): string {
  return (x.response.body as Record<string, string>)[name] as string;
}

/** POST /offers: creates an offer; the answer carries its id (spec 4.1, 2.7). */
export async function createOffer(ctx: CheckContext, body: OfferWrite): Promise<Ack & { id: string }> {
  const x = await ctx.api.op(operationById('createOffer'), { json: body });
  ctx.check.expectSuccess(x, 'POST /offers');
  ctx.check.expectSchema(x, 'batch-ack-create', 'spec 2.7');
  const id = field(x, 'id');
  // Two POSTs create two offers (spec 4.1): an id this test already wrote is offer-create-ids' to report.
  if (ctx.cleanup.wrote(id) && ctx.check.meta.check !== OFFER_CREATE_IDS)
    ctx.check.blocked(OFFER_CREATE_IDS, x, `POST /offers answered id ${id}, an offer this test had already written`);
  ctx.cleanup.offer(id);
  return { id, batchId: field(x, 'batchId'), exchange: x, batchIds: [field(x, 'batchId')] };
}

/** PUT /offers/{offerId}: creates or updates (spec 1, 4.1). */
export async function upsertOffer(ctx: CheckContext, id: string, body: OfferWrite): Promise<Ack> {
  ctx.cleanup.offer(id);
  const x = await ctx.api.op(operationById('upsertOffer'), { params: { offerId: id }, json: body });
  ctx.check.expectSuccess(x, `PUT /offers/${id}`);
  ctx.check.expectSchema(x, 'batch-ack', 'spec 2.7');
  return { batchId: field(x, 'batchId'), exchange: x, batchIds: [field(x, 'batchId')] };
}

/** DELETE /offers/{offerId}: cancels the offer (spec 3 rule 4) and answers a batchId (spec 4.1). */
export async function deleteOffer(ctx: CheckContext, id: string): Promise<Ack> {
  const x = await ctx.api.op(operationById('deleteOffer'), { params: { offerId: id } });
  ctx.check.expectSuccess(x, `DELETE /offers/${id}`);
  ctx.check.expectSchema(x, 'batch-ack', 'spec 4.1');
  return { batchId: field(x, 'batchId'), exchange: x, batchIds: [field(x, 'batchId')] };
}

/** POST /offers/bulk: answers `success` and `batchId` (spec 2.7, 4.1). */
/**
 * POST /offers/bulk. The maximum bulk size is the server's (spec 8: not shown): a bulk of several valid items refused
 * with a 4xx is sent again in halves, down to single items, so only a refused single valid item fails the check.
 * Answers the first part's acknowledgement.
 */
export async function bulkWriteOffers(ctx: CheckContext, items: OfferBulkItem[]): Promise<Ack> {
  for (const item of items) ctx.cleanup.offer(item.id);
  const x = await ctx.api.op(operationById('bulkWriteOffers'), { json: items });
  if (items.length > 1 && x.response.status >= 400 && x.response.status < 500) {
    const half = Math.ceil(items.length / 2);
    const first = await bulkWriteOffers(ctx, items.slice(0, half));
    const rest = await bulkWriteOffers(ctx, items.slice(half));
    return { ...first, batchIds: [...first.batchIds, ...rest.batchIds] };
  }
  ctx.check.expectSuccess(x, 'POST /offers/bulk');
  ctx.check.expectSchema(x, 'bulk-ack', 'spec 2.7');
  if ((x.response.body as { success: boolean }).success !== true) {
    ctx.check.fail(
      `POST /offers/bulk answered success: ${JSON.stringify((x.response.body as { success: unknown }).success)} for ${items.length} valid item(s)`,
      { exchanges: [x] },
      'spec 2.7',
    );
  }
  return { batchId: field(x, 'batchId'), exchange: x, batchIds: [field(x, 'batchId')] };
}

export interface OfferRead {
  exchange: Exchange;
  /** The element of the answered array that is this offer, if any: the last of its versions. */
  offer?: Record<string, unknown>;
  /**
   * Every element that is this offer. The answer is an "array of Offer" (spec 4.1) and the spec does not say why: a
   * server may answer one element, or every version of the offer, in an order of its own.
   */
  versions: Record<string, unknown>[];
  /** How a 2xx answer breaks the Offer list shape (spec 2.2), if it does: response-schema's to judge, not the flow's. */
  shapeProblem?: string;
}

/** Fields whose shape the calling check judges itself (unknown-price-strategy reads /priceStrategy). */
export interface ReadOptions {
  ownFields?: readonly string[];
  /**
   * The check that owns the expectations when they are only this flow's setup (an offer written to be cancelled or
   * listed must first read as written, which is offer-upsert's rule): a mismatch blocks the flow instead of failing it.
   * 'offer-upsert' stands for whichever check owns the fields that differ (readBackOwner).
   */
  setupOwnedBy?: string;
}

export interface AwaitOptions extends ReadOptions {
  /**
   * The offer as read before this write (undefined: the write creates it). A field showing neither its old value
   * nor the written one fails at once instead of after the deadline.
   */
  before?: Record<string, unknown>;
  /** The batches of the write: once they say they were processed, a field still old fails at once too. */
  batchIds?: readonly string[];
  /**
   * Called before this check fails: replays the write on a fresh offer and answers the check that owns the rule the
   * replay breaks too (the flow is then blocked by it), or undefined when the replay reads back as written.
   */
  control?: () => Promise<string | undefined>;
}

function shapeProblemOf(body: unknown, own: readonly string[]): string | undefined {
  const owned = (pointer: string) => own.some((f) => new RegExp(`^/\\d+/${f}(/|$)`).test(pointer));
  const v = validate('offer-list', body).violations.find((x) => !owned(x.pointer));
  return v ? `${v.pointer || '(root)'} ${v.message} (offer-list.schema.json)` : undefined;
}

/** Per flow, whether the list showed an answered id and the asked one both: asked once, since a list may be long. */
const listedOthers = new WeakMap<object, Map<string, Promise<boolean>>>();

function listedOther(ctx: CheckContext, id: string, answered: string): Promise<boolean> {
  let memo = listedOthers.get(ctx.cleanup);
  if (!memo) listedOthers.set(ctx.cleanup, (memo = new Map()));
  const key = `${id}\u0000${answered}`;
  let verdict = memo.get(key);
  if (!verdict) memo.set(key, (verdict = answeredListedOther(ctx.api, id, answered)));
  return verdict;
}

/**
 * The elements of a GET /offers/{offerId} answer that are the offer asked for: those carrying its id; else, when every
 * element carries one and the same other id (an id format of the server's own), all of them.
 */
function versionsIn(objects: readonly Record<string, unknown>[], id: string): Record<string, unknown>[] {
  const own = objects.filter((o) => o.id === id);
  if (own.length > 0) return own;
  const ids = new Set(objects.map((o) => o.id));
  return ids.size === 1 ? [...objects] : [];
}

/**
 * GET /offers/{offerId} answers an array of Offer (spec 4.1). The elements with
 * the requested id are the offer (one, or several versions of it); an answer
 * whose elements all carry one other id is taken as the offer too (id formats
 * are the server's), unless that id is another offer this test wrote, or the
 * server lists both ids as offers: then the GET answered another record, which
 * is record-identity's to report (the flow is blocked).
 */
export async function readOffer(ctx: CheckContext, id: string, opts: ReadOptions = {}): Promise<OfferRead> {
  const x = await ctx.api.op(operationById('getOffer'), { params: { offerId: id } });
  const body = x.response.body;
  if (x.response.status < 200 || x.response.status > 299) return { exchange: x, versions: [] };
  const shapeProblem = shapeProblemOf(body, opts.ownFields ?? []);
  if (!Array.isArray(body)) return { exchange: x, versions: [], ...(shapeProblem ? { shapeProblem } : {}) };
  const objects = body.filter((o): o is Record<string, unknown> => typeof o === 'object' && o !== null);
  const versions = versionsIn(objects, id);
  const offer = versions.at(-1);
  if (offer && offer.id !== id && typeof offer.id === 'string') {
    const whose = ctx.cleanup.wrote(offer.id)
      ? 'another offer this test wrote'
      : (await listedOther(ctx, id, offer.id))
        ? 'another offer GET /offers lists beside this one'
        : undefined;
    if (whose)
      ctx.check.blocked(
        RECORD_IDENTITY,
        x,
        `GET /offers/${id} answered offer ${offer.id}, ${whose} (a GET by id answers the record with that id)`,
      );
  }
  return { exchange: x, versions, ...(offer ? { offer } : {}), ...(shapeProblem ? { shapeProblem } : {}) };
}

/**
 * The version of a read that is the write: the last one meeting every expectation (whichever place the server gives
 * it), else the last. A read-back accepts any answer that contains the written record.
 */
export function writtenVersion(
  read: OfferRead,
  expectations: readonly Expectation[],
): Record<string, unknown> | undefined {
  return [...read.versions].reverse().find((v) => mismatches(v, expectations).length === 0) ?? read.offer;
}

/**
 * How a poll judges one read of a write: accept when some version meets every expectation; wait while none does but
 * one still shows each unmet field as it was before the write (or nothing is readable yet); impossible otherwise.
 */
export function readVerdict(
  read: OfferRead,
  expectations: readonly Expectation[],
  before?: Record<string, unknown>,
): 'accept' | 'wait' | 'impossible' {
  if (read.versions.length === 0) return 'wait';
  if (read.versions.some((v) => mismatches(v, expectations).length === 0)) return 'accept';
  return read.versions.some((v) => unmetVerdict(v, expectations, before) === 'wait') ? 'wait' : 'impossible';
}

/** One read of a poll, and whether the write's batches said they were processed before it was sent. */
interface PolledRead {
  read: OfferRead;
  processedBefore: boolean;
}

/**
 * Waits until the offer reads back with every expectation met, or fails the
 * check with the last read and what still differs. A 404 or an empty array
 * before the deadline is "not visible yet", not a failure (spec 1: asynchronous).
 * A field that shows neither its value before the write nor the written one, or
 * still the old one once the write's batches say they were processed, fails at
 * once: no wait can mend it. A read whose shape breaks spec 2.2 (e.g. quantity
 * "0") is not compared at all: the flow reports itself blocked by
 * response-schema, which owns that fault.
 */
export async function awaitOffer(
  ctx: CheckContext,
  id: string,
  expectations: readonly Expectation[],
  what: string,
  clause?: string,
  opts: AwaitOptions = {},
): Promise<Record<string, unknown>> {
  let processed = false;
  let reads = 0;
  // The batch is first asked right after the first read that misses (a write that shows at once costs no lookup),
  // so a server whose batch says processed fails in a few milliseconds, not after BATCH_CHECK_EVERY_MS.
  let lastBatchCheck = Number.NEGATIVE_INFINITY;
  const fetch = async (): Promise<PolledRead> => {
    if (!processed && opts.batchIds && reads > 0 && Date.now() - lastBatchCheck >= BATCH_CHECK_EVERY_MS) {
      lastBatchCheck = Date.now();
      processed = await batchesProcessed(ctx, opts.batchIds);
    }
    reads++;
    return { processedBefore: processed, read: await readOffer(ctx, id, opts) };
  };
  const r = await pollVisible(fetch, ({ read, processedBefore }) => {
    if (read.shapeProblem !== undefined) return 'accept';
    if (read.offer === undefined) return processedBefore ? 'impossible' : 'wait';
    const verdict = readVerdict(read, expectations, opts.before);
    return verdict === 'wait' && processedBefore ? 'impossible' : verdict;
  });
  const last = r.value.read;
  if (last.shapeProblem !== undefined)
    ctx.check.blocked(RESPONSE_SCHEMA, last.exchange, `GET /offers/${id}: ${last.shapeProblem}`);
  const seen = writtenVersion(last, expectations);
  if (r.ok && seen) {
    noteVisibleAfter(r.elapsedMs);
    return seen;
  }
  const after = r.impossible
    ? r.value.processedBefore
      ? `after ${r.elapsedMs} ms, once its batch said it was processed`
      : `after ${r.elapsedMs} ms, with a value that is neither the one before the write nor the one written`
    : `after ${r.elapsedMs} ms`;
  const why = seen
    ? `still differs ${after}:\n    ${mismatches(seen, expectations).join('\n    ')}`
    : `was not readable ${after}: GET answered ${last.exchange.response.status}${Array.isArray(last.exchange.response.body) ? ` with ${last.exchange.response.body.length} offer(s)` : ''}`;
  if (opts.setupOwnedBy) {
    const owner =
      opts.setupOwnedBy === 'offer-upsert' && seen
        ? readBackOwner(unmetPointers(seen, expectations))
        : opts.setupOwnedBy;
    return ctx.check.blocked(owner, last.exchange, `offer ${id} ${what}: ${why}`);
  }
  const owner =
    (last.offer && cancelledUnasked(last.offer, expectations) ? await bookingNeighbourControl(ctx) : undefined) ??
    (opts.control ? await opts.control() : undefined);
  if (owner && owner !== ctx.check.meta.check)
    return ctx.check.blocked(
      owner,
      last.exchange,
      `offer ${id} ${what}: ${why}; the same write on a fresh offer does not read back either, which is ${owner}'s rule`,
    );
  return ctx.check.fail(`offer ${id} ${what}: ${why}`, { exchanges: [last.exchange] }, clause);
}

/**
 * An offer this flow needs to exist before it judges its own rule: PUT to a fresh id and read back as written. A
 * miss is the read-back owner's (offer-upsert, or the flag's check), so it blocks the flow instead of failing it.
 */
export async function writeLiveOffer(
  ctx: CheckContext,
  body: OfferWrite,
): Promise<{ id: string; before: Record<string, unknown> }> {
  const id = ctx.cleanup.offer(freshId('offer'));
  const put = await upsertOffer(ctx, id, body);
  const before = await awaitOffer(
    ctx,
    id,
    expectationsOf(body, { created: true }),
    'was not created by a PUT to a new id',
    'spec 1',
    { setupOwnedBy: 'offer-upsert', batchIds: put.batchIds },
  );
  return { id, before };
}

/**
 * A control for a flag written by an update (cancel, settled): a plain update of another documented field on a fresh
 * offer. 'offer-upsert' when that update does not show either (updates are not applied at all, offer-upsert's rule),
 * else undefined: the flag alone is wrong.
 */
export async function updateControl(ctx: CheckContext, body: OfferWrite): Promise<string | undefined> {
  const plain: OfferWrite = { offer: body.offer ?? {} };
  const created = await controlWrite(ctx, plain);
  if (created.owner) return created.owner;
  const changed: OfferWrite = {
    offer: { ...plain.offer, offerVersion: `${String(plain.offer?.offerVersion ?? '')}-updated` },
  };
  return updateOwner(ctx, created, changed);
}

/**
 * A control for an offer whose last write was an update (a PUT, a cancel by flag, a bulk item to an existing offer):
 * a plain update (updateControl), then the same body PUT as an update of a fresh offer. Answers the check whose rule
 * the replay breaks (offer-upsert when updates are not applied, the flag's check for a flag), or undefined: then
 * the update fails only in the sequence the flow ran, which is the flow's own failure.
 */
export async function updateReplayControl(ctx: CheckContext, body: OfferWrite): Promise<string | undefined> {
  const plain = await updateControl(ctx, body);
  if (plain) return plain;
  const created = await controlWrite(ctx, { offer: {} });
  if (created.owner) return created.owner;
  const { id: _bulkId, ...single } = body as OfferBulkItem;
  const owner = await updateOwner(ctx, created, single);
  if (!owner && single.cancel === true) ctx.cleanup.offerCancelled(created.id);
  return owner;
}

/**
 * A control for an offer a POST created: the same body POSTed again. An answer naming an offer this test already
 * wrote blocks the flow by offer-create-ids (createOffer); else the owner of the fields that do not read back.
 */
export async function postControl(ctx: CheckContext, body: OfferWrite): Promise<string | undefined> {
  const created = await createOffer(ctx, body);
  return setupOwner(() =>
    awaitOffer(ctx, created.id, expectationsOf(body, { created: true }), 'control create', undefined, {
      batchIds: created.batchIds,
      setupOwnedBy: 'offer-upsert',
    }),
  );
}

/**
 * A control for an offer a bulk wrote: the same bulk replayed under fresh ids (so every item creates). 'offer-bulk'
 * when the item at `index` does not read back then either (a bulk alone breaks it, offer-bulk's rule), else undefined.
 */
export async function bulkControl(
  ctx: CheckContext,
  items: readonly OfferBulkItem[],
  index: number,
): Promise<string | undefined> {
  const fresh = items.map((item) => ({ ...item, id: ctx.cleanup.offer(freshId('control')) }));
  const ack = await bulkWriteOffers(ctx, fresh);
  const item = fresh[index];
  if (!item) return undefined;
  return setupOwner(() =>
    awaitOffer(ctx, item.id, expectationsOf(item, { created: true }), 'control bulk item', undefined, {
      batchIds: ack.batchIds,
      setupOwnedBy: 'offer-bulk',
    }),
  );
}

/** The owner a set-up read-back reported itself blocked by, or undefined when it read back. */
async function setupOwner(read: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await read();
    return undefined;
  } catch (error) {
    if (error instanceof CheckBlocked) return error.owner;
    throw error;
  }
}

/** PUT `update` to the control offer and read it back: the owner of the fields that do not show, or undefined. */
async function updateOwner(ctx: CheckContext, created: ControlResult, update: OfferWrite): Promise<string | undefined> {
  const put = await upsertOffer(ctx, created.id, update);
  return setupOwner(() =>
    awaitOffer(ctx, created.id, expectationsOf(update, { created: false }), 'control update', undefined, {
      ...(created.offer ? { before: created.offer } : {}),
      batchIds: put.batchIds,
      setupOwnedBy: 'offer-upsert',
    }),
  );
}

interface ControlResult {
  id: string;
  /** The check whose rule the replay breaks, if it does. */
  owner?: string;
  offer?: Record<string, unknown>;
}

/** The body PUT to a fresh id and read back, failing fast like awaitOffer. */
async function controlWrite(ctx: CheckContext, body: OfferWrite): Promise<ControlResult> {
  const { id: _bulkId, ...single } = body as OfferBulkItem;
  const id = ctx.cleanup.offer(freshId('control'));
  await upsertOffer(ctx, id, single);
  const expectations = expectationsOf(single, { created: true });
  const r = await pollVisible(
    () => readOffer(ctx, id),
    (read) => (read.shapeProblem !== undefined ? 'accept' : readVerdict(read, expectations)),
  );
  const offer = writtenVersion(r.value, expectations);
  if (r.value.shapeProblem !== undefined) return { id, owner: RESPONSE_SCHEMA };
  if (!offer) return { id, owner: 'offer-upsert' };
  if (offer.canceled === true) ctx.cleanup.offerCancelled(id);
  const unmet = unmetPointers(offer, expectations);
  return { id, offer, ...(unmet.length > 0 ? { owner: readBackOwner(unmet) } : {}) };
}

/**
 * A control for a flow that wrote `body` (a bulk item, a lifecycle step): the same body PUT to a fresh id, read
 * back. Answers the owner of the fields that do not read back (readBackOwner), or undefined when all do.
 */
export async function writeControl(ctx: CheckContext, body: OfferWrite): Promise<string | undefined> {
  return (await controlWrite(ctx, body)).owner;
}

/** writeControl, then DELETE of the fresh offer: 'offer-cancel' when it does not then read canceled: true. */
export async function deleteControl(ctx: CheckContext, body: OfferWrite): Promise<string | undefined> {
  const c = await controlWrite(ctx, body);
  if (c.owner) return c.owner;
  const del = await deleteOffer(ctx, c.id);
  const canceled = [{ pointer: '/canceled', value: true, compare: 'exact' as const }];
  let processed = false;
  const r = await pollVisible(
    async () => {
      const was = processed;
      processed ||= await batchesProcessed(ctx, del.batchIds);
      return { was, read: await readOffer(ctx, c.id) };
    },
    ({ was, read }) => {
      const verdict = readVerdict(read, canceled, c.offer);
      return verdict === 'wait' && was && read.versions.length > 0 ? 'impossible' : verdict;
    },
  );
  if (!r.ok) return 'offer-cancel';
  ctx.cleanup.offerCancelled(c.id);
  return undefined;
}

/** The offer reads canceled: true where the check expects it live: no write of this check cancelled it. */
function cancelledUnasked(offer: Record<string, unknown>, expectations: readonly Expectation[]): boolean {
  return offer.canceled === true && expectations.some((e) => e.pointer === '/canceled' && e.value === false);
}

/**
 * Before a check fails on an offer it never cancelled that reads cancelled: does a DELETE of one offer cancel the
 * other offers of its booking? Two fresh offers with one bookingId, the first deleted; once it reads cancelled, the
 * second is read. Cancelled too: the cancellation came from a neighbour's DELETE (generated bodies share bookingIds
 * now and then), which breaks spec 3 rule 4 ("the" offer), and 'offer-cancel' owns it. Else, or when the control
 * itself does not read back: undefined, and the caller's own control decides.
 */
export async function bookingNeighbourControl(ctx: CheckContext): Promise<string | undefined> {
  const body = offerWriteBody(ctx.runId);
  const named = await controlWrite(ctx, body);
  const neighbour = await controlWrite(ctx, body);
  if (named.owner || neighbour.owner) return undefined;
  await deleteOffer(ctx, named.id);
  const r = await pollVisible(
    () => readOffer(ctx, named.id),
    (read) => read.offer?.canceled === true,
  );
  if (!r.ok) return undefined;
  ctx.cleanup.offerCancelled(named.id);
  const read = await readOffer(ctx, neighbour.id);
  if (read.offer?.canceled !== true) return undefined;
  ctx.cleanup.offerCancelled(neighbour.id);
  return 'offer-cancel';
}

export interface WrittenOffer {
  id: string;
  exchange: Exchange;
}

/**
 * Creates an offer by upsert (PUT to a path carrying the id creates it, spec 1), registered for cleanup once it shows
 * (a test that cancels it itself says so with `ctx.cleanup.offerCancelled`).
 */
export async function putOffer(ctx: CheckContext, what = 'set-up offer'): Promise<WrittenOffer> {
  const id = ctx.cleanup.offer(freshId('offer', ctx.runId), { awaitVisible: true });
  const exchange = await ctx.api.op(operationById('upsertOffer'), {
    params: { offerId: id },
    json: offerWriteBody(ctx.runId),
  });
  if (!is2xx(exchange)) {
    ctx.check.fail(
      `could not write the ${what}: PUT /offers/{offerId} answered ${exchange.response.status}`,
      { exchanges: [exchange] },
      'spec 4.1',
    );
  }
  return { id, exchange };
}

/** Writes an offer and waits until it can be read; a miss after the deadline fails (spec 1: the write must become visible). */
export async function putVisibleOffer(
  ctx: CheckContext,
  what = 'set-up offer',
): Promise<WrittenOffer & { read: Exchange }> {
  const offer = await putOffer(ctx, what);
  const seen = await waitForOffer(ctx.api, offer.id);
  if (!seen.ok) {
    ctx.check.fail(
      `the ${what} ${offer.id} (PUT answered ${offer.exchange.response.status}) was not readable through GET /offers/{offerId} within ${seen.elapsedMs} ms (FLIS_VISIBILITY_TIMEOUT_MS); last answer ${seen.value.response.status}`,
      { exchanges: [offer.exchange, seen.value] },
      'spec 1',
    );
  }
  return { ...offer, read: seen.value };
}
