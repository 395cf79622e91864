/**
 * The offer operations of spec 4.1 as flow steps: each write checks its own
 * acknowledgement (any 2xx, the documented ack shape) and registers what it
 * wrote for cleanup; `awaitOffer` waits for an asynchronous write to show up
 * (spec 1) by polling with the target's deadline, never a fixed sleep.
 */
import type { OfferBulkItem, OfferWrite } from '../../schemas/types.generated.ts';
import { validate } from '../../schemas/registry.ts';
import { operationById } from '../../specs/contract.ts';
import { RESPONSE_SCHEMA } from '../lib/check-blocked.ts';
import type { FlowContext } from '../lib/cleanup.ts';
import type { Exchange } from '../lib/exchange.ts';
import { pollUntil } from '../lib/poll.ts';
import { noteVisibleAfter, pollIntervalMs, visibilityDeadlineMs } from '../lib/property.ts';
import { mismatches, type Expectation } from './readback.ts';

export interface Ack {
  batchId: string;
  exchange: Exchange;
}

function field(x: Exchange, name: string): string {
  return (x.response.body as Record<string, string>)[name] as string;
}

/** POST /offers: creates an offer; the answer carries its id (spec 4.1, 2.7). */
export async function createOffer(ctx: FlowContext, body: OfferWrite): Promise<Ack & { id: string }> {
  const x = await ctx.api.op(operationById('createOffer'), { json: body });
  ctx.check.expectSuccess(x, 'POST /offers');
  ctx.check.expectSchema(x, 'batch-ack-create', 'spec 2.7');
  const id = field(x, 'id');
  ctx.cleanup.offer(id);
  return { id, batchId: field(x, 'batchId'), exchange: x };
}

/** PUT /offers/{offerId}: creates or updates (spec 1, 4.1). */
export async function upsertOffer(ctx: FlowContext, id: string, body: OfferWrite): Promise<Ack> {
  ctx.cleanup.offer(id);
  const x = await ctx.api.op(operationById('upsertOffer'), { params: { offerId: id }, json: body });
  ctx.check.expectSuccess(x, `PUT /offers/${id}`);
  ctx.check.expectSchema(x, 'batch-ack', 'spec 2.7');
  return { batchId: field(x, 'batchId'), exchange: x };
}

/** DELETE /offers/{offerId}: cancels the offer (spec 3 rule 4) and answers a batchId (spec 4.1). */
export async function deleteOffer(ctx: FlowContext, id: string): Promise<Ack> {
  const x = await ctx.api.op(operationById('deleteOffer'), { params: { offerId: id } });
  ctx.check.expectSuccess(x, `DELETE /offers/${id}`);
  ctx.check.expectSchema(x, 'batch-ack', 'spec 4.1');
  return { batchId: field(x, 'batchId'), exchange: x };
}

/** POST /offers/bulk: answers `success` and `batchId` (spec 2.7, 4.1). */
/**
 * POST /offers/bulk. The maximum bulk size is the server's (spec 8: not shown): a bulk of several valid items refused
 * with a 4xx is sent again in halves, down to single items, so only a refused single valid item fails the check.
 * Answers the first part's acknowledgement.
 */
export async function bulkWriteOffers(ctx: FlowContext, items: OfferBulkItem[]): Promise<Ack> {
  for (const item of items) ctx.cleanup.offer(item.id);
  const x = await ctx.api.op(operationById('bulkWriteOffers'), { json: items });
  if (items.length > 1 && x.response.status >= 400 && x.response.status < 500) {
    const half = Math.ceil(items.length / 2);
    const first = await bulkWriteOffers(ctx, items.slice(0, half));
    await bulkWriteOffers(ctx, items.slice(half));
    return first;
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
  return { batchId: field(x, 'batchId'), exchange: x };
}

export interface OfferRead {
  exchange: Exchange;
  /** The element of the answered array that is this offer, if any. */
  offer?: Record<string, unknown>;
  /** How a 2xx answer breaks the Offer list shape (spec 2.2), if it does: response-schema's to judge, not the flow's. */
  shapeProblem?: string;
}

/** Fields whose shape the calling check judges itself (unknown-price-strategy reads /priceStrategy). */
export interface ReadOptions {
  ownFields?: readonly string[];
  /**
   * The check that owns the expectations when they are only this flow's setup (an offer written to be cancelled or
   * listed must first read as written, which is offer-upsert's rule): a mismatch blocks the flow instead of failing it.
   */
  setupOwnedBy?: string;
}

function shapeProblemOf(body: unknown, own: readonly string[]): string | undefined {
  const owned = (pointer: string) => own.some((f) => new RegExp(`^/\\d+/${f}(/|$)`).test(pointer));
  const v = validate('offer-list', body).violations.find((x) => !owned(x.pointer));
  return v ? `${v.pointer || '(root)'} ${v.message} (offer-list.schema.json)` : undefined;
}

/**
 * GET /offers/{offerId} answers an array of Offer (spec 4.1). The element with
 * the requested id is the offer; a one-element array is taken as the offer
 * even if the server shows another id in it (id formats are the server's).
 */
export async function readOffer(ctx: FlowContext, id: string, opts: ReadOptions = {}): Promise<OfferRead> {
  const x = await ctx.api.op(operationById('getOffer'), { params: { offerId: id } });
  const body = x.response.body;
  if (x.response.status < 200 || x.response.status > 299) return { exchange: x };
  const shapeProblem = shapeProblemOf(body, opts.ownFields ?? []);
  if (!Array.isArray(body)) return { exchange: x, ...(shapeProblem ? { shapeProblem } : {}) };
  const objects = body.filter((o): o is Record<string, unknown> => typeof o === 'object' && o !== null);
  const offer = objects.find((o) => o.id === id) ?? (objects.length === 1 ? objects[0] : undefined);
  return { exchange: x, ...(offer ? { offer } : {}), ...(shapeProblem ? { shapeProblem } : {}) };
}

/**
 * Waits until the offer reads back with every expectation met, or fails the
 * check with the last read and what still differs. A 404 or an empty array
 * before the deadline is "not visible yet", not a failure (spec 1: asynchronous).
 * A read whose shape breaks spec 2.2 (e.g. quantity "0") is not compared at all:
 * the flow reports itself blocked by response-schema, which owns that fault.
 */
export async function awaitOffer(
  ctx: FlowContext,
  id: string,
  expectations: readonly Expectation[],
  what: string,
  clause?: string,
  opts: ReadOptions = {},
): Promise<Record<string, unknown>> {
  const r = await pollUntil(
    () => readOffer(ctx, id, opts),
    (read) =>
      read.shapeProblem !== undefined ||
      (read.offer !== undefined && mismatches(read.offer, expectations).length === 0),
    { timeoutMs: visibilityDeadlineMs(), intervalMs: pollIntervalMs() },
  );
  if (r.value.shapeProblem !== undefined)
    ctx.check.blocked(RESPONSE_SCHEMA, r.value.exchange, `GET /offers/${id}: ${r.value.shapeProblem}`);
  if (r.ok && r.value.offer) {
    noteVisibleAfter(r.elapsedMs);
    return r.value.offer;
  }
  const last = r.value;
  const why = last.offer
    ? `still differs after ${r.elapsedMs} ms:\n    ${mismatches(last.offer, expectations).join('\n    ')}`
    : `was not readable after ${r.elapsedMs} ms: GET answered ${last.exchange.response.status}${Array.isArray(last.exchange.response.body) ? ` with ${last.exchange.response.body.length} offer(s)` : ''}`;
  if (opts.setupOwnedBy) return ctx.check.blocked(opts.setupOwnedBy, last.exchange, `offer ${id} ${what}: ${why}`);
  return ctx.check.fail(`offer ${id} ${what}: ${why}`, { exchanges: [last.exchange] }, clause);
}
