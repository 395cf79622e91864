/**
 * Section 4.3 records as twins for safe reads (suites/model/twin-trial.ts): two records of one record group
 * (specs/record-groups.ts), PUT at fresh ids under the same parent with the same body but the marker each
 * write carries (suites/lib/world/records.ts `markedBody`), compared in the views the contract gives the group: its GET
 * by id and its collection's list. Bodies are not shown (spec 4.3), so the whole record as a view shows it is
 * compared, with the record's own id and marker written as `<id>` and `<marker>`. A list that may be cut (a sign of
 * paging, or as long as a page may be: suites/lib/world/record-views.ts) says nothing by leaving a record out.
 */
import { type CheckContext, type Exchange, freshId, is2xx, recordsOf } from '../lib/index.ts';
import { type RecordGroup, recordKey } from '../../specs/record-groups.ts';
import { elementFor, markedBody, pagingSign, recordId, WHOLE_LIST_BELOW } from '../lib/world/index.ts';
import type { Json, Twins, View, Written } from './twin-trial.ts';

export interface WrittenRecord extends Written {
  group: RecordGroup;
  values: Record<string, string>;
  id: string;
  marker: string;
}

/** Every string of `value` with the record's id and marker written as placeholders, so two twins compare alike. */
function normalised(value: unknown, r: WrittenRecord): unknown {
  if (typeof value === 'string') return value.replaceAll(r.marker, '<marker>').replaceAll(r.id, '<id>');
  if (Array.isArray(value)) return value.map((v) => normalised(v, r));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalised(v, r)]));
  return value;
}

function asJson(v: unknown): Json | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : undefined;
}

function byIdView(group: RecordGroup): View<WrittenRecord> | undefined {
  const get = group.get;
  if (!get) return undefined;
  return {
    name: `GET ${group.template}`,
    read: (ctx, r) => ctx.api.op(get, { params: { ...r.values } }),
    shown: (x, r) =>
      is2xx(x) ? (asJson(normalised(x.response.body, r)) ?? { body: normalised(x.response.body, r) }) : undefined,
  };
}

/** A list shows all of its parent's records only when nothing says it was cut. */
function mayBeCut(x: Exchange): boolean {
  return pagingSign(x) !== undefined || recordsOf(x.response.body).length >= WHOLE_LIST_BELOW;
}

function collectionView(group: RecordGroup): View<WrittenRecord> | undefined {
  const coll = group.collection;
  if (!coll) return undefined;
  return {
    name: `GET ${coll.path}`,
    read: (ctx, r) =>
      ctx.api.op(coll, { params: Object.fromEntries(coll.pathParams.map((p) => [p, r.values[p] ?? ''])) }),
    shown: (x, r) => {
      if (!is2xx(x)) return undefined;
      const element = elementFor(recordsOf(x.response.body), r.id, [r.marker]);
      return element ? (normalised(element, r) as Json) : undefined;
    },
    mayLeaveOut: mayBeCut,
  };
}

/** The parent records a record of `group` hangs from, each PUT once (a booking for its events); its parameter values. */
export async function writeParents(
  ctx: CheckContext,
  group: RecordGroup,
  parentOf: (template: string) => RecordGroup | undefined,
): Promise<Record<string, string> | undefined> {
  const values: Record<string, string> = {};
  for (const name of group.params.slice(0, -1)) values[name] = recordId(ctx, 'parent');
  const parent = group.parent ? parentOf(group.parent) : undefined;
  if (!parent) return values;
  const parentValues = Object.fromEntries(parent.params.map((p) => [p, values[p] ?? '']));
  const x = await ctx.api.op(parent.put, {
    params: parentValues,
    json: markedBody(ctx.runId, freshId('mark', ctx.runId)),
  });
  if (!is2xx(x)) return undefined;
  const del = parent.del;
  if (del)
    ctx.cleanup.add(`DELETE ${recordKey(parent.template, parentValues)}`, () =>
      ctx.api.op(del, { params: parentValues }),
    );
  return values;
}

/** PUT a marked record at a fresh id under `parent`; registered for cleanup. Undefined when the PUT is refused. */
async function putRecord(
  ctx: CheckContext,
  group: RecordGroup,
  parent: Record<string, string>,
): Promise<WrittenRecord | undefined> {
  const id = recordId(ctx, 'twin');
  const values = { ...parent, [group.params.at(-1) ?? 'id']: id };
  const marker = freshId('mark', ctx.runId);
  const sentAt = Date.now();
  const x = await ctx.api.op(group.put, { params: values, json: markedBody(ctx.runId, marker) });
  const answeredAt = Date.now();
  const del = group.del;
  if (del) ctx.cleanup.add(`DELETE ${recordKey(group.template, values)}`, () => ctx.api.op(del, { params: values }));
  if (!is2xx(x)) return undefined;
  return { group, values, id, marker, label: recordKey(group.template, values), sentAt, answeredAt };
}

/** A write the server refused: the trial has nothing to judge (request bodies of spec 4.3 are not shown). */
export class RecordRefused extends Error {}

export function recordTwins(group: RecordGroup, parent: Record<string, string>): Twins<WrittenRecord> | undefined {
  const views = [byIdView(group), collectionView(group)].filter((v): v is View<WrittenRecord> => v !== undefined);
  if (views.length === 0) return undefined;
  return {
    what: `record of ${group.template}`,
    views,
    write: async (ctx) => {
      const r = await putRecord(ctx, group, parent);
      if (!r) throw new RecordRefused(`PUT ${group.template} was refused`);
      return r;
    },
    written: () => true,
  };
}
