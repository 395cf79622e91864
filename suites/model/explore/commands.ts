/**
 * The commands of the world-model explorer, drawn by fast-check: every write and read the model follows, aimed at
 * neighbours (ids from three slots: X, its case twin, another), with both ways of writing a record (body with no id,
 * body with the path's id) and both ways of making one (PUT to its path, POST to its collection).
 */
import fc from 'fast-check';
import { type RecordGroup, recordGroups } from '../../lib/world/record-groups.ts';
import { CreateRecordCommand } from './create-record.ts';
import { DeleteOfferCommand } from './delete-offer.ts';
import { DeleteRecordCommand } from './delete-record.ts';
import { type ExploreCommand, SLOTS } from './model.ts';
import { PutOfferCommand } from './put-offer.ts';
import { PutRecordCommand } from './put-record.ts';
import { ReadViewsCommand } from './read-views.ts';

/** Groups the run can fill every path parameter of (a carrier booking's ids are the deployment's). */
export const EXPLORED_GROUPS: readonly RecordGroup[] = recordGroups().filter(
  (g) => !g.template.startsWith('/carrierBookings/'),
);

/** The few groups one sequence writes: its commands meet on them, under the same ids, parents and children. */
export function groupsArb(): fc.Arbitrary<RecordGroup[]> {
  const related = (g: RecordGroup): RecordGroup[] =>
    EXPLORED_GROUPS.filter((o) => o === g || o.parent === g.template || g.parent === o.template);
  return fc.oneof(
    fc.subarray([...EXPLORED_GROUPS], { minLength: 1, maxLength: 3 }),
    fc.constantFrom(...EXPLORED_GROUPS.filter((g) => g.parent !== undefined)).map(related),
  );
}

/** Writes outweigh reads, and records offers: most faults live in what a write does to its neighbours. */
export function commandArbs(): fc.Arbitrary<ExploreCommand>[] {
  const slot = fc.nat({ max: SLOTS - 1 });
  const pick = fc.nat({ max: 5 });
  const put = fc
    .tuple(pick, slot, slot, fc.constantFrom('none' as const, 'path' as const))
    .map(([g, s, p, b]) => new PutRecordCommand(g, s, p, b));
  return [
    put,
    put,
    put,
    fc.nat({ max: 7 }).map((n) => new DeleteRecordCommand(n)),
    fc.nat({ max: 7 }).map((n) => new DeleteRecordCommand(n)),
    fc.tuple(pick, slot).map(([c, p]) => new CreateRecordCommand(c, p)),
    fc.integer({ min: 1, max: 3 }).map((times) => new ReadViewsCommand(times)),
    fc.tuple(slot, fc.boolean(), fc.integer({ min: 1, max: 40 })).map(([s, b, q]) => new PutOfferCommand(s, b, q)),
    slot.map((s) => new DeleteOfferCommand(s)),
  ];
}
