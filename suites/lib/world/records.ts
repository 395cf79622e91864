/**
 * The section 4.3 records of one test's world, and the writes that keep the model in step with them: a PUT that
 * answered 2xx holds the record present with its marker, a DELETE that answered 2xx holds it gone (and frees its
 * children: what a parent's DELETE does to them is not shown), a POST that created a record the run can address adds
 * it. A write answered otherwise frees the record (spec 4.3 shows no request bodies, so a server may refuse ours).
 * Every record a write may have made is undone when the test ends (ctx.cleanup).
 */
import type { Operation } from '../../../specs/contract.ts';
import type { CheckContext } from '../check-test.ts';
import { type Exchange, is2xx } from '../exchange.ts';
import { freshId } from '../fresh-id.ts';
import { pollVisible } from '../visibility-deadline.ts';
import { setTimeout as delay } from 'node:timers/promises';
import { CatalogueRecord, recordKey, type TimeControl } from './catalogue-record.ts';
import { RecordBook } from './record-book.ts';
import { type RecordGroup, recordGroup } from './record-groups.ts';
import { Step } from './step.ts';
import { World } from './world.ts';

type Json = Record<string, unknown>;

/** How a write body carries the record's id: not at all (the path says it), or as the path has it. */
export type BodyId = 'none' | 'path';

/**
 * What the run writes to a section 4.3 record: request bodies are not shown, so an object that says where it came
 * from, with the write's marker in three string fields a server is likely to keep (any one that it echoes will do).
 */
export function markedBody(runId: string, marker: string, id?: string): Json {
  return {
    ...(id !== undefined ? { id } : {}),
    reference: marker,
    externalId: marker,
    note: `written by flis-conformance run ${runId}`,
  };
}

/** An id for a record, ending in letters so that a twin differing only by case exists (`caseTwin`). */
export function recordId(ctx: CheckContext, kind = 'rec'): string {
  return `${freshId(kind, ctx.runId)}-ab`;
}

/** The same id with the letters of its last part in the other case: another string, so another record (spec 2). */
export function caseTwin(id: string): string {
  return id.replace(/-([a-zA-Z]+)$/, (_, s: string) => `-${[...s].map(swapCase).join('')}`);
}

function swapCase(c: string): string {
  return c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
}

export class Records {
  readonly book: RecordBook;
  private readonly byKey = new Map<string, CatalogueRecord>();
  private readonly undone = new Set<string>();

  constructor(
    private readonly world: World,
    runId: string,
  ) {
    this.book = new RecordBook(runId);
  }

  /** The record of `template` at `values`, added to the world the first time it is asked for. */
  record(template: string, values: Readonly<Record<string, string>>): CatalogueRecord {
    const group = recordGroup(template);
    const key = recordKey(template, values);
    let r = this.byKey.get(key);
    if (!r) {
      r = new CatalogueRecord(group, values, this.book, timeControl);
      this.byKey.set(key, r);
      this.world.add(key, r);
    }
    return r;
  }

  all(): CatalogueRecord[] {
    return [...this.byKey.values()];
  }

  /** PUT a fresh marker to the record; answers the exchange and the step that names it. */
  async put(ctx: CheckContext, r: CatalogueRecord, bodyId: BodyId = 'none'): Promise<{ x: Exchange; step: Step }> {
    const marker = this.book.mark(r.key);
    const x = await ctx.api.op(r.group.put, {
      params: { ...r.values },
      json: markedBody(ctx.runId, marker, bodyId === 'path' ? r.id : undefined),
    });
    this.undoLater(ctx, r);
    if (is2xx(x)) r.wrote(marker);
    else r.free(`PUT answered ${x.response.status}`);
    for (const same of this.sameAs(r)) same.free(`${r.key} was written, which spec 9 rule 3 names the same records`);
    return { x, step: Step.write(`PUT ${r.key}`, this.namedBy(r)) };
  }

  /** DELETE the record: it is gone once this answers 2xx, and its children are free (not shown what becomes of them). */
  async delete(ctx: CheckContext, r: CatalogueRecord): Promise<{ x: Exchange; step: Step }> {
    const del = r.group.del;
    if (!del) throw new Error(`${r.group.template} has no DELETE in the contract`);
    const before = await r.snapshot(ctx, Step.read(`GET ${r.key}`));
    // A record whose write this test could not see show (a list that is paged and no GET by id) may not have shown
    // yet: a 404 is asked again until the deadline (spec 1: a write may take its time).
    const x = (
      await pollVisible(
        () => ctx.api.op(del, { params: { ...r.values } }),
        (d) => d.response.status !== 404 || r.state().kind !== 'present',
      )
    ).value;
    if (is2xx(x)) r.deleted(before);
    else r.free(`DELETE answered ${x.response.status}`);
    for (const same of this.sameAs(r)) same.free(`${r.key} was deleted, which spec 9 rule 3 names the same records`);
    for (const child of this.childrenOf(r)) child.free(`its parent ${r.key} was deleted`);
    return { x, step: Step.write(`DELETE ${r.key}`, [r.key, ...this.childrenOf(r).map((c) => c.key)]) };
  }

  /**
   * A record made by a POST to its collection (or its bulk), addressed by the id the body gave it or the id the answer
   * names (which the server chooses is not shown). Answers the record the run could find, if any, polled to the
   * visibility deadline by the caller's settle.
   */
  async create(
    ctx: CheckContext,
    group: RecordGroup,
    op: Operation,
    parent: Readonly<Record<string, string>> = {},
  ): Promise<{ x: Exchange; made?: CatalogueRecord; step: Step }> {
    const id = recordId(ctx, 'made');
    const marker = this.book.mark(recordKey(group.template, { ...parent, [group.params.at(-1) ?? 'id']: id }));
    const body = markedBody(ctx.runId, marker, id);
    const x = await ctx.api.op(op, { params: { ...parent }, json: op.path.endsWith('/bulk') ? [body] : body });
    const ids = new Set([id, ...answeredIds(x.response.body)]);
    const candidates = [...ids].map((i) =>
      this.record(group.template, { ...parent, [group.params.at(-1) ?? 'id']: i }),
    );
    for (const c of candidates) this.undoLater(ctx, c);
    const made = is2xx(x) ? await this.locate(ctx, candidates) : undefined;
    if (made) {
      made.wrote(marker);
      this.book.reassign(marker, made.key);
    }
    const step = Step.write(`${op.method.toUpperCase()} ${recordKey(op.path, parent)}`, made ? [made.key] : []);
    return { x, ...(made ? { made } : {}), step };
  }

  /** The first candidate whose GET by id answers 2xx by the visibility deadline (the others stay free). */
  private async locate(
    ctx: CheckContext,
    candidates: readonly CatalogueRecord[],
  ): Promise<CatalogueRecord | undefined> {
    const get = candidates[0]?.group.get;
    if (!get) return undefined;
    const found = await pollVisible(
      async () => {
        for (const c of candidates) if (is2xx(await ctx.api.op(get, { params: { ...c.values } }))) return c;
        return undefined;
      },
      (c) => c !== undefined,
    );
    return found.value;
  }

  /** What a write to `r` names: itself, the records that may be the same ones under another path (spec 9 rule 3). */
  private namedBy(r: CatalogueRecord): string[] {
    return [r.key, ...r.group.sameRecordsAs.map((t) => recordKey(t, r.values))];
  }

  /** The records of the world that may be `r` under another path (spec 9 rule 3). */
  private sameAs(r: CatalogueRecord): CatalogueRecord[] {
    const keys = new Set(r.group.sameRecordsAs.map((t) => recordKey(t, r.values)));
    return this.all().filter((o) => keys.has(o.key));
  }

  private childrenOf(r: CatalogueRecord): CatalogueRecord[] {
    return this.all().filter((c) => c !== r && c.key.startsWith(`${r.key}/`));
  }

  private undoLater(ctx: CheckContext, r: CatalogueRecord): void {
    const del = r.group.del;
    if (!del || this.undone.has(r.key)) return;
    this.undone.add(r.key);
    ctx.cleanup.add(`DELETE ${r.key}`, () => ctx.api.op(del, { params: { ...r.values } }));
  }
}

/** The ids an answer of a create names: its `id`, or the `id` of each element (bodies of 4.3 are not shown). */
function answeredIds(body: unknown): string[] {
  const items = Array.isArray(body) ? body : [body];
  return items.flatMap((v) =>
    typeof v === 'object' && v !== null && typeof (v as Json).id === 'string' ? [(v as Json).id as string] : [],
  );
}

/**
 * The time control of a record (catalogue-record.ts `TimeControl`): the record's write replayed on a fresh id of its
 * group under the same parent (a PUT, and its DELETE for a record the model holds deleted), shown, left for `leftMs`
 * with no write to it, and compared once more. True when it then diverges too.
 */
const timeControl: TimeControl = async (ctx, original, leftMs) => {
  const world = new World();
  const records = new Records(world, ctx.runId);
  const g = original.group;
  const r = records.record(g.template, { ...original.values, [g.params.at(-1) ?? 'id']: recordId(ctx, 'time') });
  const put = await records.put(ctx, r);
  if (r.state().kind !== 'present' || (await r.diverges(ctx, put.step))) return false;
  if (original.state().kind === 'gone') {
    const del = await records.delete(ctx, r);
    if (r.state().kind !== 'gone' || (await r.diverges(ctx, del.step))) return false;
  }
  await delay(leftMs);
  return (await r.diverges(ctx, Step.audit(`${leftMs} ms with no write`))) !== undefined;
};
