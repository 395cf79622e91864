/**
 * record-delete (spec 1, spec 4.3): clients delete these resources (spec 1), so a DELETE that answers 2xx leaves the
 * record gone: its GET by id answers 4xx, or a record that says it was deleted (a field of the server's choosing:
 * suites/lib/world/gone.ts), or at least one that no longer reads as before; a whole list leaves it out or shows it so.
 * A PUT to the same path afterwards makes the record again (delete, then re-create). Booking events are spec 3 rule
 * 5's: marked canceled, never removed (event-cancel owns that). For every record group of section 4.3 with a DELETE
 * the run can see the effect of (suites/lib/world/record-shapes.ts, `deleteShape`).
 */
import { checkTest, test } from '../lib/index.ts';
import { deleteShape, hasViews, reportShape, requireWorldModel } from '../lib/world/index.ts';
import { recordGroups } from '../../specs/record-groups.ts';

for (const group of recordGroups().filter((g) => hasViews(g) && !g.deleteMarks)) {
  const del = group.del;
  if (del)
    test(
      ...checkTest(
        {
          check: 'record-delete',
          operation: del,
          title: `DELETE ${group.template} removes the record, and a PUT makes it again`,
          writes: true,
        },
        async (ctx) => {
          requireWorldModel(ctx);
          await reportShape(ctx, await deleteShape(ctx, group));
        },
      ),
    );
}
