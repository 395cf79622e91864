/**
 * Reading a write back: GET /offers/{offerId} polled with the target's visibility deadline (pollVisible), never a
 * fixed sleep, until a version of the offer meets every expectation. A 404 or an empty array before the deadline is
 * "not visible yet", not a miss (spec 1: writes are asynchronous). A field that shows neither its value before the
 * write nor the written one, or still the old one once the write's batches say they were processed, ends the poll at
 * once: no wait can mend it. A read whose shape breaks spec 2.2 (e.g. quantity "0") is not compared at all: the
 * reader reports itself blocked by response-schema, which owns that fault.
 */
import { BATCH_CHECK_EVERY_MS, batchesProcessed } from '../batch-processed.ts';
import type { CheckId } from '../catalogue.ts';
import { RESPONSE_SCHEMA } from '../check-blocked.ts';
import type { Clause } from '../check.ts';
import type { CheckContext } from '../check-context.ts';
import { noteVisibleAfter, pollVisible } from '../visibility-deadline.ts';
import { mismatches, readBackOwner, unmetPointers, type Expectation } from '../readback.ts';
import { type OfferRead, type ReadOptions, readOffer, readVerdict, writtenVersion } from './flow-steps.ts';

export interface ReadBackOptions extends ReadOptions {
  /** What the offer must read. */
  expectations: readonly Expectation[];
  /** What a miss says of the offer, after "offer <id>", e.g. 'was not created by a PUT to a new id'. */
  problem: string;
  /** The clause a failure cites; the check's own when left out. */
  clause?: Clause;
  /**
   * The offer as read before this write (undefined: the write creates it). A field showing neither its old value
   * nor the written one fails at once instead of after the deadline.
   */
  before?: Record<string, unknown> | undefined;
  /** The batches of the write: once they say they were processed, a field still old fails at once too. */
  batchIds?: readonly string[] | undefined;
}

/** How a read-back ended: the version that is the write, or the last read, the version nearest it and why it missed. */
export type ReadBack =
  | { ok: true; offer: Record<string, unknown> }
  | { ok: false; last: OfferRead; seen: Record<string, unknown> | undefined; why: string };

/** One read of a poll, and whether the write's batches said they were processed before it was sent. */
interface PolledRead {
  read: OfferRead;
  processedBefore: boolean;
}

export async function pollReadBack(ctx: CheckContext, id: string, opts: ReadBackOptions): Promise<ReadBack> {
  const { expectations } = opts;
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
    return { ok: true, offer: seen };
  }
  const after = r.impossible
    ? r.value.processedBefore
      ? `after ${r.elapsedMs} ms, once its batch said it was processed`
      : `after ${r.elapsedMs} ms, with a value that is neither the one before the write nor the one written`
    : `after ${r.elapsedMs} ms`;
  const why = seen
    ? `still differs ${after}:\n    ${mismatches(seen, expectations).join('\n    ')}`
    : `was not readable ${after}: GET answered ${last.exchange.response.status}${Array.isArray(last.exchange.response.body) ? ` with ${last.exchange.response.body.length} offer(s)` : ''}`;
  return { ok: false, last, seen, why };
}

export interface SetupReadBackOptions extends ReadBackOptions {
  /**
   * The check that owns the expectations, which are only this flow's set-up (an offer written to be cancelled or
   * listed must first read as written, which is offer-upsert's rule): a miss blocks the flow instead of failing it.
   * 'offer-upsert' stands for whichever check owns the fields that differ (readBackOwner).
   */
  setupOwnedBy: CheckId;
}

/** Waits until the offer reads back as written; a miss blocks the flow by the set-up's owner. */
export async function awaitSetupOffer(
  ctx: CheckContext,
  id: string,
  opts: SetupReadBackOptions,
): Promise<Record<string, unknown>> {
  const r = await pollReadBack(ctx, id, opts);
  if (r.ok) return r.offer;
  const owner =
    opts.setupOwnedBy === 'offer-upsert' && r.seen
      ? readBackOwner(unmetPointers(r.seen, opts.expectations))
      : opts.setupOwnedBy;
  return ctx.check.blocked(owner, r.last.exchange, `offer ${id} ${opts.problem}: ${r.why}`);
}
