/**
 * record-isolation (spec 1, spec 4.3): a write changes the record its path names and no other. Distinct paths are
 * distinct records (spec 2: identifiers are strings), so the run writes one neighbourhood of records that a careless
 * server could take for one another, and after each phase every view of every record must show its own latest write:
 * - the same id under every record group of section 4.3 (a server that keys every group's records by id alone);
 * - ids that differ only by letter case (a server that folds case);
 * - a child under a parent with the same id, and the parent itself (a child is not its parent, nor the parent its
 *   child: `/orders/X/attachment/X` is not `/orders/X`);
 * - records whose bodies carry no id, and later the id of their path (a server that keys records by a body field
 *   whose default they share);
 * - write-only records (corporate planning, storage measurements), whose writes must not reach the records beside them.
 * Phases: every record created, every record updated (children first: a parent's update must leave them), the
 * deletable records of one case deleted (children first: what a parent's DELETE does to its children is not shown),
 * then made again. A phase is compared once at its end; a divergence is then looked at closer, write by write on fresh
 * ids, and reported after the write that made it, by the owner of that write's rule (record-upsert, record-delete for
 * the record a write names; this check for any other): suites/lib/world/record-shapes.ts, `isolationShape`.
 */
import { checkTest, test } from '../lib/index.ts';
import { isolationShape, reportShape, requireWorldModel } from '../lib/world/index.ts';

test(
  ...checkTest(
    {
      check: 'record-isolation',
      title:
        'a write changes only the record its path names: the same id in every group, ids that differ by case, parents and children',
      writes: true,
    },
    async (ctx) => {
      requireWorldModel(ctx);
      await reportShape(ctx, await isolationShape(ctx));
    },
  ),
);
