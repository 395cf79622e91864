/**
 * The world a check wrote and read: every record it knows, what each must show, and every view the spec names for it
 * (a list, a GET by id, details, a snapshot, a filter). After every write the check calls `settle`, and every view of
 * every record is compared with the model, the records the write named and their neighbours alike. A record's views
 * may take their time to show a write (spec 1: asynchronous), and may order, add to and name things as they like:
 * each record compares only documented fields, as sets where the spec shows no order.
 *
 * The model finds a divergence; the check that owns the rule it breaks reports it (one fault, one failure): the
 * running check fails when it is that owner, and is blocked by the owner otherwise.
 */
import type { CheckId } from '../catalogue.ts';
import type { Clause } from '../check.ts';
import type { CheckContext } from '../check-test.ts';
import type { Exchange } from '../exchange.ts';
import { mapBounded } from '../parallel.ts';
import { target } from '../target.ts';
import { skip } from '../skip.ts';
import { Step } from './step.ts';

/** The check that owns "one record, the same in every view that shows it" (suites/billing/views.spec.ts). */
export const VIEW_CONSISTENCY = 'view-consistency' satisfies CheckId;

/**
 * Whether the world model runs: always, unless FLIS_WORLD_MODEL=off, which the bench sets to measure what the model
 * costs side by side. Off, the neighbours are not written, `settle` compares nothing and view-consistency is skipped
 * (so the verdict is no longer `certified`: a skipped check narrows it to `partial`).
 */
export function worldModelOn(): boolean {
  return target().worldModelOff !== true;
}

/** A check that is all model skips when the model is off (the bench's side-by-side figure): it would judge nothing. */
export function requireWorldModel(ctx: CheckContext): void {
  if (!worldModelOn()) skip.nothingToJudge(ctx, 'the world model is off (FLIS_WORLD_MODEL=off, for the bench)');
}

export interface Divergence {
  /** The check whose rule the divergence breaks: it fails, any other check meeting it is blocked by it. */
  owner: CheckId;
  /** The clause broken, one its owner's catalogue row lists. */
  clause: Clause;
  /** What each view showed and what the model holds. */
  message: string;
  /** The JSON pointer of the value that differs, in the last exchange. */
  pointer?: string;
  /** The reads that show it, the most telling last. */
  exchanges: Exchange[];
  /** What it is about, for a control that replays the owner's rule on fresh records (suites/lib/world/controls.ts). */
  subject?: { template?: string; offer?: true };
}

/** One record of the world: it reads every view of itself and answers how one differs from the model, if one does. */
export interface WorldRecord {
  /** How a message names it, e.g. `billing group BG-1`. */
  readonly label: string;
  /** `step` is what happened just before (suites/lib/world/step.ts): the divergence message says what it followed. */
  diverges(ctx: CheckContext, step: Step): Promise<Divergence | undefined>;
}

export class World {
  private readonly records = new Map<string, WorldRecord>();

  /** Adds a record, or replaces the one with the same key. */
  add(key: string, record: WorldRecord): void {
    this.records.set(key, record);
  }

  get(key: string): WorldRecord | undefined {
    return this.records.get(key);
  }

  has(key: string): boolean {
    return this.records.has(key);
  }

  get size(): number {
    return this.records.size;
  }

  /** Every view of every record against the model, after `step`; the first divergence is reported by its owner. */
  async settle(ctx: CheckContext, step: Step | string): Promise<void> {
    const d = await this.firstDivergence(ctx, step);
    if (d) reportDivergence(ctx, d);
  }

  /**
   * The first divergence after `step`, without reporting it: for a check that looks closer before it judges. The
   * records the step names first: they wait for the write to show, so every other record is read after it has, and an
   * effect the write has on them has had its time too.
   */
  async firstDivergence(ctx: CheckContext, step: Step | string): Promise<Divergence | undefined> {
    if (!worldModelOn()) return undefined;
    const at = Step.of(step);
    const all = [...this.records.entries()];
    for (const [key, record] of all) {
      if (!at.namesRecord(key)) continue;
      const d = await record.diverges(ctx, at);
      if (d) return d;
    }
    // Every other record is read once, side by side (a few at a time): the first divergence in the world's order wins,
    // whichever answer came first, so a replay judges the same.
    const others = all.filter(([key]) => !at.namesRecord(key)).map(([, r]) => r);
    const found = await mapBounded(others, (r) => r.diverges(ctx, at));
    return found.find((d) => d !== undefined);
  }
}

/** The owner reports: the running check fails when it owns the rule, else it is blocked by the check that does. */
export function reportDivergence(ctx: CheckContext, d: Divergence): never {
  if (d.owner === ctx.check.meta.check)
    return ctx.check.fail(
      d.message,
      { exchanges: d.exchanges, ...(d.pointer !== undefined ? { pointer: d.pointer } : {}) },
      d.clause,
    );
  return ctx.check.blocked(d.owner, d.exchanges.at(-1), d.message);
}
