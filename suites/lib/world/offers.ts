/**
 * An offer in the world as a neighbour: one the check wrote beside the offer a write names (the same bookingId), which
 * that write must leave as it was. Spec 3 rule 4 cancels *the* offer, through its own write body or its own DELETE, so
 * a cancellation that reaches another offer of its booking breaks rule 4, which offer-cancel owns.
 *
 * A neighbour is read once the named offer shows the write (the caller waits for that first), so no deadline is
 * waited out on a conformant server, and a server that cancels neighbours later than the named offer is not seen.
 * An offer that is not readable, or whose shape breaks spec 2.2, is not judged here (offer-upsert and
 * response-schema own those).
 */
import { readOffer } from '../offers/flow-steps.ts';
import type { CheckContext } from '../check-test.ts';
import type { Step } from './step.ts';
import type { Divergence, WorldRecord } from './world.ts';

/** The check that owns spec 3 rule 4 (suites/offers/cancel.spec.ts). */
export const OFFER_CANCEL = 'offer-cancel';

export class OfferNeighbour implements WorldRecord {
  readonly label: string;

  constructor(
    readonly id: string,
    readonly bookingId: string,
    /** Whether the model holds it cancelled (a neighbour no write named: false). */
    readonly canceled = false,
  ) {
    this.label = `offer ${id}`;
  }

  async diverges(ctx: CheckContext, step: Step): Promise<Divergence | undefined> {
    const read = await readOffer(ctx, this.id);
    if (!read.offer || read.shapeProblem !== undefined) return undefined;
    if (read.offer.canceled === this.canceled || typeof read.offer.canceled !== 'boolean') return undefined;
    return {
      owner: OFFER_CANCEL,
      clause: 'spec 3 rule 4',
      message: `${step} changed ${this.label}, which it does not name: it reads canceled: ${String(read.offer.canceled)} where the model holds ${String(this.canceled)} (both offers carry bookingId ${this.bookingId}; spec 3 rule 4 cancels the offer written or deleted, not the other offers of its booking, and only a write to an offer changes whether it is cancelled)`,
      pointer: '/canceled',
      exchanges: [read.exchange],
    };
  }
}
