/**
 * A billing group in the world: what its status must be (forced to a value, or no longer that value) and the views
 * the spec names for it (spec 4.2, 2.4, 2.5): the list (over the whole window, suites/lib/whole-list.ts), the GET by
 * id, its details, and the list under the `state` filter with the status the group shows, over the same window. Once a
 * write has had time to show (the visibility deadline; never a fixed wait), the views agree with each other and with
 * the model, both ways: what one view shows of the group another shows too.
 *
 * Where the views differ, the owner is found by how they differ:
 * - the GET by id answers another group, or not at all: record-identity (the details: billing-details);
 * - a view without a string status: response-schema (the shape, spec 2.4/2.5);
 * - the whole list leaves the group out while nothing says it was cut (suites/lib/world/whole-lists.ts), or shows a
 *   documented field otherwise than the GET by id, or the list, the GET by id and the details show different
 *   statuses: view-consistency;
 * - they agree, on a value the model does not hold: the rule of what happened before (the write's own rule:
 *   billing-forced-status, billing-bulk-status; for a group the write did not name, the rule of that write, which
 *   forces or removes the status of the groups it names and no other; safe-reads after a read; durable-state after
 *   time alone);
 * - they agree, and the `state` filter with that value leaves the group out: billing-filters-complete.
 * A whole list that leaves out a group dated on a bound of the window is not judged (whether a bound includes its own
 * day is not shown). A status another run forced throws ForeignStatus: the check moves to another group or ends
 * inconclusive, never failed.
 */
import { operationById } from '../../../specs/contract.ts';
import type { CheckId } from '../catalogue.ts';
import { RECORD_IDENTITY, RESPONSE_SCHEMA } from '../check-blocked.ts';
import type { Clause } from '../check.ts';
import type { CheckContext } from '../check-test.ts';
import type { Step } from './step.ts';
import { statusOf } from '../cleanup.ts';
import { type Exchange, is2xx } from '../exchange.ts';
import { isForeignTag } from '../forced-tag.ts';
import { pollVisible } from '../visibility-deadline.ts';
import { target } from '../target.ts';
import { narrowedListQuery, WHOLE_BILLING_WINDOW } from '../whole-list.ts';
import { wholeness } from './whole-lists.ts';
import { VIEW_CONSISTENCY, type Divergence, type WorldRecord } from './world.ts';

/**
 * Another run forced a status on the group while this check used it (runs share a deployment's billing groups): the
 * check moves to another group, or ends inconclusive, never failed.
 */
export class ForeignStatus extends Error {
  constructor(
    readonly billingGroupId: string,
    what: string,
  ) {
    super(`billing group ${billingGroupId}: ${what}, a status another run forced`);
    this.name = 'ForeignStatus';
  }
}

/** The check that owns "the details are those of their group" (suites/billing/details.spec.ts). */
const BILLING_DETAILS = 'billing-details' satisfies CheckId;

/** What the model holds of a group's status: exactly a value, or anything but a value (a removed forced status). */
export type StatusModel = { is: string } | { not: string };

/** Who owns the effect of the write that set the model, and the clause, e.g. billing-forced-status, spec 3 rule 1. */
export interface EffectOwner {
  check: CheckId;
  clause: Clause;
}

interface GroupViews {
  list: Exchange;
  byId: Exchange;
  details: Exchange;
  /** GET /billingGroups?state=<the status shown by id>, read when the other views agree. */
  filtered?: Exchange;
}

type Json = Record<string, unknown>;

/**
 * The documented fields of spec 2.4 that the list and the single response both carry as one value (strings, numbers,
 * booleans, the nullable key-value store): the same group shows the same in both. The arrays of spec 2.4 are left
 * out: what their objects hold is not shown (spec 2.7), and their order is not either.
 */
const SHARED_FIELDS = [
  'humanReadableId',
  'date',
  'priceManual',
  'priceStorage',
  'priceProduct',
  'priceFaf',
  'priceTransport',
  'priceTotal',
  'from',
  'to',
  'productDescription',
  'properties',
  'customerId',
  'customerName',
  'customerIntegrationId',
  'customerExternalId',
  'inactive',
] as const;

export function elementWithId(body: unknown, id: string): Json | undefined {
  if (!Array.isArray(body)) return undefined;
  return body.find((g): g is Json => typeof g === 'object' && g !== null && (g as Json).id === id);
}

function answeredId(x: Exchange): unknown {
  const body = x.response.body;
  return typeof body === 'object' && body !== null ? (body as Json).id : undefined;
}

function describe(m: StatusModel): string {
  return 'is' in m ? `'${m.is}'` : `anything but '${m.not}'`;
}

function satisfies(m: StatusModel, status: string): boolean {
  return 'is' in m ? status === m.is : status !== m.not;
}

/** JSON equality of two documented values (a key-value store compared by its keys, in any order). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameValue(v, b[i]));
  const ka = Object.keys(a as Json);
  const kb = Object.keys(b as Json);
  return ka.length === kb.length && ka.every((k) => sameValue((a as Json)[k], (b as Json)[k]));
}

/** A date is compared as the calendar day it names (spec 2: ISO 8601 dates); any other field as JSON. */
export function sameField(field: string, a: unknown, b: unknown): boolean {
  if (field === 'date' && typeof a === 'string' && typeof b === 'string') return a.slice(0, 10) === b.slice(0, 10);
  return sameValue(a, b);
}

/**
 * Whether the whole window (suites/lib/whole-list.ts) lists a group of this date for sure: a date strictly between
 * its bounds (whether a bound includes its own day is not shown).
 */
export function surelyInWholeWindow(date: unknown): boolean {
  if (typeof date !== 'string') return false;
  const day = date.slice(0, 10);
  return day > WHOLE_BILLING_WINDOW.start && day < WHOLE_BILLING_WINDOW.end;
}

/** Sends the write that set a forced value once more (shared-groups.ts: another run's removal may have undone it). */
export type Resend = () => Promise<void>;

export class BillingGroupRecord implements WorldRecord {
  readonly label: string;
  /** The key it is held under in a World: a step naming this key names this group. */
  readonly key: string;
  private model: StatusModel;
  private owner: EffectOwner;
  /** The rule of the last write that did not name this group: it changes the groups it names and no other. */
  private neighbourOwner: EffectOwner | undefined;
  private resend: Resend | undefined;

  constructor(
    readonly id: string,
    status: StatusModel,
    owner: EffectOwner,
    resend?: Resend,
  ) {
    this.label = `billing group ${id}`;
    this.key = billingGroupKey(id);
    this.model = status;
    this.owner = owner;
    this.resend = 'is' in status ? resend : undefined;
  }

  /** What the model holds. */
  holds(): StatusModel {
    return this.model;
  }

  /**
   * The model after a write: `owner` owns the write's effect on this group. With `resend`, a forced value that does
   * not show by half the deadline is written once more: runs sharing a deployment force the same groups, and another
   * run's removal may have undone this one's write (one forced status per group). A server that ignores the write
   * misses both times.
   */
  expect(status: StatusModel, owner: EffectOwner, resend?: Resend): void {
    this.model = status;
    this.owner = owner;
    this.resend = 'is' in status ? resend : undefined;
  }

  /**
   * A write is about to name other groups, not this one: the model holds what it held, and a change the next
   * comparison sees is `owner`'s (spec 3 rules 1-3 force or remove the status of the groups a write names).
   */
  neighbourOf(owner: EffectOwner): void {
    this.neighbourOwner = owner;
  }

  private async read(ctx: CheckContext): Promise<GroupViews> {
    const params = { billingGroupId: this.id };
    const [list, byId, details] = await Promise.all([
      ctx.api.op(operationById('listBillingGroups'), { query: WHOLE_BILLING_WINDOW }),
      ctx.api.op(operationById('getBillingGroup'), { params }),
      ctx.api.op(operationById('getBillingGroupDetails'), { params }),
    ]);
    const views: GroupViews = { list, byId, details };
    const shown = this.agreed(views);
    if (shown !== undefined)
      views.filtered = await ctx.api.op(operationById('listBillingGroups'), {
        query: narrowedListQuery('listBillingGroups', { state: shown }),
      });
    return views;
  }

  /** The status every view that shows the group agrees on, if they agree and each shows one. */
  private agreed(v: GroupViews): string | undefined {
    const values = this.statuses(v).map((s) => s.status);
    const first = values[0];
    return first !== undefined && values.every((s) => s === first) ? first : undefined;
  }

  /** The status each view shows (the list only when it lists the group). */
  private statuses(v: GroupViews): { view: string; status: string | undefined; x: Exchange }[] {
    const listed = elementWithId(v.list.response.body, this.id);
    return [
      { view: `GET /billingGroups/${this.id}`, status: statusOf(v.byId.response.body), x: v.byId },
      ...(listed ? [{ view: 'GET /billingGroups', status: statusOf(listed), x: v.list }] : []),
      { view: `GET /billingGroups/${this.id}/details`, status: statusOf(v.details.response.body), x: v.details },
    ];
  }

  /** The `state` filter lists the group, where the whole list does (both over the same window). */
  private filterLists(v: GroupViews): boolean {
    if (elementWithId(v.list.response.body, this.id) === undefined) return true;
    return v.filtered !== undefined && elementWithId(v.filtered.response.body, this.id) !== undefined;
  }

  /**
   * Why the whole list leaves the group out where it must show it, if it does: the GET by id answers it dated inside
   * the window, and nothing says the list was cut.
   */
  private leftOut(ctx: CheckContext, v: GroupViews): string | undefined {
    if (!is2xx(v.byId) || answeredId(v.byId) !== this.id) return undefined;
    if (elementWithId(v.list.response.body, this.id) !== undefined) return undefined;
    if (!surelyInWholeWindow((v.byId.response.body as Json).date)) return undefined;
    const w = wholeness(ctx, v.list, 'group(s)');
    return w.whole ? w.why : undefined;
  }

  /** A documented field the list element shows otherwise than the GET by id. */
  private fieldDiffers(v: GroupViews): string | undefined {
    const listed = elementWithId(v.list.response.body, this.id);
    const single = v.byId.response.body;
    if (!listed || !is2xx(v.byId) || typeof single !== 'object' || single === null) return undefined;
    return SHARED_FIELDS.find(
      (f) => f in listed && f in (single as Json) && !sameField(f, listed[f], (single as Json)[f]),
    );
  }

  private settled(ctx: CheckContext, v: GroupViews): boolean {
    const shown = this.agreed(v);
    return (
      shown !== undefined &&
      satisfies(this.model, shown) &&
      this.filterLists(v) &&
      this.leftOut(ctx, v) === undefined &&
      this.fieldDiffers(v) === undefined
    );
  }

  async diverges(ctx: CheckContext, step: Step): Promise<Divergence | undefined> {
    // A group the write did not name is not written again: another run does not touch a group showing this run's
    // value, and a change there is the write's (the flow confirms it by repeating the write, suites/billing/).
    const resend = this.isNeighbourAt(step) ? undefined : this.resend;
    const first = await this.poll(ctx, resend ? 0.5 : 1);
    if (first.ok || !resend || !this.forcedValueGone(first.value)) return this.verdict(ctx, first, step);
    await resend();
    const second = await this.poll(ctx, 0.5);
    if (second.ok)
      ctx.testInfo.annotations.push({
        type: 'note',
        description: `${this.label} showed the model's ${describe(this.model)} only after the write was sent again: another writer may have removed it`,
      });
    return this.verdict(ctx, second, step);
  }

  /** A write that names other groups and not this one. A step given as text names none: it is about every group. */
  isNeighbourAt(step: Step): boolean {
    return step.kind === 'write' && step.names.size > 0 && !step.namesRecord(this.key);
  }

  private poll(ctx: CheckContext, share: number) {
    const runId = target().runId;
    return pollVisible(
      () => this.read(ctx),
      (v) => this.settled(ctx, v) || this.statuses(v).some((s) => isForeignTag(s.status, runId)),
      share,
    );
  }

  /** Every view agrees on a value other than the forced one the model holds: the write's effect is gone. */
  private forcedValueGone(v: GroupViews): boolean {
    const shown = this.agreed(v);
    return shown !== undefined && !satisfies(this.model, shown) && !isForeignTag(shown, target().runId);
  }

  private verdict(
    ctx: CheckContext,
    r: { ok: boolean; value: GroupViews; elapsedMs: number },
    step: Step,
  ): Divergence | undefined {
    const foreign = this.statuses(r.value).find((s) => isForeignTag(s.status, target().runId));
    if (foreign) throw new ForeignStatus(this.id, `${foreign.view} showed '${foreign.status}'`);
    if (r.ok) return undefined;
    return this.classify(ctx, r.value, step, r.elapsedMs);
  }

  /** Who owns a status every view agrees on and the model does not hold, after `step`. */
  private ruleOf(step: Step): EffectOwner {
    if (step.kind === 'read') return { check: 'safe-reads', clause: 'HTTP semantics' };
    if (step.kind === 'audit')
      return { check: 'durable-state', clause: 'is' in this.model ? 'spec 3 rule 1' : 'spec 3 rule 2' };
    if (this.isNeighbourAt(step) && this.neighbourOwner) return this.neighbourOwner;
    return this.owner;
  }

  private classify(ctx: CheckContext, v: GroupViews, step: Step, elapsedMs: number): Divergence {
    const after = `after ${step}, ${elapsedMs} ms later`;
    for (const [x, owner, clause] of [
      [v.byId, RECORD_IDENTITY, 'spec 4.2'],
      [v.details, BILLING_DETAILS, 'spec 2.5'],
    ] as const)
      if (!is2xx(x) || answeredId(x) !== this.id)
        return {
          owner,
          clause,
          message: `${x.request.method} ${x.request.url.replace(/^.*\/apis\/v0/, '')} answered ${x.response.status}${is2xx(x) ? ` with id ${JSON.stringify(answeredId(x))}` : ''}, not ${this.label}`,
          exchanges: [x],
        };
    if (!Array.isArray(v.list.response.body))
      return {
        owner: RESPONSE_SCHEMA,
        clause: 'spec 4.2',
        message: 'GET /billingGroups is not an array',
        exchanges: [v.list],
      };
    const statuses = this.statuses(v);
    const missing = statuses.find((s) => s.status === undefined);
    if (missing)
      return {
        owner: RESPONSE_SCHEMA,
        clause: 'spec 2.4',
        message: `${missing.view} shows ${this.label} without a string status`,
        exchanges: [missing.x],
      };
    const left = this.leftOut(ctx, v);
    if (left !== undefined)
      return {
        owner: VIEW_CONSISTENCY,
        clause: 'spec 4.2',
        message: `GET /billingGroups?start=${WHOLE_BILLING_WINDOW.start}&end=${WHOLE_BILLING_WINDOW.end} leaves out ${this.label} ${after}, which GET /billingGroups/${this.id} shows dated ${String((v.byId.response.body as Json).date)}: the list answered ${left}, so it is the whole list`,
        exchanges: [v.byId, v.list],
      };
    const field = this.fieldDiffers(v);
    if (field !== undefined) {
      const listed = elementWithId(v.list.response.body, this.id) as Json;
      return {
        owner: VIEW_CONSISTENCY,
        clause: 'spec 2.4',
        message: `${this.label} shows ${field} ${JSON.stringify(listed[field])} in GET /billingGroups and ${JSON.stringify((v.byId.response.body as Json)[field])} in GET /billingGroups/${this.id} ${after}: one group, the same documented fields in the list and the single response`,
        pointer: `/${field}`,
        exchanges: [v.list, v.byId],
      };
    }
    const shown = this.agreed(v);
    if (shown === undefined)
      return {
        owner: VIEW_CONSISTENCY,
        clause: 'spec 4.2',
        message: `${this.label} shows different statuses in different views ${after}: ${statuses.map((s) => `${s.view} '${s.status}'`).join(', ')} (the model holds ${describe(this.model)})`,
        pointer: '/status',
        exchanges: statuses.map((s) => s.x),
      };
    if (!satisfies(this.model, shown)) {
      const owner = this.ruleOf(step);
      const neighbour = this.isNeighbourAt(step) ? ', a group the write did not name' : '';
      return {
        owner: owner.check,
        clause: owner.clause,
        message: `${this.label}${neighbour} shows '${shown}' in every view ${after}, where the model holds ${describe(this.model)}`,
        pointer: '/status',
        exchanges: [v.byId],
      };
    }
    const filtered = v.filtered ?? v.list;
    if (!Array.isArray(filtered.response.body))
      return {
        owner: RESPONSE_SCHEMA,
        clause: 'spec 4.2',
        message: `GET /billingGroups?state=${shown} is not an array`,
        exchanges: [filtered],
      };
    return {
      owner: 'billing-filters-complete',
      clause: 'spec 4.2',
      message: `${this.label} shows status '${shown}' in every view ${after}, but GET /billingGroups?state=${shown} leaves it out`,
      exchanges: [v.byId, filtered],
    };
  }
}

/** The key a billing group is held under in a World. */
export function billingGroupKey(id: string): string {
  return `billing group ${id}`;
}
