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
import { type HistoryOp, HistoryCommand } from './history.ts';
import { ReadViewsCommand } from './read-views.ts';
import { RewriteRecordCommand } from './rewrite-record.ts';

/** Groups the run can fill every path parameter of (a carrier booking's ids are the deployment's). */
export const EXPLORED_GROUPS: readonly RecordGroup[] = recordGroups().filter(
  (g) => !g.template.startsWith('/carrierBookings/'),
);

/**
 * The few groups one sequence writes, by template (a counterexample prints them): its commands meet on them, under
 * the same ids, parents and children.
 */
export function groupsArb(): fc.Arbitrary<string[]> {
  const templates = EXPLORED_GROUPS.map((g) => g.template);
  const related = (g: RecordGroup): string[] =>
    EXPLORED_GROUPS.filter((o) => o === g || o.parent === g.template || g.parent === o.template).map((o) => o.template);
  return fc.oneof(
    fc.subarray(templates, { minLength: 1, maxLength: 3 }),
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
  const del = fc.nat({ max: 7 }).map((n) => new DeleteRecordCommand(n));
  const rewrite = fc
    .tuple(fc.nat({ max: 7 }), fc.constantFrom('none' as const, 'path' as const))
    .map(([n, b]) => new RewriteRecordCommand(n, b));
  const history = fc
    .tuple(
      pick,
      slot,
      fc.array(fc.constantFrom<HistoryOp>('put', 'put-with-id', 'delete', 'delete'), { minLength: 3, maxLength: 8 }),
    )
    .map(([g, s, ops]) => new HistoryCommand(g, s, ops));
  return [
    history,
    history,
    put,
    put,
    rewrite,
    rewrite,
    del,
    del,
    fc.tuple(pick, slot).map(([c, p]) => new CreateRecordCommand(c, p)),
    fc.integer({ min: 1, max: 3 }).map((times) => new ReadViewsCommand(times)),
    fc.tuple(slot, fc.boolean(), fc.integer({ min: 1, max: 40 })).map(([s, b, q]) => new PutOfferCommand(s, b, q)),
    slot.map((s) => new DeleteOfferCommand(s)),
  ];
}
