/**
 * Flow steps, for checks that judge offers (the offers, lifecycle and bad-input suites): each write checks its own
 * acknowledgement (any 2xx, the documented ack shape) and registers what it wrote for cleanup; a read answers the
 * versions of the offer a GET by id shows (spec 4.1) and tells them from another record's. Waiting for a write to
 * show is `awaitOffer` (await-offer.ts).
 */
import type { OfferBulkItem, OfferWrite } from '../../../schemas/types.generated.ts';
import { validate } from '../../../schemas/registry.ts';
import { operationById } from '../../../specs/contract.ts';
import type { CheckId } from '../catalogue.ts';
import { RECORD_IDENTITY } from '../check-blocked.ts';
import type { CheckContext } from '../check-context.ts';
import type { Exchange } from '../../../core/exchange.ts';
import { answeredListedOther } from '../offer-identity.ts';
import { mismatches, unmetVerdict, type Expectation } from '../readback.ts';

/** The check that owns "two POST /offers create two offers under two ids" (create-ids.spec.ts). */
export const OFFER_CREATE_IDS = 'offer-create-ids' satisfies CheckId;

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

export interface ReadOptions {
  /** Fields whose shape the calling check judges itself (unknown-price-strategy reads /priceStrategy). */
  ownFields?: readonly string[];
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
