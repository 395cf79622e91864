/**
 * What every webhook check shares: a receiver on loopback in this worker,
 * subscribed to the deployment's webhooks for the length of one test, and
 * bookings written with run-tagged ids that are deleted afterwards.
 *
 * Subscribing is the one thing the spec does not show (spec 6), so it works
 * only where the deployment offers a way: the embedded mock's mock-only admin
 * endpoint (PUT {origin}/__flis/webhooks {url}). Elsewhere the checks are
 * skipped and say why; a deployment is never failed for lacking it.
 */
import { operationById } from '../../specs/contract.ts';
import { startReceiver, type Delivery, type Receiver } from '../../webhooks/receiver.ts';
import {
  type Exchange,
  redactText,
  secretsWithDerived,
  target,
  type CheckContext,
  skip,
  freshId,
} from '../lib/index.ts';

export const ADMIN_PATH = '/__flis/webhooks';
export const NO_SUBSCRIPTION =
  'this deployment offers no way to subscribe a webhook receiver (spec 6 does not show the subscription method); the webhook checks run against the embedded mock';

export interface WebhookContext extends CheckContext {
  receiver: Receiver;
  /** A fresh id carrying the run id. */
  newId(kind: string): string;
  /** Bookings to delete at the end. */
  bookings: string[];
}

async function admin(method: 'PUT' | 'DELETE', url: string): Promise<number> {
  const t = target();
  try {
    const res = await fetch(new URL(ADMIN_PATH, t.baseUrl), {
      method,
      headers: { authorization: `Bearer ${t.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url }),
    });
    await res.arrayBuffer();
    return res.status;
  } catch (error) {
    throw new Error(
      redactText(
        `could not reach ${ADMIN_PATH}: ${error instanceof Error ? error.message : String(error)}`,
        secretsWithDerived([t.token]),
      ),
    );
  }
}

/** Runs a webhook check with a subscribed receiver; skips it where no subscription is possible. */
export async function withReceiver(ctx: CheckContext, body: (ctx: WebhookContext) => Promise<void>): Promise<void> {
  const receiver = await startReceiver();
  const w: WebhookContext = { ...ctx, receiver, bookings: [], newId: (kind) => freshId(kind) };
  try {
    const status = await admin('PUT', receiver.url);
    if (status < 200 || status > 299) {
      // Not a narrowing of this run: spec 6 shows no subscription method, so no run could exercise these checks.
      skip.notShown(ctx, NO_SUBSCRIPTION);
    }
    await body(w);
  } finally {
    await admin('DELETE', receiver.url).catch(() => undefined);
    for (const id of w.bookings)
      await ctx.api.op(operationById('deleteBooking'), { params: { bookingId: id } }).catch(() => undefined);
    await receiver.close();
  }
}

/** A delivery is about a record when its body names the record's (run-tagged, unique) id. */
export function concerns(id: string): (d: Delivery) => boolean {
  return (d) => d.text.includes(JSON.stringify(id).slice(1, -1));
}

export function deadlineMs(): number {
  return target().visibilityTimeoutMs;
}

export async function putBooking(ctx: WebhookContext, id: string, body: Record<string, unknown>): Promise<Exchange> {
  if (!ctx.bookings.includes(id)) ctx.bookings.push(id);
  const x = await ctx.api.op(operationById('upsertBooking'), { params: { bookingId: id }, json: body });
  ctx.check.expectSuccess(x, `PUT /bookings/${id}`);
  return x;
}

export async function putBookingEvent(
  ctx: WebhookContext,
  bookingId: string,
  eventId: string,
  body: Record<string, unknown>,
): Promise<Exchange> {
  const x = await ctx.api.op(operationById('upsertBookingEvent'), { params: { bookingId, eventId }, json: body });
  ctx.check.expectSuccess(x, `PUT /bookings/${bookingId}/events/${eventId}`);
  return x;
}

/** A booking allocated to a carrier: the carrier named by `carrierId` (the field name the mock and the Offer use; spec 2.7 shows no booking fields). */
export function allocatedBooking(ctx: WebhookContext, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    carrierId: ctx.newId('carrier'),
    reference: ctx.newId('ref'),
    status: 'ALLOCATED',
    pickup: { locationName: 'Trafford Park', plannedAt: '2026-01-05T08:00:00Z' },
    ...extra,
  };
}

/** The deliveries about `id` so far, by arrival. */
export function deliveriesAbout(ctx: WebhookContext, id: string): Delivery[] {
  return ctx.receiver.deliveries.filter(concerns(id));
}

/** Waits until more than `already` deliveries about `id` have arrived; answers the newest, or undefined at the deadline. */
export async function nextDeliveryAbout(
  ctx: WebhookContext,
  id: string,
  already: number,
): Promise<Delivery | undefined> {
  const about = concerns(id);
  return ctx.receiver.waitFor((d) => about(d) && deliveriesAbout(ctx, id).length > already, deadlineMs());
}

/** A delivery's envelope is webhook-envelope's to judge; a trigger check only needs the type when the envelope names one. */
export function typeIsOrUnjudged(d: Delivery, type: string): boolean {
  return d.type === undefined || d.type === type;
}
