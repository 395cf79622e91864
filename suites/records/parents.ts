/**
 * The records a record of section 4.3 hangs from. A group whose parent is a record group of its own (a booking for its
 * events) gets its parent written first, by PUT, so that its path names records that are there; a path parameter
 * that no group writes (a fuel location's id) is a fresh run-tagged id.
 */
import { type CheckContext, skip } from '../lib/index.ts';
import type { CatalogueRecord } from '../lib/world/catalogue-record.ts';
import { type RecordGroup, recordGroup } from '../lib/world/record-groups.ts';
import { recordId, type Records } from '../lib/world/records.ts';

/** The values of the group's parent parameters, with every parent record written (and settled in the world). */
export async function parentValues(
  ctx: CheckContext,
  records: Records,
  group: RecordGroup,
  settle: (step: Parameters<CatalogueRecord['diverges']>[1]) => Promise<void>,
): Promise<Record<string, string>> {
  const values: Record<string, string> = {};
  for (const name of group.params.slice(0, -1)) values[name] = recordId(ctx, 'parent');
  if (!group.parent) return values;
  const parentGroup = recordGroup(group.parent);
  const parent = records.record(
    parentGroup.template,
    Object.fromEntries(parentGroup.params.map((p) => [p, values[p] ?? ''])),
  );
  const { x, step } = await records.put(ctx, parent);
  if (parent.state().kind !== 'present')
    skip.nothingToJudge(
      ctx,
      `PUT ${parent.key} answered ${x.response.status}: no parent to hang a record of ${group.template} from (request bodies of spec 4.3 are not shown)`,
    );
  await settle(step);
  return values;
}

/** Groups the run can see a record of: by id or in a list (the others are written, never read: not shown). */
export function hasViews(group: RecordGroup): boolean {
  return group.get !== undefined || group.collection !== undefined;
}
