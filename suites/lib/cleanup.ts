/**
 * What a write test leaves on the deployment, and putting it back. checkTest
 * gives every test one (`ctx.cleanup`) and runs it when the test ends, pass or
 * fail. Every offer id a test writes to is registered here, every
 * billing-group status it forces is registered with the value it had before,
 * and any other write registers its own undo step (`add`). At the end the undo
 * steps run newest first, offers are cancelled (DELETE cancels, spec 3 rule 4)
 * and statuses restored. Cleanup never fails a test: what could not be undone
 * is printed, attached as `flis-left-behind` and annotated, so the run says it.
 */
import type { TestInfo } from '@playwright/test';
import { operationById } from '../../specs/contract.ts';
import type { FlisClient } from '../../core/client.ts';
import { is2xx } from '../../core/exchange.ts';
import { isForeignTag } from '../../core/forced-tag.ts';
import { statusOf } from '../../core/listed-records.ts';
import { waitForOffer } from './offer-visible.ts';
import { mapBounded } from './parallel.ts';
import { pollVisible } from './visibility-deadline.ts';
import { target } from '../../core/target.ts';

export interface OfferCleanup {
  /**
   * Wait (up to the visibility deadline) until the offer shows before cancelling it: for an offer the test does not
   * wait for itself (a set-up offer, an id a write may have created), since a DELETE that overtakes its create could
   * miss it.
   */
  awaitVisible?: boolean;
}

interface OfferState {
  /** True once the test has seen it cancelled (nothing left to undo). */
  cancelled: boolean;
  awaitVisible: boolean;
}

export class Cleanup {
  private readonly offers = new Map<string, OfferState>();
  /** Billing group id → the status it showed before the test forced anything. */
  private readonly statuses = new Map<string, string>();
  /** Undo steps for writes that are neither offers nor forced statuses (records, events, catalogue entries). */
  private readonly steps: { what: string; undo: () => Promise<unknown> }[] = [];
  readonly leftBehind: string[] = [];

  constructor(
    private readonly api: FlisClient,
    private readonly testInfo: TestInfo,
  ) {}

  /** An undo step for a write of another kind, e.g. a DELETE of a record the test PUT; run newest first. */
  add(what: string, undo: () => Promise<unknown>): void {
    this.steps.push({ what, undo });
  }

  /**
   * An offer the test wrote (e.g. the id a POST answered), or is about to write: register a fresh id before anything
   * is written to it (`cleanup.offer(freshId('offer'))`). Answers the id.
   */
  offer(id: string, opts: OfferCleanup = {}): string {
    const known = this.offers.get(id);
    if (!known) this.offers.set(id, { cancelled: false, awaitVisible: opts.awaitVisible === true });
    else if (opts.awaitVisible) known.awaitVisible = true;
    return id;
  }

  /** True when this test wrote (or registered) the offer id. */
  wrote(id: string): boolean {
    return this.offers.has(id);
  }

  /** The test saw this offer read `canceled: true`: cancelling it again could only be refused. */
  offerCancelled(id: string): void {
    const known = this.offers.get(id);
    if (known) known.cancelled = true;
    else this.offers.set(id, { cancelled: true, awaitVisible: false });
  }

  /** Billing groups whose forced status this test saw a DELETE fail to remove: restored by forcing, without waiting. */
  private readonly removalIgnored = new Set<string>();

  /** The test saw DELETE of this group's forced status leave it in place: waiting for the DELETE again is pointless. */
  statusRemovalIgnored(billingGroupId: string): void {
    this.removalIgnored.add(billingGroupId);
  }

  /** Call before forcing a status; the first registration keeps the original value. */
  billingStatus(billingGroupId: string, before: string): void {
    if (!this.statuses.has(billingGroupId)) this.statuses.set(billingGroupId, before);
  }

  /** The one way an offer is cancelled: what is left behind of it, if anything; never throws. */
  private async cancelOffer(id: string, { awaitVisible }: OfferState): Promise<string | undefined> {
    try {
      if (awaitVisible) await waitForOffer(this.api, id);
      const x = await this.api.op(operationById('deleteOffer'), { params: { offerId: id } });
      // 404: nothing stored under the id (a write that was refused), so nothing is left.
      if (!is2xx(x) && x.response.status !== 404) return `offer ${id}: DELETE answered ${x.response.status}`;
    } catch (error) {
      return `offer ${id}: DELETE failed: ${error instanceof Error ? error.message : String(error)}`;
    }
    return undefined;
  }

  private async readStatus(id: string): Promise<string | undefined> {
    const x = await this.api.op(operationById('getBillingGroup'), { params: { billingGroupId: id } });
    return statusOf(x.response.body);
  }

  /** True once the group shows `wanted`, or another run's forced value (that run owns the group now). */
  private async waitForStatus(id: string, wanted: string): Promise<boolean> {
    const r = await pollVisible(
      () => this.readStatus(id),
      (s) => s === wanted || isForeignTag(s, target().runId),
    );
    return r.ok;
  }

  /**
   * Removes the forced statuses both ways the spec documents (DELETE .../status, spec 3 rule 2, and a bulk item with
   * deleteStatus, rule 3), side by side: a server that ignores one of them (the fault of the check that owns that
   * rule) then costs no visibility deadline in the cleanup of every other test that forced a status. Removing twice
   * asks nothing a conformant server must refuse; the answers are not judged here.
   */
  private async removeForced(ids: string[]): Promise<void> {
    const single = ids.map((billingGroupId) =>
      this.api.op(operationById('removeBillingGroupStatus'), { params: { billingGroupId } }),
    );
    const bulk = this.api.op(operationById('bulkUpdateBillingGroupStatus'), {
      json: ids.map((billingGroupId) => ({ billingGroupId, deleteStatus: true })),
    });
    await Promise.allSettled([...single, bulk]);
  }

  /**
   * The groups this test forced that no other run has forced since: a group showing another run's forced value is
   * that run's now (one forced status per group), and removing the forced status would remove theirs.
   */
  private async groupsNotTakenOver(): Promise<[string, string][]> {
    const runId = target().runId;
    const shown = await Promise.all(
      [...this.statuses].map(async ([id, before]) => {
        const status = await this.readStatus(id).catch(() => undefined);
        return { id, before, takenOver: isForeignTag(status, runId) };
      }),
    );
    return shown.filter((g) => !g.takenOver).map((g) => [g.id, g.before]);
  }

  /**
   * Once the forced status is removed: if the group then does not show its old value, the
   * old value was itself forced before the test, so force it back. A group that
   * shows another run's forced value is left to that run, which restores it.
   */
  private async restoreStatus(id: string, before: string): Promise<void> {
    try {
      if (this.removalIgnored.has(id) ? (await this.readStatus(id)) === before : await this.waitForStatus(id, before))
        return;
      await this.api.op(operationById('forceBillingGroupStatus'), {
        params: { billingGroupId: id },
        json: { status: before },
      });
      if (await this.waitForStatus(id, before)) return;
      this.leftBehind.push(
        `billing group ${id}: status is '${(await this.readStatus(id)) ?? '(none)'}', was '${before}' before the test`,
      );
    } catch (error) {
      this.leftBehind.push(
        `billing group ${id}: restoring status '${before}' failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /** Newest first, like a stack; a failed undo is reported, not thrown, so the others still run. */
  private async runSteps(): Promise<void> {
    for (const step of this.steps.reverse()) {
      try {
        await step.undo();
      } catch (error) {
        this.leftBehind.push(`${step.what}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  /** Undo everything; never throws. */
  async run(): Promise<void> {
    await this.runSteps();
    // Offers are independent: cancelled side by side (a few at a time), reported in the order they were written.
    const live = [...this.offers].filter(([, state]) => !state.cancelled);
    for (const left of await mapBounded(live, ([id, state]) => this.cancelOffer(id, state)))
      if (left) this.leftBehind.push(left);
    // Groups are independent: restored side by side, so a server slow to show (or ignoring) a removal costs one wait.
    const mine = await this.groupsNotTakenOver();
    if (mine.length > 0) await this.removeForced(mine.map(([id]) => id));
    await Promise.all(mine.map(([id, before]) => this.restoreStatus(id, before)));
    if (this.leftBehind.length === 0) return;
    const text = `cleanup could not undo ${this.leftBehind.length} write(s) on ${target().deployment} (run ${target().runId}):\n  ${this.leftBehind.join('\n  ')}`;
    console.warn(text);
    this.testInfo.annotations.push({ type: 'left-behind', description: this.leftBehind.join('; ') });
    await this.testInfo.attach('flis-left-behind', {
      body: JSON.stringify({ runId: target().runId, leftBehind: this.leftBehind }, null, 2),
      contentType: 'application/json',
    });
  }
}
