/**
 * An offer in the world (spec 2.2, 2.3, 3 rule 4, 4.1): what its last write determined (the documented fields it
 * carried: suites/lib/readback.ts) and whether it is cancelled. Its view is GET /offers/{offerId} (an array of Offer:
 * any version that is the write will do, suites/lib/offers/flow-steps.ts). Judged by the rule of the step: the write's
 * own (offer-upsert for what was written, offer-cancel for a cancellation) for the offer a write names; for any other
 * offer, offer-cancel when it was cancelled or revived (rule 4 cancels the offer written or deleted) and
 * record-isolation when another field moved; safe-reads after a read; durable-state after time alone. A shape that
 * breaks spec 2.2 is response-schema's, another offer's answer record-identity's (readOffer blocks on it).
 */
import type { CheckId } from '../catalogue.ts';
import { RESPONSE_SCHEMA } from '../check-blocked.ts';
import type { Clause } from '../check.ts';
import type { CheckContext } from '../check-test.ts';
import { type OfferRead, readOffer, readVerdict, writtenVersion } from '../offers/flow-steps.ts';
import { type Expectation, mismatches, readBackOwner, unmetPointers } from '../readback.ts';
import { pollVisible } from '../visibility-deadline.ts';
import type { Step } from './step.ts';
import type { Divergence, WorldRecord } from './world.ts';

export class OfferRecord implements WorldRecord {
  readonly label: string;
  private expectations: Expectation[] = [];
  private canceled = false;
  /** Nothing is held until a write answered 2xx; a refused write frees it. */
  private held = false;
  /** The offer as last read: a field an asynchronous write has not reached yet still shows it (spec 1). */
  private seen: Record<string, unknown> | undefined;

  constructor(readonly id: string) {
    this.label = `offer ${id}`;
  }

  get key(): string {
    return `/offers/${this.id}`;
  }

  isLive(): boolean {
    return this.held && !this.canceled;
  }

  isHeld(): boolean {
    return this.held;
  }

  /** A write answered 2xx: its documented fields, merged over the earlier ones (an update says nothing of the rest). */
  wrote(expectations: readonly Expectation[]): void {
    const pointers = new Set(expectations.map((e) => e.pointer));
    this.expectations = [...this.expectations.filter((e) => !pointers.has(e.pointer)), ...expectations];
    const cancel = expectations.find((e) => e.pointer === '/canceled');
    if (cancel) this.canceled = cancel.value === true;
    this.held = true;
  }

  /** A DELETE answered 2xx: cancelled (spec 3 rule 4). */
  cancelled(): void {
    this.canceled = true;
  }

  free(): void {
    this.held = false;
  }

  private expected(): Expectation[] {
    return [
      ...this.expectations.filter((e) => e.pointer !== '/canceled'),
      { pointer: '/canceled', value: this.canceled, compare: 'exact' },
    ];
  }

  async diverges(ctx: CheckContext, step: Step): Promise<Divergence | undefined> {
    if (!this.held) return undefined;
    const expected = this.expected();
    const read = step.namesRecord(this.key)
      ? (
          await pollVisible(
            () => readOffer(ctx, this.id),
            (r) => readVerdict(r, expected, this.seen),
          )
        ).value
      : await readOffer(ctx, this.id);
    if (read.shapeProblem !== undefined)
      return this.divergence(step, read, RESPONSE_SCHEMA, 'spec 2.2', `reads ${read.shapeProblem}`);
    const version = writtenVersion(read, expected);
    if (!version)
      return this.divergence(
        step,
        read,
        ...this.ruleOf(
          step,
          expected.map((e) => e.pointer),
        ),
        `answers ${read.exchange.response.status}`,
      );
    const wrong = mismatches(version, expected);
    if (wrong.length === 0) {
      this.seen = version;
      return undefined;
    }
    return this.divergence(
      step,
      read,
      ...this.ruleOf(step, unmetPointers(version, expected)),
      `reads ${wrong.join('; ')}`,
    );
  }

  private ruleOf(step: Step, pointers: readonly string[]): [CheckId, Clause] {
    const aboutCancel = pointers.every((p) => p === '/canceled');
    if (step.kind === 'read') return ['safe-reads', 'HTTP semantics'];
    if (step.kind === 'audit') return ['durable-state', aboutCancel ? 'spec 3 rule 4' : 'spec 1'];
    if (step.namesRecord(this.key)) {
      const owner = readBackOwner(pointers);
      return [owner, owner === 'offer-cancel' ? 'spec 3 rule 4' : owner === 'offer-settled' ? 'spec 2.3' : 'spec 1'];
    }
    return aboutCancel ? ['offer-cancel', 'spec 3 rule 4'] : ['record-isolation', 'spec 1'];
  }

  private divergence(step: Step, read: OfferRead, owner: CheckId, clause: Clause, what: string): Divergence {
    return {
      owner,
      clause,
      message: `${this.label} after ${step}: GET /offers/${this.id} ${what}; the model holds it ${this.canceled ? 'cancelled' : 'live'} with its written fields`,
      exchanges: [read.exchange],
      subject: { offer: true },
    };
  }
}
