/**
 * A booking event in the world as a neighbour: another event of the same booking than the one a DELETE names. Spec 3
 * rule 5: "DELETE on a booking event marks *the* event as canceled", so the other events of the booking stay as they
 * were. Its view: GET /bookings/{bookingId}/events/{eventId}. Read once the deleted event shows the DELETE (the caller
 * waits for that first), so nothing waits on a conformant server. A divergence is event-cancel's, the owner of rule 5.
 */
import { operationById } from '../../../specs/contract.ts';
import type { CheckContext } from '../check-test.ts';
import type { Step } from './step.ts';
import { is2xx } from '../exchange.ts';
import { cancelledBy } from './cancelled.ts';
import { EVENT_CANCEL } from './transport-orders.ts';
import type { Divergence, WorldRecord } from './world.ts';

export class BookingEventNeighbour implements WorldRecord {
  readonly label: string;

  constructor(
    readonly bookingId: string,
    readonly eventId: string,
  ) {
    this.label = `booking event ${eventId}`;
  }

  async diverges(ctx: CheckContext, step: Step): Promise<Divergence | undefined> {
    const x = await ctx.api.op(operationById('getBookingEvent'), {
      params: { bookingId: this.bookingId, eventId: this.eventId },
    });
    const body = x.response.body;
    if (!is2xx(x) || typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
    const by = cancelledBy(body as Record<string, unknown>);
    if (by.length === 0) return undefined;
    return {
      owner: EVENT_CANCEL,
      clause: 'spec 3 rule 5',
      message: `${step} also cancelled ${this.label} of booking ${this.bookingId}, which it does not name (${by.join(', ')}): spec 3 rule 5 marks the event deleted, not the other events of its booking`,
      exchanges: [x],
    };
  }
}
