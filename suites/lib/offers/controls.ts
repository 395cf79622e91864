/**
 * Controls: before a flow fails on an offer that does not read back as written, the write is replayed on a fresh offer.
 * When the replay misses too, the rule it breaks is another check's (offer-upsert, offer-bulk, offer-cancel, or the
 * flag's check), which then blocks the flow: one fault, one failure. A control answers that owner, or undefined when
 * the replay reads back, and the flow's own failure stands. Pass one as `awaitOffer`'s `control`.
 */
import type { OfferBulkItem, OfferWrite } from '../../../schemas/types.generated.ts';
import { batchesProcessed } from '../batch-processed.ts';
import type { CheckId } from '../catalogue.ts';
import { CheckBlocked, RESPONSE_SCHEMA } from '../check-blocked.ts';
import type { CheckContext } from '../check-test.ts';
import { freshId } from '../fresh-id.ts';
import { offerWriteBody } from '../fixtures.ts';
import { pollVisible } from '../visibility-deadline.ts';
import { expectationsOf, readBackOwner, unmetPointers } from '../readback.ts';
import {
  bulkWriteOffers,
  createOffer,
  deleteOffer,
  readOffer,
  readVerdict,
  upsertOffer,
  writtenVersion,
} from './flow-steps.ts';
import { awaitSetupOffer } from './poll-read-back.ts';

/**
 * A control for a flag written by an update (cancel, settled): a plain update of another documented field on a fresh
 * offer. 'offer-upsert' when that update does not show either (updates are not applied at all, offer-upsert's rule),
 * else undefined: the flag alone is wrong.
 */
export async function updateControl(ctx: CheckContext, body: OfferWrite): Promise<CheckId | undefined> {
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
export async function updateReplayControl(ctx: CheckContext, body: OfferWrite): Promise<CheckId | undefined> {
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
export async function postControl(ctx: CheckContext, body: OfferWrite): Promise<CheckId | undefined> {
  const created = await createOffer(ctx, body);
  return setupOwner(() =>
    awaitSetupOffer(ctx, created.id, {
      expectations: expectationsOf(body, { created: true }),
      problem: 'control create',
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
): Promise<CheckId | undefined> {
  const fresh = items.map((item) => ({ ...item, id: ctx.cleanup.offer(freshId('control')) }));
  const ack = await bulkWriteOffers(ctx, fresh);
  const item = fresh[index];
  if (!item) return undefined;
  return setupOwner(() =>
    awaitSetupOffer(ctx, item.id, {
      expectations: expectationsOf(item, { created: true }),
      problem: 'control bulk item',
      batchIds: ack.batchIds,
      setupOwnedBy: 'offer-bulk',
    }),
  );
}

/** The owner a set-up read-back reported itself blocked by, or undefined when it read back. */
async function setupOwner(read: () => Promise<unknown>): Promise<CheckId | undefined> {
  try {
    await read();
    return undefined;
  } catch (error) {
    if (error instanceof CheckBlocked) return error.owner;
    throw error;
  }
}

/** PUT `update` to the control offer and read it back: the owner of the fields that do not show, or undefined. */
async function updateOwner(
  ctx: CheckContext,
  created: ControlResult,
  update: OfferWrite,
): Promise<CheckId | undefined> {
  const put = await upsertOffer(ctx, created.id, update);
  return setupOwner(() =>
    awaitSetupOffer(ctx, created.id, {
      expectations: expectationsOf(update, { created: false }),
      problem: 'control update',
      before: created.offer,
      batchIds: put.batchIds,
      setupOwnedBy: 'offer-upsert',
    }),
  );
}

interface ControlResult {
  id: string;
  /** The check whose rule the replay breaks, if it does. */
  owner?: CheckId;
  offer?: Record<string, unknown>;
}

/** The body PUT to a fresh id and read back, failing fast like pollReadBack. */
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
export async function writeControl(ctx: CheckContext, body: OfferWrite): Promise<CheckId | undefined> {
  return (await controlWrite(ctx, body)).owner;
}

/** writeControl, then DELETE of the fresh offer: 'offer-cancel' when it does not then read canceled: true. */
export async function deleteControl(ctx: CheckContext, body: OfferWrite): Promise<CheckId | undefined> {
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

/**
 * Before a check fails on an offer it never cancelled that reads cancelled: does a DELETE of one offer cancel the
 * other offers of its booking? Two fresh offers with one bookingId, the first deleted; once it reads cancelled, the
 * second is read. Cancelled too: the cancellation came from a neighbour's DELETE (generated bodies share bookingIds
 * now and then), which breaks spec 3 rule 4 ("the" offer), and 'offer-cancel' owns it. Else, or when the control
 * itself does not read back: undefined, and the caller's own control decides.
 */
export async function bookingNeighbourControl(ctx: CheckContext): Promise<CheckId | undefined> {
  const { bookingId: _b, noPayment: _n, ...unbooked } = offerWriteBody(ctx.runId).offer ?? {};
  // Offers of one booking, and offers that share the defaults of one left out (no bookingId): generated bodies are both.
  return (
    (await neighbourCancelled(ctx, offerWriteBody(ctx.runId))) ?? (await neighbourCancelled(ctx, { offer: unbooked }))
  );
}

/**
 * Two fresh offers written with `body`, the first deleted and seen cancelled: the pair, or undefined when either does
 * not read back or the DELETE does not show (the control then says nothing).
 */
async function deletedBesideNeighbour(
  ctx: CheckContext,
  body: OfferWrite,
): Promise<{ named: ControlResult; neighbour: ControlResult } | undefined> {
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
  return { named, neighbour };
}

async function neighbourCancelled(ctx: CheckContext, body: OfferWrite): Promise<CheckId | undefined> {
  const pair = await deletedBesideNeighbour(ctx, body);
  if (!pair) return undefined;
  const read = await readOffer(ctx, pair.neighbour.id);
  if (read.offer?.canceled !== true) return undefined;
  ctx.cleanup.offerCancelled(pair.neighbour.id);
  return 'offer-cancel';
}

/**
 * Before a check fails on an offer it cancelled that reads live again: does a write to another offer of its booking
 * undo a cancellation? Two fresh offers of one booking, the first deleted and seen cancelled, the second updated; once
 * the update shows, the first is read. Live again: a write to another offer undid it, which breaks spec 3 rule 4
 * (only a write to an offer changes whether it is cancelled), offer-cancel's. Else, or when the control does not read
 * back: undefined.
 */
export async function uncancelledByNeighbourControl(ctx: CheckContext): Promise<CheckId | undefined> {
  const body = offerWriteBody(ctx.runId);
  const pair = await deletedBesideNeighbour(ctx, body);
  if (!pair) return undefined;
  const update: OfferWrite = {
    offer: { ...body.offer, offerVersion: `${String(body.offer?.offerVersion ?? '')}-later` },
  };
  if (await updateOwner(ctx, pair.neighbour, update)) return undefined;
  const read = await readOffer(ctx, pair.named.id);
  return read.offer?.canceled === false ? 'offer-cancel' : undefined;
}
