/**
 * record-delete (spec 1, spec 4.3): clients delete these resources (spec 1), so a DELETE that answers 2xx leaves the
 * record gone: its GET by id answers 4xx, or a record that says it was deleted (a field of the server's choosing:
 * suites/lib/world/gone.ts), or at least one that no longer reads as before; a whole list leaves it out or shows it so.
 * A PUT to the same path afterwards makes the record again (delete, then re-create). Booking events are spec 3 rule
 * 5's: marked canceled, never removed (event-cancel owns that). For every record group of section 4.3 with a DELETE
 * the run can see the effect of.
 */
import { checkTest, skip, test } from '../lib/index.ts';
import { recordGroups } from '../lib/world/record-groups.ts';
import { recordId, Records } from '../lib/world/records.ts';
import { World } from '../lib/world/world.ts';
import { hasViews, parentValues } from './parents.ts';

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
          const world = new World();
          const records = new Records(world, ctx.runId);
          const settle = (step: Parameters<World['settle']>[1]) => world.settle(ctx, step);
          const parent = await parentValues(ctx, records, group, settle);
          const r = records.record(group.template, { ...parent, [group.params.at(-1) ?? '']: recordId(ctx) });
          const put = await records.put(ctx, r);
          if (r.state().kind !== 'present')
            skip.nothingToJudge(ctx, `PUT ${r.key} answered ${put.x.response.status}: nothing written to delete`);
          await settle(put.step);
          const gone = await records.delete(ctx, r);
          if (r.state().kind !== 'gone')
            skip.nothingToJudge(
              ctx,
              `DELETE ${r.key} answered ${gone.x.response.status}: a refusal says nothing of what a DELETE does`,
            );
          await settle(gone.step);
          const again = await records.put(ctx, r);
          if (r.state().kind !== 'present')
            skip.nothingToJudge(ctx, `PUT ${r.key} after its DELETE answered ${again.x.response.status}`);
          await settle(again.step);
        },
      ),
    );
}
