/**
 * record-upsert (spec 1, spec 4.3): "a PUT to a path that carries the resource id creates or updates it". For every
 * record group of section 4.3 the run can read (suites/lib/world/record-groups.ts): a PUT to a fresh id makes the
 * record show in every view that has it (its GET by id, its collection's list when that list is whole), and a second
 * PUT to it shows in place of the first wherever a view shows what was written (a marker only that write carries).
 * Where the contract lists a POST to the collection (and its bulk), a record it makes under an id the run can find
 * (the body's, or the one the answer names) is updated by a PUT to that id as well: a record made one way is changed
 * by the update made another way.
 *
 * Bodies are not shown (spec 4.3), so a server that echoes nothing is judged on presence alone, and one that refuses
 * the run's body judges nothing (skipped, saying so). How long a write takes to show is the server's (polled to the
 * visibility deadline).
 */
import { operationById } from '../../specs/contract.ts';
import { checkTest, test, skip } from '../lib/index.ts';
import { recordGroups } from '../lib/world/record-groups.ts';
import { recordId, Records } from '../lib/world/records.ts';
import { World } from '../lib/world/world.ts';
import { hasViews, parentValues } from './parents.ts';

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
        const world = new World();
        const records = new Records(world, ctx.runId);
        const settle = (step: Parameters<World['settle']>[1]) => world.settle(ctx, step);
        const parent = await parentValues(ctx, records, group, settle);
        const r = records.record(group.template, { ...parent, [group.params.at(-1) ?? '']: recordId(ctx) });
        for (const round of ['creates', 'updates']) {
          const { x, step } = await records.put(ctx, r);
          if (r.state().kind !== 'present')
            skip.nothingToJudge(
              ctx,
              `PUT ${r.key} (the write that ${round} it) answered ${x.response.status}: request bodies of spec 4.3 are not shown`,
            );
          await settle(step);
        }
        for (const op of group.creates) {
          const made = await records.create(ctx, group, op, parent);
          if (!made.made) continue;
          await settle(made.step);
          await settle((await records.put(ctx, made.made)).step);
        }
      },
    ),
  );

// The operation ids the tests above are about, so the certificate counts them (a typo fails here, not in a report).
void operationById;
