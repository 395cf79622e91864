/**
 * The simple shapes of the section 4.3 record rules, on fresh records: what record-upsert, record-delete and
 * record-isolation run as their own tests (suites/records/), and what the world-model explorer runs as a control
 * before it blames a divergence on a sequence (suites/lib/world/controls.ts). Each answers the first divergence it met,
 * or why it could judge nothing (the server refused the run's body: spec 4.3 shows none), never reporting itself.
 */
import type { CheckContext } from '../check-context.ts';
import type { Exchange } from '../../../core/exchange.ts';
import type { CatalogueRecord } from './catalogue-record.ts';
import { type RecordGroup, recordGroup, recordGroups } from '../../../specs/record-groups.ts';
import { deleteOffer, offerBody, offerIn, putOffer } from './offer-writes.ts';
import { type BodyId, caseTwin, recordId, Records } from './records.ts';
import { Step } from './step.ts';
import { type Divergence, World } from './world.ts';

export type ShapeResult = { divergence: Divergence } | { nothingToJudge: string } | { agreed: true };

/** Groups the run can see a record of: by id or in a list (the others are written, never read). */
export function hasViews(group: RecordGroup): boolean {
  return group.get !== undefined || group.collection !== undefined;
}

/** A world of records, compared after each write: the first divergence ends the shape. */
class Shape {
  readonly world = new World();
  readonly records: Records;

  constructor(readonly ctx: CheckContext) {
    this.records = new Records(this.world, ctx.runId);
  }

  async settle(step: Step): Promise<Divergence | undefined> {
    return this.world.firstDivergence(this.ctx, step);
  }

  /** The values of the group's parent parameters, its parent record written (fresh ids for the others). */
  async parents(group: RecordGroup): Promise<{ values: Record<string, string> } | ShapeResult> {
    const values: Record<string, string> = {};
    for (const name of group.params.slice(0, -1)) values[name] = recordId(this.ctx, 'parent');
    if (!group.parent) return { values };
    const pg = recordGroup(group.parent);
    const parent = this.records.record(pg.template, Object.fromEntries(pg.params.map((p) => [p, values[p] ?? ''])));
    const { x, step } = await this.records.put(this.ctx, parent);
    if (parent.state().kind !== 'present')
      return {
        nothingToJudge: `PUT ${parent.key} answered ${x.response.status}: no parent to hang a record of ${group.template} from (request bodies of spec 4.3 are not shown)`,
      };
    const d = await this.settle(step);
    return d ? { divergence: d } : { values };
  }

  fresh(group: RecordGroup, values: Record<string, string>): CatalogueRecord {
    return this.records.record(group.template, { ...values, [group.params.at(-1) ?? '']: recordId(this.ctx) });
  }
}

function isResult(v: { values: Record<string, string> } | ShapeResult): v is ShapeResult {
  return !('values' in v);
}

/**
 * record-upsert: a PUT to a fresh id makes the record show in every view that has it, a second PUT shows in place of
 * the first where a view shows what was written, and a record a POST (or bulk) made under an id the run can find is
 * updated by a PUT to that id.
 */
export async function upsertShape(ctx: CheckContext, group: RecordGroup): Promise<ShapeResult> {
  const s = new Shape(ctx);
  const parents = await s.parents(group);
  if (isResult(parents)) return parents;
  const r = s.fresh(group, parents.values);
  for (const round of ['creates', 'updates']) {
    const { x, step } = await s.records.put(ctx, r);
    if (r.state().kind !== 'present')
      return {
        nothingToJudge: `PUT ${r.key} (the write that ${round} it) answered ${x.response.status}: request bodies of spec 4.3 are not shown`,
      };
    const d = await s.settle(step);
    if (d) return { divergence: d };
  }
  for (const op of group.creates) {
    const made = await s.records.create(ctx, group, op, parents.values);
    if (!made.made) continue;
    const d = (await s.settle(made.step)) ?? (await s.settle((await s.records.put(ctx, made.made)).step));
    if (d) return { divergence: d };
  }
  return { agreed: true };
}

/** Answers that say a path is not there at all: a refusal of another kind (403, 409, …) is not judged. */
const NOT_THERE = new Set([404, 405, 410]);

/**
 * A DELETE of a record the run has just seen in every view, answered as if nothing were there: the catalogued DELETE
 * (spec 4.3) does not reach the record its path names, which spec 1 says a client deletes.
 */
function deleteNotServed(key: string, x: Exchange): Divergence {
  return {
    owner: 'record-delete',
    clause: 'spec 1',
    message: `DELETE ${key} answered ${x.response.status}, though the PUT before it showed the record in every view: the DELETE of spec 4.3 does not reach the record its path names`,
    exchanges: [x],
  };
}

/**
 * record-delete: a PUT, a DELETE that leaves the record gone, and a PUT that makes it again; a record a POST (or bulk)
 * made under an id the run can find is removed by a DELETE of its path too.
 */
export async function deleteShape(ctx: CheckContext, group: RecordGroup): Promise<ShapeResult> {
  const s = new Shape(ctx);
  const parents = await s.parents(group);
  if (isResult(parents)) return parents;
  const r = s.fresh(group, parents.values);
  const steps = [
    { what: 'PUT', run: () => s.records.put(ctx, r), held: 'present' },
    { what: 'DELETE', run: () => s.records.delete(ctx, r), held: 'gone' },
    { what: 'PUT after its DELETE', run: () => s.records.put(ctx, r), held: 'present' },
  ] as const;
  for (const { what, run, held } of steps) {
    const { x, step } = await run();
    if (what === 'DELETE' && NOT_THERE.has(x.response.status)) return { divergence: deleteNotServed(r.key, x) };
    if (r.state().kind !== held)
      return { nothingToJudge: `${what} ${r.key} answered ${x.response.status}: a refusal says nothing of the rule` };
    const d = await s.settle(step);
    if (d) return { divergence: d };
  }
  // A record made one way is removed the other way: one a POST to the collection made, deleted by its path.
  for (const op of group.creates) {
    const made = await s.records.create(ctx, group, op, parents.values);
    if (!made.made) continue;
    const d = (await s.settle(made.step)) ?? (await s.settle((await s.records.delete(ctx, made.made)).step));
    if (d) return { divergence: d };
  }
  return { agreed: true };
}

/** Groups whose path parameters the run can fill itself (a carrier booking's are the deployment's). */
function writable(group: RecordGroup): boolean {
  return !group.template.startsWith('/carrierBookings/');
}

/** The records at one id X and its case twin under every group; a child's parent ids are X as well. */
function neighbourhood(s: Shape, x: string): CatalogueRecord[] {
  const all: CatalogueRecord[] = [];
  for (const group of recordGroups().filter(writable))
    for (const own of [x, caseTwin(x)])
      all.push(
        s.records.record(
          group.template,
          Object.fromEntries(group.params.map((p, i) => [p, i === group.params.length - 1 ? own : x])),
        ),
      );
  return all;
}

interface Phase {
  name: string;
  writes(s: Shape, all: readonly CatalogueRecord[], x: string): AsyncGenerator<Step>;
}

async function* putAll(s: Shape, records: readonly CatalogueRecord[], bodyId: BodyId): AsyncGenerator<Step> {
  for (const r of records) yield (await s.records.put(s.ctx, r, bodyId)).step;
}

/** The offers at X and its twin (spec 4.1: /offers/X is another resource group's record of the same id). */
async function* putOffers(s: Shape, x: string, quantity: number): AsyncGenerator<Step> {
  for (const id of [x, caseTwin(x)])
    yield (await putOffer(s.ctx, offerIn(s.world, id), offerBody(s.ctx, quantity, false))).step;
}

/** The deletable records whose own id is X (not its twin) that `which` picks, children before their parents. */
async function* deleteOneCase(
  s: Shape,
  all: readonly CatalogueRecord[],
  x: string,
  which: (r: CatalogueRecord) => boolean,
): AsyncGenerator<Step> {
  const mine = all.filter((r) => r.group.del && r.id === x && r.state().kind === 'present' && which(r));
  for (const r of mine.reverse()) yield (await s.records.delete(s.ctx, r)).step;
}

/**
 * Created parents first (a child needs its parent), updated children first (a parent's update must leave them), the
 * children of one case deleted, then the other records of that case (a child's DELETE must leave its parent; a parent's
 * DELETE frees its children: not shown what becomes of them), and the deleted records made again.
 */
const PHASES: readonly Phase[] = [
  {
    name: 'every record created',
    async *writes(s, all, x) {
      yield* putAll(s, all, 'none');
      yield* putOffers(s, x, 1);
    },
  },
  {
    name: 'every record updated',
    async *writes(s, all, x) {
      yield* putOffers(s, x, 2);
      yield* putAll(s, [...all].reverse(), 'path');
    },
  },
  {
    name: 'the children of one case deleted',
    async *writes(s, all, x) {
      const offer = offerIn(s.world, x);
      if (offer.isLive()) yield (await deleteOffer(s.ctx, offer)).step;
      yield* deleteOneCase(s, all, x, (r) => r.group.parent !== undefined);
    },
  },
  {
    name: 'the other records of one case deleted',
    writes: (s, all, x) => deleteOneCase(s, all, x, (r) => r.group.parent === undefined),
  },
  {
    name: 'the deleted records made again',
    writes: (s, all) =>
      putAll(
        s,
        all.filter((r) => r.state().kind !== 'present'),
        'path',
      ),
  },
];

/**
 * record-isolation: one neighbourhood of records a careless server could take for one another, written in phases,
 * each compared once at its end; a divergence is then looked at closer, on fresh ids: the phases before it compared
 * once again, the phase that diverged after every write, so it is reported after the write that made it by the owner of
 * that write's rule.
 */
export async function isolationShape(ctx: CheckContext): Promise<ShapeResult> {
  const first = await isolationPass(ctx, PHASES.length);
  if (!('divergence' in first)) return first;
  const closer = await isolationPass(ctx, first.phase);
  return 'divergence' in closer ? closer : first;
}

/** The phases, each compared at its end, but phase `closely` (by index) compared after every write. */
async function isolationPass(
  ctx: CheckContext,
  closely: number,
): Promise<
  (ShapeResult & { divergence: Divergence; phase: number }) | Exclude<ShapeResult, { divergence: Divergence }>
> {
  const s = new Shape(ctx);
  const x = recordId(ctx, 'iso');
  const all = neighbourhood(s, x);
  for (const [i, phase] of PHASES.entries()) {
    for await (const step of phase.writes(s, all, x)) {
      if (i !== closely) continue;
      const d = await s.settle(step);
      if (d) return { divergence: d, phase: i };
    }
    const d = await s.settle(
      Step.write(phase.name, [...all.map((r) => r.key), `/offers/${x}`, `/offers/${caseTwin(x)}`]),
    );
    if (d) return { divergence: d, phase: i };
    if (i === closely) break;
  }
  return { agreed: true };
}
