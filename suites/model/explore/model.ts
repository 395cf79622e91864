/**
 * The model the world-model explorer's commands run against (fast-check's model-based testing: fc.commands and
 * fc.asyncModelRun). `Explored` is what fast-check checks a command's precondition on; `Real` is the deployment side:
 * the check's context and the world of records (suites/lib/world/), which compares every view of every record with
 * the spec's model after each command.
 *
 * Commands draw ids from three slots, so they meet as neighbours: X, the same id in the other case, and another id.
 * A record group, an offer and a parent all take their ids from the slots, so the same id lands under several groups,
 * as a parent and its child, and under a case twin.
 */
import type fc from 'fast-check';
import type { CheckContext } from '../../lib/index.ts';
import type { RecordGroup } from '../../../specs/record-groups.ts';
import type { Records, Step, World } from '../../lib/world/index.ts';

export const SLOTS = 3;

export type OfferState = 'none' | 'live' | 'cancelled';

export interface Explored {
  /** Keys of the section 4.3 records each command left present, and which of them a DELETE can remove. */
  present: { key: string; deletable: boolean }[];
  /** The offer at each slot. */
  offers: OfferState[];
  /** Section 4.3 records the sequence has written at least once (present, deleted or free). */
  written: number;
}

export interface Real {
  ctx: CheckContext;
  world: World;
  records: Records;
  /** The ids of the slots: X, its case twin, another. */
  ids: readonly string[];
  /** The record groups this sequence writes (a few, so its commands meet on the same records). */
  groups: readonly RecordGroup[];
  /** Compares the world after a step; a divergence ends the run (world-model.spec.ts). */
  settle(step: Step): Promise<void>;
}

export type ExploreCommand = fc.AsyncCommand<Explored, Real>;

/** The id of a slot (commands are drawn before the run's ids exist). */
export function slotId(real: Real, slot: number): string {
  return real.ids[slot % real.ids.length] ?? '';
}

/** The group a command's pick names among the sequence's groups. */
export function groupOf(real: Real, pick: number): RecordGroup {
  const g = real.groups[pick % real.groups.length];
  if (!g) throw new Error('a sequence writes at least one record group');
  return g;
}

/** Keeps the fast-check model's list of present records in step with the world's. */
export function notePresence(m: Explored, real: Real): void {
  const all = real.records.all();
  m.present = all
    .filter((r) => r.state().kind === 'present')
    .map((r) => ({ key: r.key, deletable: r.group.del !== undefined }));
  m.written = all.filter((r) => r.markers.length > 0).length;
}
