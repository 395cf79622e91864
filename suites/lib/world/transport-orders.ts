/**
 * A transport order of a carrier booking in the world, with the events its milestones recorded. Spec 3 rule 5: "DELETE
 * on a carrier booking transport order marks all *its* events as cancelled", so a DELETE of another order of the same
 * booking must leave these events as they were. Their views: the booking's event list (GET
 * /carrierBookings/{bookingId}/events, the events naming this order) and the order itself (GET
 * .../transportOrder/{transportOrderId}, the events it shows). Section 4.3 shows no bodies, so an event says it is
 * cancelled by a boolean field whose name says cancel, or a status or state naming a cancellation; an event with
 * neither says nothing, and a list that leaves an event out says nothing either.
 *
 * The order is read once the named order's events show the DELETE (the caller waits for that first): nothing waits
 * on a conformant server. A divergence is event-cancel's, the owner of rule 5.
 */
import { operationById } from '../../../specs/contract.ts';
import type { CheckContext } from '../check-test.ts';
import type { Step } from './step.ts';
import { type Exchange, is2xx } from '../exchange.ts';
import { recordsOf } from '../listed-records.ts';
import { cancelledBy } from './cancelled.ts';
import type { Divergence, WorldRecord } from './world.ts';

/** The check that owns spec 3 rule 5 (suites/contract/event-cancel.spec.ts). */
export const EVENT_CANCEL = 'event-cancel';

type Json = Record<string, unknown>;

/** The events of a list or an order that name the transport order (its id anywhere in the event). */
export function eventsNaming(x: Exchange, transportOrderId: string): Json[] {
  return is2xx(x) ? recordsOf(x.response.body).filter((e) => JSON.stringify(e).includes(transportOrderId)) : [];
}

export class TransportOrderRecord implements WorldRecord {
  readonly label: string;

  constructor(
    readonly bookingId: string,
    readonly transportOrderId: string,
    /** Whether the model holds its events cancelled (an order no DELETE named: false). */
    readonly cancelled = false,
  ) {
    this.label = `transport order ${transportOrderId}`;
  }

  async diverges(ctx: CheckContext, step: Step): Promise<Divergence | undefined> {
    if (this.cancelled) return undefined;
    const params = { bookingId: this.bookingId, transportOrderId: this.transportOrderId };
    const views = await Promise.all([
      ctx.api.op(operationById('listCarrierBookingEvents'), { params: { bookingId: this.bookingId } }),
      ctx.api.op(operationById('getTransportOrder'), { params }),
    ]);
    for (const x of views) {
      const events =
        x.operationId === 'getTransportOrder' && is2xx(x)
          ? recordsOf(x.response.body)
          : eventsNaming(x, this.transportOrderId);
      const said = events.map((e) => ({ e, by: cancelledBy(e) })).filter((e) => e.by.length > 0);
      if (said.length > 0)
        return {
          owner: EVENT_CANCEL,
          clause: 'spec 3 rule 5',
          message: `${step} also cancelled ${said.length} event(s) of ${this.label} of carrier booking ${this.bookingId}, which it does not name: ${said
            .slice(0, 3)
            .map(({ e, by }) => `${typeof e.id === 'string' ? e.id : '(no id)'} (${by.join(', ')})`)
            .join('; ')} (spec 3 rule 5 marks all its events, those of the order deleted)`,
          exchanges: [x],
        };
    }
    return undefined;
  }
}
