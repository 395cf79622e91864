/**
 * Waiting for a flow's write to show (spec 1: writes are asynchronous), and judging a miss: the flow's own failure,
 * or, when a replay of the write on a fresh offer misses too (controls.ts), the failure of the check that owns the
 * rule the replay breaks, which blocks the flow (one fault, one failure).
 */
import type { OfferWrite } from '../../../schemas/types.generated.ts';
import type { CheckId } from '../catalogue.ts';
import type { CheckContext } from '../check-test.ts';
import { freshId } from '../fresh-id.ts';
import { expectationsOf, type Expectation } from '../readback.ts';
import { bookingNeighbourControl, uncancelledByNeighbourControl } from './controls.ts';
import { upsertOffer } from './flow-steps.ts';
import { awaitSetupOffer, pollReadBack, type ReadBackOptions } from './poll-read-back.ts';

export interface AwaitOptions extends ReadBackOptions {
  /**
   * The check that owns the expectations when they are only this flow's set-up: a miss blocks the flow instead of
   * failing it (awaitSetupOffer).
   */
  setupOwnedBy?: CheckId;
  /**
   * Called before this check fails: replays the write on a fresh offer and answers the check that owns the rule the
   * replay breaks too (the flow is then blocked by it), or undefined when the replay reads back as written.
   */
  control?: (() => Promise<CheckId | undefined>) | undefined;
}

/**
 * Waits until the offer reads back with every expectation met (pollReadBack), or fails the check with the last read
 * and what still differs, unless a control names another owner.
 */
export async function awaitOffer(ctx: CheckContext, id: string, opts: AwaitOptions): Promise<Record<string, unknown>> {
  const { setupOwnedBy } = opts;
  if (setupOwnedBy) return awaitSetupOffer(ctx, id, { ...opts, setupOwnedBy });
  const r = await pollReadBack(ctx, id, opts);
  if (r.ok) return r.offer;
  const { last, why } = r;
  const owner =
    (last.offer && cancelledUnasked(last.offer, opts.expectations) ? await bookingNeighbourControl(ctx) : undefined) ??
    (last.offer && uncancelled(last.offer, opts) ? await uncancelledByNeighbourControl(ctx) : undefined) ??
    (opts.control ? await opts.control() : undefined);
  if (owner && owner !== ctx.check.meta.check)
    return ctx.check.blocked(
      owner,
      last.exchange,
      `offer ${id} ${opts.problem}: ${why}; the same write on a fresh offer does not read back either, which is ${owner}'s rule`,
    );
  return ctx.check.fail(`offer ${id} ${opts.problem}: ${why}`, { exchanges: [last.exchange] }, opts.clause);
}

/** The offer was read cancelled, as the check expects it, and now reads live: something undid the cancellation. */
function uncancelled(offer: Record<string, unknown>, opts: AwaitOptions): boolean {
  return (
    offer.canceled === false &&
    opts.before?.canceled === true &&
    opts.expectations.some((e) => e.pointer === '/canceled' && e.value === true)
  );
}

/** The offer reads canceled: true where the check expects it live: no write of this check cancelled it. */
function cancelledUnasked(offer: Record<string, unknown>, expectations: readonly Expectation[]): boolean {
  return offer.canceled === true && expectations.some((e) => e.pointer === '/canceled' && e.value === false);
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
  const before = await awaitOffer(ctx, id, {
    expectations: expectationsOf(body, { created: true }),
    problem: 'was not created by a PUT to a new id',
    clause: 'spec 1',
    setupOwnedBy: 'offer-upsert',
    batchIds: put.batchIds,
  });
  return { id, before };
}
