/**
 * record-upsert (spec 1, spec 4.3): "a PUT to a path that carries the resource id creates or updates it". For every
 * record group of section 4.3 the run can read (specs/record-groups.ts): a PUT to a fresh id makes the
 * record show in every view that has it (its GET by id, its collection's list when that list is whole), and a second
 * PUT to it shows in place of the first wherever a view shows what was written (a marker only that write carries).
 * Where the contract lists a POST to the collection (and its bulk), a record it makes under an id the run can find
 * (the body's, or the one the answer names) is updated by a PUT to that id as well: a record made one way is changed
 * by the update made another way (suites/lib/world/record-shapes.ts, `upsertShape`).
 *
 * Bodies are not shown (spec 4.3), so a server that echoes nothing is judged on presence alone, and one that refuses
 * the run's body judges nothing (skipped, saying so). How long a write takes to show is the server's (polled to the
 * visibility deadline).
 */
import { checkTest, test } from '../lib/index.ts';
import { hasViews, reportShape, requireWorldModel, upsertShape } from '../lib/world/index.ts';
import { recordGroups } from '../../specs/record-groups.ts';

for (const group of recordGroups().filter(hasViews))
  test(
    ...checkTest(
      {
        check: 'record-upsert',
        operation: group.put,
        title: `PUT ${group.template} creates the record, and a second PUT updates it`,
        writes: true,
      },
      async (ctx) => {
        requireWorldModel(ctx);
        await reportShape(ctx, await upsertShape(ctx, group));
      },
    ),
  );
