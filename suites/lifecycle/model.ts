/**
 * The model of the lifecycle run: the offers this run wrote, what each must
 * read back, and whether it is cancelled. After every command the server is
 * checked against all of it, so a step that breaks an earlier offer is caught
 * at that step, not at some later read.
 */
import type fc from 'fast-check';
import type { OfferWrite } from '../../schemas/types.generated.ts';
import type { OfferBulkItem } from '../../schemas/types.generated.ts';
import {
  type CheckContext,
  awaitOffer,
  bulkControl,
  deleteControl,
  postControl,
  updateReplayControl,
  writeControl,
  type Expectation,
} from '../lib/index.ts';

export interface ModelOffer {
  id: string;
  /** The documented fields the last write determined (an update says nothing of the fields it leaves out). */
  expectations: Expectation[];
  canceled: boolean;
  /** The last body written to it: replayed on a fresh offer to tell a read-back fault (not this check's) apart. */
  body: OfferWrite;
  /** How the last body was written: replayed the same way on fresh offers before this check fails. */
  write: LastWrite;
  /** Set once a DELETE cancelled it. */
  deleted?: boolean;
  /** The offer as last read: a field showing neither this nor the expected value fails at once. */
  seen?: Record<string, unknown>;
}

/** A creation (by POST or by PUT to a new id) or an update by a single write, or an item of a bulk (which may also have updated an existing offer). */
export type LastWrite =
  | { kind: 'create'; by: 'POST' | 'PUT' }
  | { kind: 'update' }
  | { kind: 'bulk'; items: OfferBulkItem[]; index: number; updated: boolean };

export interface OfferModel {
  offers: ModelOffer[];
}

export interface Real {
  ctx: CheckContext;
}

export type OfferCommand = fc.AsyncCommand<OfferModel, Real>;

/** Enough offers for updates and bulk writes to hit existing ones, few enough to check all after every step. */
export const MAX_OFFERS = 6;

export function liveOffers(m: OfferModel): ModelOffer[] {
  return m.offers.filter((o) => !o.canceled);
}

/** The live offer a generated index points at (indices are drawn before the offers exist). */
export function pickLive(m: OfferModel, index: number): ModelOffer | undefined {
  const live = liveOffers(m);
  return live[index % Math.max(1, live.length)];
}

export function upsertModel(m: OfferModel, offer: ModelOffer): void {
  const i = m.offers.findIndex((o) => o.id === offer.id);
  if (i >= 0) m.offers[i] = offer;
  else m.offers.push(offer);
}

/** What the offer must read: its written fields, and `canceled` as the model has it (not as the last body said). */
export function expectedOf(o: ModelOffer): Expectation[] {
  return [
    ...o.expectations.filter((e) => e.pointer !== '/canceled'),
    { pointer: '/canceled', value: o.canceled, compare: 'exact' },
  ];
}

/**
 * Before this check fails on an offer: the same body written alone, as the same kind of write (a creation, the same
 * POST again, the same bulk under fresh ids, an update of a fresh offer), and deleted if the model deleted it, must read back, or the fault is the owner's of that
 * rule (offer-upsert, offer-cancel, offer-settled), not this check's: offer-lifecycle keeps what only a model sees
 * (sequences, a DELETE after updates, bulk after single writes).
 */
function controlOf(real: Real, o: ModelOffer): () => ReturnType<typeof writeControl> {
  const w = o.write;
  return async () =>
    (await writeControl(real.ctx, o.body)) ??
    (w.kind === 'create' && w.by === 'POST' ? await postControl(real.ctx, o.body) : undefined) ??
    (w.kind === 'bulk' ? await bulkControl(real.ctx, w.items, w.index) : undefined) ??
    (w.kind === 'update' || (w.kind === 'bulk' && w.updated)
      ? await updateReplayControl(real.ctx, o.body)
      : undefined) ??
    (o.deleted ? await deleteControl(real.ctx, o.body) : undefined);
}

/** Every offer of the model reads back as the model says, after `step` (whose write answered `batchIds`). */
export async function checkModel(
  real: Real,
  m: OfferModel,
  step: string,
  batchIds: readonly string[] = [],
): Promise<void> {
  for (const o of m.offers)
    o.seen = await awaitOffer(real.ctx, o.id, {
      expectations: expectedOf(o),
      problem: `does not match the model after ${step}`,
      before: o.seen,
      batchIds,
      control: controlOf(real, o),
    });
}
