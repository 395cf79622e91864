/**
 * The states durable-state leaves for its audit, one of each kind a write of the spec makes (spec 1, spec 3 rules 1,
 * 2, 4, 5). Each is written, must show at once (within the visibility deadline: spec 1, writes are asynchronous;
 * a write that never shows is its own rule's owner's), and is read again at the audit, at least one visibility
 * deadline after the last write, in every view the contract gives it. A state that showed and then changed with no
 * write to it breaks "what was written stays until it is written again".
 *
 * Before durable-state fails on a change, a time control replays the write on fresh records (suites/model/
 * durable-state.ts): a change that time alone does not bring about came with another write (this test's writes to
 * other records, or another writer's), whose owner is named by the kind.
 */
import type { OfferWrite } from '../../schemas/types.generated.ts';
import { operationById } from '../../specs/contract.ts';
import {
  statusOf,
  isForcedTag,
  type CheckContext,
  type Exchange,
  freshId,
  is2xx,
  offerWriteBody,
  readOffer,
  recordsOf,
  WHOLE_BILLING_WINDOW,
  type CheckId,
  RESPONSE_SCHEMA,
  type Clause,
  schemaProblem,
  expectationsOf,
  type Expectation,
  mismatches,
  readBackOwner,
  unmetPointers,
  pollVisible,
} from '../lib/index.ts';
import { cancelledBy, recordId, Records, Step, World, type CatalogueRecord } from '../lib/world/index.ts';
import type { RecordGroup } from '../../specs/record-groups.ts';

type Json = Record<string, unknown>;

/** What a read of a state found: it holds, it changed (the model and what the views show), or it cannot be judged. */
export type Held =
  | { held: true }
  | { held: false; message: string; exchanges: Exchange[]; owner?: CheckId }
  | { inconclusive: string };

/** A write that did not show: its owner, what was seen, and the read that showed it. */
export interface Missed {
  owner: CheckId;
  message: string;
  x?: Exchange | undefined;
}

export interface DurableState {
  readonly label: string;
  /** Writes the state and waits for it to show: a miss is its own write's owner's, answered with what was seen. */
  write(ctx: CheckContext): Promise<Missed | undefined>;
  /** When its last write was sent. */
  writtenAt: number;
  /** Reads every view once. */
  audit(ctx: CheckContext): Promise<Held>;
  /** The same state on fresh records (or a fresh write, for a billing group): the time control. */
  fresh(ctx: CheckContext): DurableState;
  /**
   * Who owns a change that time alone does not bring about: a write to another record (an offer sequence is
   * offer-lifecycle's, a section 4.3 record's record-isolation's), or `inconclusive` where another writer may share it.
   */
  readonly otherwise: CheckId | 'inconclusive';
  /** Undoes what the state wrote, with the context of the test that ends (the audit's). */
  undo(ctx: CheckContext): void;
  /** The clause of the write whose effect must last. */
  readonly clause: Clause;
}

// ---------------------------------------------------------------------------------------------------------------
// Offers (spec 2.3, spec 3 rule 4): a live offer's written fields; an offer cancelled by DELETE; one by the flag.

export type OfferKind = 'live' | 'deleted by DELETE' | 'cancelled by the flag';

/** The fields an offer must keep: what was written, `canceled` as the kind says; `settled` is left out (spec 3). */
function offerModel(body: OfferWrite, canceled: boolean): Expectation[] {
  return [
    ...expectationsOf(body, { created: true }).filter((e) => e.pointer !== '/canceled' && e.pointer !== '/settled'),
    { pointer: '/canceled', value: canceled, compare: 'exact' },
  ];
}

export class OfferState implements DurableState {
  readonly label: string;
  readonly otherwise = 'offer-lifecycle' as const;
  readonly clause: Clause;
  writtenAt = 0;
  private readonly body: OfferWrite;

  constructor(
    readonly kind: OfferKind,
    readonly id: string,
    runId: string,
  ) {
    const { settled: _settled, ...body } = offerWriteBody(runId);
    this.body = body;
    this.label = `offer ${id} (${kind})`;
    this.clause = kind === 'live' ? 'spec 1' : 'spec 3 rule 4';
  }

  private model(): Expectation[] {
    return offerModel(this.body, this.kind !== 'live');
  }

  private async put(ctx: CheckContext, body: OfferWrite): Promise<void> {
    this.writtenAt = Date.now();
    const x = await ctx.api.op(operationById('upsertOffer'), { params: { offerId: this.id }, json: body });
    ctx.check.expectSuccess(x, `PUT /offers/${this.id}`);
  }

  private async shows(ctx: CheckContext, model: Expectation[]) {
    return pollVisible(
      () => readOffer(ctx, this.id),
      (r) => r.shapeProblem !== undefined || (r.offer !== undefined && mismatches(r.offer, model).length === 0),
    );
  }

  async write(ctx: CheckContext): Promise<Missed | undefined> {
    await this.put(ctx, this.body);
    const live = await this.shows(ctx, offerModel(this.body, false));
    const shape = live.value.shapeProblem;
    if (shape !== undefined)
      return { owner: RESPONSE_SCHEMA, message: `GET /offers/${this.id}: ${shape}`, x: live.value.exchange };
    if (!live.ok) {
      const unmet = live.value.offer ? unmetPointers(live.value.offer, offerModel(this.body, false)) : [];
      return { owner: readBackOwner(unmet), message: `${this.label} was not created by a PUT`, x: live.value.exchange };
    }
    if (this.kind === 'live') return undefined;
    if (this.kind === 'deleted by DELETE') {
      this.writtenAt = Date.now();
      const del = await ctx.api.op(operationById('deleteOffer'), { params: { offerId: this.id } });
      ctx.check.expectSuccess(del, `DELETE /offers/${this.id}`);
    } else await this.put(ctx, { ...this.body, cancel: true });
    const cancelled = await this.shows(ctx, this.model());
    if (cancelled.ok) return undefined;
    return {
      owner: 'offer-cancel' as const,
      message: `${this.label} does not read canceled: true`,
      x: cancelled.value.exchange,
    };
  }

  async audit(ctx: CheckContext): Promise<Held> {
    const r = await readOffer(ctx, this.id);
    if (r.shapeProblem !== undefined)
      return {
        held: false,
        owner: RESPONSE_SCHEMA,
        message: `GET /offers/${this.id}: ${r.shapeProblem}`,
        exchanges: [r.exchange],
      };
    if (!r.offer)
      return {
        held: false,
        message: `GET /offers/${this.id} answers ${r.exchange.response.status} with no offer ${this.id}`,
        exchanges: [r.exchange],
      };
    const wrong = mismatches(r.offer, this.model());
    if (wrong.length === 0) return { held: true };
    return { held: false, message: `${this.label}: ${wrong.join('; ')}`, exchanges: [r.exchange] };
  }

  fresh(ctx: CheckContext): DurableState {
    return new OfferState(this.kind, ctx.cleanup.offer(freshId('durable-control', ctx.runId)), ctx.runId);
  }

  undo(ctx: CheckContext): void {
    ctx.cleanup.offer(this.id);
    if (this.kind !== 'live') ctx.cleanup.offerCancelled(this.id);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Forced billing-group statuses (spec 3 rules 1, 3): forced by PUT, forced by bulk; they stay until removed.

export type ForcedKind = 'forced by PUT' | 'forced by bulk';

const GROUP_VIEWS = [
  { name: 'GET /billingGroups/{billingGroupId}', op: 'getBillingGroup', by: 'id' },
  { name: 'GET /billingGroups/{billingGroupId}/details', op: 'getBillingGroupDetails', by: 'id' },
  { name: 'GET /billingGroups', op: 'listBillingGroups', by: 'list' },
] as const;

export class ForcedState implements DurableState {
  readonly label: string;
  readonly otherwise = 'inconclusive' as const;
  readonly clause = 'spec 3 rule 1' as const;
  writtenAt = 0;

  constructor(
    readonly kind: ForcedKind,
    readonly groupId: string,
    /** A status naming this run and the kind (core/forced-tag.ts). */
    readonly value: string,
    /** What the group showed before: the cleanup puts it back. */
    readonly before: string,
  ) {
    this.label = `billing group ${groupId} (${kind} to '${value}')`;
  }

  private async force(ctx: CheckContext): Promise<Exchange> {
    this.writtenAt = Date.now();
    return this.kind === 'forced by PUT'
      ? ctx.api.op(operationById('forceBillingGroupStatus'), {
          params: { billingGroupId: this.groupId },
          json: { status: this.value },
        })
      : ctx.api.op(operationById('bulkUpdateBillingGroupStatus'), {
          json: [{ billingGroupId: this.groupId, status: this.value, deleteStatus: false }],
        });
  }

  async write(ctx: CheckContext): Promise<Missed | undefined> {
    const x = await this.force(ctx);
    ctx.check.expectSuccess(
      x,
      this.kind === 'forced by PUT'
        ? `PUT /billingGroups/${this.groupId}/status`
        : 'POST /billingGroups/bulkStatusUpdate',
    );
    ctx.check.expectSchema(x, 'success-ack', 'spec 4.2');
    const seen = await pollVisible(
      () => ctx.api.op(operationById('getBillingGroup'), { params: { billingGroupId: this.groupId } }),
      (g) => statusOf(g.response.body) === this.value,
    );
    if (seen.ok) return undefined;
    const shape = schemaProblem(seen.value, 'billing-group');
    if (shape !== undefined) return { owner: RESPONSE_SCHEMA, message: shape, x: seen.value };
    const owner: CheckId = this.kind === 'forced by PUT' ? 'billing-forced-status' : 'billing-bulk-status';
    return { owner, message: `${this.label} does not show it`, x: seen.value };
  }

  async audit(ctx: CheckContext): Promise<Held> {
    const params = { billingGroupId: this.groupId };
    const reads = await Promise.all(
      GROUP_VIEWS.map(async (v) => {
        const x =
          v.by === 'id'
            ? await ctx.api.op(operationById(v.op), { params })
            : await ctx.api.op(operationById(v.op), { query: WHOLE_BILLING_WINDOW });
        const record =
          v.by === 'id'
            ? x.response.body
            : (Array.isArray(x.response.body) ? x.response.body : []).find((g) => (g as Json)?.id === this.groupId);
        return {
          view: v.name,
          x,
          status: record === undefined ? undefined : statusOf(record),
          listed: record !== undefined,
        };
      }),
    );
    const shown = reads.filter((r) => r.listed);
    // Another writer's forced value (another run, or another check of this one): the state is not this test's now.
    const other = shown.find((r) => r.status !== this.value && isForcedTag(r.status));
    if (other)
      return { inconclusive: `${this.label}: ${other.view} shows '${other.status}', which another writer forced` };
    const wrong = shown.filter((r) => r.status !== this.value);
    if (wrong.length === 0) return { held: true };
    const text = wrong.map((r) => `${r.view} shows '${r.status ?? '(no status)'}'`).join(', ');
    // Views that disagree are view-consistency's, whatever happened before (docs/verdicts.md).
    if (wrong.length < shown.length)
      return {
        held: false,
        owner: 'view-consistency',
        message: `${this.label}: ${text}, while the other views show '${this.value}'`,
        exchanges: shown.map((r) => r.x),
      };
    return { held: false, message: `${this.label}: ${text}`, exchanges: wrong.map((r) => r.x) };
  }

  fresh(): DurableState {
    return new ForcedState(this.kind, this.groupId, this.value, this.before);
  }

  undo(ctx: CheckContext): void {
    ctx.cleanup.billingStatus(this.groupId, this.before);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Section 4.3 records (spec 1, spec 4.3): one present and one deleted record of each record group; a booking event
// deleted is marked canceled (spec 3 rule 5). Judged by the world model of suites/lib/world/ (catalogue-record.ts).

export class RecordState implements DurableState {
  readonly label: string;
  readonly otherwise = 'record-isolation' as const;
  readonly clause = 'spec 1' as const;
  writtenAt = 0;

  constructor(
    readonly records: Records,
    readonly world: World,
    readonly record: CatalogueRecord,
    readonly kind: 'present' | 'deleted',
  ) {
    this.label = `${record.key} (${kind})`;
  }

  async write(ctx: CheckContext) {
    this.writtenAt = Date.now();
    // Only the record written is compared: the others are the audit's, and each was compared after its own write.
    const put = await this.records.put(ctx, this.record);
    if (this.record.state().kind !== 'present') return undefined;
    // A write that showed and was then undone by time alone (durable-state's own rule) showed: the audit judges it.
    const shown = await this.record.diverges(ctx, put.step);
    if (shown && shown.owner !== 'durable-state')
      return { owner: shown.owner, message: shown.message, x: shown.exchanges.at(-1) };
    if (this.kind === 'present') return undefined;
    this.writtenAt = Date.now();
    const del = await this.records.delete(ctx, this.record);
    if (this.record.state().kind !== 'gone') return undefined;
    const gone = await this.record.diverges(ctx, del.step);
    return gone && gone.owner !== 'durable-state'
      ? { owner: gone.owner, message: gone.message, x: gone.exchanges.at(-1) }
      : undefined;
  }

  /** Whether the server took the writes (a refused PUT or DELETE leaves nothing to judge: bodies are not shown). */
  judged(): boolean {
    return this.record.state().kind === (this.kind === 'present' ? 'present' : 'gone');
  }

  async audit(ctx: CheckContext, step = Step.audit('the audit')): Promise<Held> {
    if (!this.judged()) return { held: true };
    const d = await this.record.diverges(ctx, step);
    if (!d) return { held: true };
    return {
      held: false,
      message: d.message,
      exchanges: d.exchanges,
      ...(d.owner !== 'durable-state' ? { owner: d.owner } : {}),
    };
  }

  fresh(ctx: CheckContext): DurableState {
    const world = new World();
    const records = new Records(world, ctx.runId);
    const g = this.record.group;
    const values = { ...this.record.values, [g.params.at(-1) ?? 'id']: recordId(ctx, 'durable-control') };
    return new RecordState(records, world, records.record(g.template, values), this.kind);
  }

  undo(ctx: CheckContext): void {
    const del = this.record.group.del;
    if (del && this.kind === 'present')
      ctx.cleanup.add(`DELETE ${this.record.key}`, () => ctx.api.op(del, { params: { ...this.record.values } }));
  }
}

/** The record groups durable-state writes: those the run can write and read back (carrier bookings are not its own). */
export function durableGroups(all: readonly RecordGroup[]): RecordGroup[] {
  return all.filter(
    (g) => (g.get !== undefined || g.collection !== undefined) && !g.template.startsWith('/carrierBookings/'),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// A transport order's events, cancelled by its DELETE (spec 3 rule 5): they stay cancelled.

const MILESTONES = ['putTransportOrderPickupEta', 'putTransportOrderArrivedAtPickup'] as const;

export class TransportOrderState implements DurableState {
  readonly label: string;
  readonly otherwise = 'inconclusive' as const;
  readonly clause = 'spec 3 rule 5' as const;
  writtenAt = 0;

  constructor(
    readonly bookingId: string,
    readonly transportOrderId: string,
  ) {
    this.label = `the events of transport order ${transportOrderId} of carrier booking ${bookingId} (cancelled by its DELETE)`;
  }

  private params() {
    return { bookingId: this.bookingId, transportOrderId: this.transportOrderId };
  }

  private naming(x: Exchange): Json[] {
    return is2xx(x) ? recordsOf(x.response.body).filter((e) => JSON.stringify(e).includes(this.transportOrderId)) : [];
  }

  /** The events the views show of the order, and whether each says it is cancelled. */
  private async read(ctx: CheckContext) {
    const list = await ctx.api.op(operationById('listCarrierBookingEvents'), { params: { bookingId: this.bookingId } });
    const order = await ctx.api.op(operationById('getTransportOrder'), { params: this.params() });
    const events = [...this.naming(list), ...(is2xx(order) ? recordsOf(order.response.body) : [])];
    return { list, order, events, live: events.filter((e) => cancelledBy(e).length === 0) };
  }

  async write(ctx: CheckContext) {
    for (const milestone of MILESTONES) {
      this.writtenAt = Date.now();
      const x = await ctx.api.op(operationById(milestone), {
        params: this.params(),
        json: { reference: freshId('mark', ctx.runId), note: `written by flis-conformance run ${ctx.runId}` },
      });
      if (!is2xx(x)) return undefined;
    }
    // Both milestones' events shown (the list or the order's own GET) before the DELETE: each write may take its time.
    const ids = (events: readonly Json[]) => new Set(events.map((e, i) => (typeof e.id === 'string' ? e.id : `#${i}`)));
    const listed = await pollVisible(
      () => this.read(ctx),
      (r) => ids(r.events).size >= MILESTONES.length,
    );
    if (!listed.ok) return undefined;
    this.writtenAt = Date.now();
    const del = await ctx.api.op(operationById('deleteTransportOrder'), { params: this.params() });
    if (!is2xx(del)) return undefined;
    this.deleted = true;
    const seen = await pollVisible(
      () => this.read(ctx),
      (r) => r.events.length > 0 && r.live.length === 0,
    );
    if (seen.ok) return undefined;
    return {
      owner: 'event-cancel' as const,
      message: `${this.label}: not every event says it is cancelled`,
      x: seen.value.list,
    };
  }

  private deleted = false;

  async audit(ctx: CheckContext): Promise<Held> {
    if (!this.deleted) return { held: true };
    const r = await this.read(ctx);
    if (r.events.length > 0 && r.live.length === 0) return { held: true };
    const what =
      r.events.length === 0
        ? `neither GET /carrierBookings/${this.bookingId}/events nor the order (answering ${r.order.response.status}) shows an event of it any more`
        : `${r.live.length} of its event(s) no longer say they are cancelled`;
    return { held: false, message: `${this.label}: ${what}`, exchanges: [r.list, r.order] };
  }

  fresh(ctx: CheckContext): DurableState {
    return new TransportOrderState(this.bookingId, freshId('durable-control-order', ctx.runId));
  }

  undo(): void {}
}
