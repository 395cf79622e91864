/**
 * Forced statuses made one way and undone or overwritten the other way (spec 3 rules 1-3), on two groups at once so
 * that every write has a neighbour. Spec 3 gives two paths for each half: rule 1 (PUT .../status) and rule 3 (a bulk
 * item) force "the status of a billing group"; rule 2 (DELETE .../status) and rule 3 (an item with deleteStatus true)
 * remove "a forced status". Neither says a removal depends on how the status was forced, so each removal path removes
 * what either forcing path forced, a later force replaces an earlier one whichever path made it, and a write changes
 * the groups it names and no other: not the other group of the pair (chosen, where the deployment has one, of the same
 * customer and `inactive`, the values such groups share), and not a group whose id differs from the one named only by
 * letter case (spec 2: ids are strings, so that is another id).
 *
 * After every write the world of the pair (suites/lib/world/billing-groups.ts) compares every view of both groups
 * with the model. Who owns a divergence is the path's rule: a PUT's is billing-forced-status (rule 1), a DELETE's
 * billing-forced-status (rule 2), a bulk call's billing-bulk-status (rule 3), for the groups it names and for the
 * neighbour alike; a check meeting another check's rule on its way is blocked by it. A neighbour that no longer shows
 * the model's value is written back the way it was written, and the write is sent once more: only a neighbour that
 * changes again fails (another run may have disturbed it once, never twice in a row).
 *
 * After a force, the model holds the forced value; after a removal, anything but the value removed (whether an earlier
 * forced value shows again after two forces and one removal is not shown: "removes a forced status").
 */
import type { BillingGroupStatusUpdateItem } from '../../schemas/types.generated.ts';
import { operationById } from '../../specs/contract.ts';
import { type Exchange, forcedTag, isForcedTag, type CheckContext, skip } from '../lib/index.ts';
import {
  BillingGroupRecord,
  reportDivergence,
  Step,
  World,
  type EffectOwner,
  type StatusModel,
} from '../lib/world/index.ts';
import type { ListedGroup } from './groups.ts';
import { currentStatus, expectSuccessAck } from './status.ts';

export const RULE_1: EffectOwner = { check: 'billing-forced-status', clause: 'spec 3 rule 1' };
export const RULE_2: EffectOwner = { check: 'billing-forced-status', clause: 'spec 3 rule 2' };
export const RULE_3: EffectOwner = { check: 'billing-bulk-status', clause: 'spec 3 rule 3' };

/** One write of a sequence, in the shape of a bulk item: a PUT forces, a DELETE removes, a bulk call does each item. */
export type Write =
  | { via: 'put'; billingGroupId: string; status: string }
  | { via: 'delete'; billingGroupId: string }
  | { via: 'bulk'; items: BillingGroupStatusUpdateItem[] };

function ownerOf(w: Write): EffectOwner {
  return w.via === 'put' ? RULE_1 : w.via === 'delete' ? RULE_2 : RULE_3;
}

function namedIds(w: Write): string[] {
  return w.via === 'bulk' ? w.items.map((i) => i.billingGroupId) : [w.billingGroupId];
}

export function describeWrite(w: Write): string {
  if (w.via === 'put') return `PUT /billingGroups/${w.billingGroupId}/status '${w.status}'`;
  if (w.via === 'delete') return `DELETE /billingGroups/${w.billingGroupId}/status`;
  const items = w.items.map((i) =>
    i.deleteStatus === true ? `${i.billingGroupId} deleteStatus` : `${i.billingGroupId} '${i.status}'`,
  );
  return `POST /billingGroups/bulkStatusUpdate [${items.join(', ')}]`;
}

/** The server refused a status value naming the run (a closed list of values, spec 3 shows none): nothing to judge. */
export class ValueRefused extends Error {
  constructor(readonly exchange: Exchange) {
    super(`the server refused a forced status naming the run (${exchange.response.status})`);
    this.name = 'ValueRefused';
  }
}

export class StatusSequence {
  private readonly world = new World();
  private readonly records = new Map<string, BillingGroupRecord>();
  /** The write that set each group's model, to write it back in a neighbour's control. */
  private readonly lastWrite = new Map<string, Write>();
  /** The check's context, for the values a plan writes. */
  readonly context: CheckContext;

  constructor(
    private readonly ctx: CheckContext,
    groups: readonly { id: string; status: string }[],
  ) {
    this.context = ctx;
    for (const g of groups) {
      const r = new BillingGroupRecord(g.id, { is: g.status }, RULE_1);
      this.records.set(g.id, r);
      this.world.add(r.key, r);
    }
  }

  /** Sends the write, moves the model on, and compares every view of both groups with it. */
  async apply(w: Write): Promise<void> {
    const x = await this.send(w);
    if (x.response.status >= 400 && x.response.status < 500 && w.via !== 'delete') throw new ValueRefused(x);
    this.expectAck(x, w);
    const step = this.expectAfter(w);
    await this.settle(w, step);
  }

  /**
   * A write to the case twin of a group of the pair (another id, spec 2), when the GET of the twin says no such
   * group: its answer is not judged (a 4xx is the likely one), but it must leave both groups as they were.
   */
  async applyToTwin(w: Write, twin: string): Promise<void> {
    const probe = await this.ctx.api.op(operationById('getBillingGroup'), { params: { billingGroupId: twin } });
    if (probe.response.status < 400 || probe.response.status > 499) return;
    const x = await this.send(w);
    if (w.via === 'put' && x.response.status >= 200 && x.response.status < 300)
      this.ctx.cleanup.add(`DELETE /billingGroups/${twin}/status`, () =>
        this.ctx.api.op(operationById('removeBillingGroupStatus'), { params: { billingGroupId: twin } }),
      );
    const owner = ownerOf(w);
    for (const r of this.records.values()) r.neighbourOf(owner);
    await this.settle(
      w,
      Step.write(`${describeWrite(w)}, to an id that differs only by case`, [`billing group ${twin}`]),
    );
  }

  private send(w: Write): Promise<Exchange> {
    const api = this.ctx.api;
    if (w.via === 'put')
      return api.op(operationById('forceBillingGroupStatus'), {
        params: { billingGroupId: w.billingGroupId },
        json: { status: w.status },
      });
    if (w.via === 'delete')
      return api.op(operationById('removeBillingGroupStatus'), { params: { billingGroupId: w.billingGroupId } });
    return api.op(operationById('bulkUpdateBillingGroupStatus'), { json: w.items });
  }

  /** Success, as spec 4.2 answers it; a write of another check's path that is refused blocks this check by it. */
  private expectAck(x: Exchange, w: Write): void {
    const owner = ownerOf(w).check;
    const ok =
      x.response.status >= 200 &&
      x.response.status < 300 &&
      (x.response.body as { success?: unknown })?.success === true;
    if (ok || owner === this.ctx.check.meta.check) {
      expectSuccessAck(this.ctx, x, describeWrite(w));
      return;
    }
    skip.blockedBy(
      this.ctx,
      owner,
      x,
      `${describeWrite(w)} answered ${x.response.status} ${x.response.text.slice(0, 200)}`,
    );
  }

  /** The model after `w`: the groups it names hold its effect, the others keep theirs under `w`'s rule. */
  private expectAfter(w: Write): Step {
    const owner = ownerOf(w);
    const named = new Set(namedIds(w));
    for (const [id, r] of this.records) if (!named.has(id)) r.neighbourOf(owner);
    const items: BillingGroupStatusUpdateItem[] =
      w.via === 'bulk'
        ? w.items
        : w.via === 'put'
          ? [{ billingGroupId: w.billingGroupId, status: w.status }]
          : [{ billingGroupId: w.billingGroupId, deleteStatus: true }];
    for (const item of items) {
      const r = this.records.get(item.billingGroupId);
      if (!r) continue;
      const model = modelAfter(r.holds(), item);
      const resend = 'is' in model && item.deleteStatus !== true ? () => this.resend(w, item) : undefined;
      r.expect(model, owner, resend);
      this.lastWrite.set(item.billingGroupId, w);
    }
    return Step.write(
      describeWrite(w),
      [...named].map((id) => this.records.get(id)?.key ?? `billing group ${id}`),
    );
  }

  /** The forced value once more, alone, the way it was written. */
  private async resend(w: Write, item: BillingGroupStatusUpdateItem): Promise<void> {
    const again: Write =
      w.via === 'bulk'
        ? { via: 'bulk', items: [item] }
        : { via: 'put', billingGroupId: item.billingGroupId, status: item.status ?? '' };
    this.expectAck(await this.send(again), again);
  }

  /** The named groups first (they wait for the write to show), then the neighbours, each confirmed before it fails. */
  private async settle(w: Write, step: Step): Promise<void> {
    const ordered = [...this.records.values()].sort(
      (a, b) => Number(a.isNeighbourAt(step)) - Number(b.isNeighbourAt(step)),
    );
    for (const r of ordered) {
      const d = await r.diverges(this.ctx, step);
      if (!d) continue;
      if (!r.isNeighbourAt(step) || d.owner !== ownerOf(w).check) reportDivergence(this.ctx, d);
      const again = await this.neighbourControl(r, w, step);
      if (again)
        reportDivergence(this.ctx, {
          ...again,
          message: `${again.message} (also when written back and the write was sent once more)`,
        });
      this.ctx.testInfo.annotations.push({
        type: 'note',
        description: `${r.label} diverged after ${step} once, not when written back and the write was sent again: another writer may have disturbed it`,
      });
    }
  }

  /** Writes the neighbour back the way it was written, then sends `w` once more: does the neighbour diverge again? */
  private async neighbourControl(r: BillingGroupRecord, w: Write, step: Step) {
    const own = this.lastWrite.get(r.id);
    if (own) {
      await this.send(own);
      const d = await r.diverges(this.ctx, Step.write(`${describeWrite(own)}, written back`, [r.key]));
      if (d) reportDivergence(this.ctx, d);
    }
    await this.send(w);
    return r.diverges(this.ctx, step);
  }
}

/** A force holds its value; a removal holds anything but the value the model had forced. */
function modelAfter(before: StatusModel, item: BillingGroupStatusUpdateItem): StatusModel {
  if (item.deleteStatus !== true && item.status !== undefined) return { is: item.status };
  return 'is' in before ? { not: before.is } : before;
}

/**
 * Two groups for a sequence among `candidates` that show no forced value of any test (another test of this run, or
 * another run, may be using those) and were not tried before: the first, and the one most like it among the next few
 * (the same customer and `inactive`, else the same customer, else the next).
 */
export async function pairOfGroups(
  ctx: CheckContext,
  candidates: readonly ListedGroup[],
  tried: ReadonlySet<string>,
  passedOver: string[],
): Promise<{ id: string; status: string }[] | undefined> {
  const free: (ListedGroup & { now: string })[] = [];
  for (const g of candidates) {
    if (tried.has(g.id)) continue;
    const now = (await currentStatus(ctx, g.id)) ?? g.status;
    if (isForcedTag(now)) passedOver.push(`${g.id} showed '${now}'`);
    else free.push({ ...g, now });
    if (free.length === LOOK_AHEAD) break;
  }
  const [a, ...rest] = free;
  if (!a) return undefined;
  const b =
    rest.find((g) => g.customerId === a.customerId && g.inactive === a.inactive) ??
    rest.find((g) => g.customerId === a.customerId) ??
    rest[0];
  if (!b) return undefined;
  for (const g of [a, b]) ctx.cleanup.billingStatus(g.id, g.now);
  return [a, b].map((g) => ({ id: g.id, status: g.now }));
}

/** Free groups looked at for a pair: a customer's next group is a few places on in a deployment's order. */
const LOOK_AHEAD = 6;

/** Values a sequence forces: each names the run and the step, so no two writes of it look alike. */
export function sequenceValue(ctx: CheckContext, label: string): string {
  return forcedTag(ctx.runId, `seq-${label}`);
}
