/**
 * world-model: random sequences across every operation the model follows (fast-check's `fc.commands` and
 * `fc.asyncModelRun`: QuickCheck's state-machine testing) agree with the model of the spec's state after every step.
 * The commands write and read section 4.3 records of every group (PUT, DELETE, POST), offers, and every view, with ids
 * drawn from three slots so they meet as neighbours (suites/model/explore/). After each command every view of every
 * record the run holds is compared with the model both ways (suites/lib/world/). A failure shrinks to the shortest
 * sequence that still diverges, and prints its `--seed` and `--path`. Last, the audit re-reads every record the long
 * histories left, in every view, at least one visibility deadline after their last write.
 *
 * One fault, one failure: the owner of the broken rule reports it. When a sequence diverges, the shapes the owners run
 * as their own tests are run as controls (suites/lib/world/controls.ts): a control that meets the fault means its
 * check fails on it too, and this check is blocked by it; when none does, only a sequence shows the fault, and this
 * check reports it.
 */
import { setTimeout as delay } from 'node:timers/promises';
import fc from 'fast-check';
import {
  CheckFailure,
  checkProperty,
  checkTest,
  type CheckContext,
  target,
  test,
  concurrency,
  settleBounded,
} from '../lib/index.ts';
import {
  caseTwin,
  recordId,
  Records,
  reporterOf,
  requireWorldModel,
  Step,
  World,
  type Divergence,
} from '../lib/world/index.ts';
import { type RecordGroup, recordGroup } from '../../specs/record-groups.ts';
import { commandArbs, EXPLORED_GROUPS, groupsArb } from './explore/commands.ts';
import { HistoryCommand, type HistoryOp } from './explore/history.ts';
import { safeReadsControl } from './safe-reads-control.ts';
import { durableStateControl } from './durable-control.ts';
import type { ExploreCommand, Explored, Real } from './explore/model.ts';

const BASE_COMMANDS = 10;

/** The owners whose clauses this check may cite when it reports a divergence only a sequence shows. */
type ModelClause = Parameters<CheckContext['check']['fail']>[2];

/** Fails the sequence (or the audit) on `d`, kept in `seen` for the owner's control (judgeFailure). */
function failOn(ctx: CheckContext, d: Divergence, seen: { last?: Divergence }): never {
  seen.last = d;
  return ctx.check.fail(
    d.message,
    { exchanges: d.exchanges, ...(d.pointer !== undefined ? { pointer: d.pointer } : {}) },
    d.clause as ModelClause,
  );
}

function realFor(ctx: CheckContext, groups: readonly RecordGroup[], seen: { last?: Divergence }): Real {
  const world = new World();
  const x = recordId(ctx, 'wm');
  return {
    ctx,
    world,
    records: new Records(world, ctx.runId),
    ids: [x, caseTwin(x), recordId(ctx, 'wm')],
    groups,
    async settle(step: Step) {
      const d = await world.firstDivergence(ctx, step);
      if (d) failOn(ctx, d, seen);
    },
  };
}

function initial(): Explored {
  return { present: [], offers: ['none', 'none', 'none'], written: 0 };
}

/** Every group the explorer writes that has a DELETE. */
const DELETABLE = EXPLORED_GROUPS.filter((g) => g.del !== undefined);
const DELETABLE_TEMPLATES = DELETABLE.map((g) => g.template);

/** Made, updated (with and without the path's id), deleted, made again, updated, deleted again, made again. */
const LONG_HISTORY: readonly HistoryOp[] = ['put', 'put-with-id', 'delete', 'put', 'put-with-id', 'delete', 'put'];

/**
 * The families of groups whose records can meet: a parent and its children, and the groups that name the same records
 * (the deprecated /fuel/deliveryRequests and its three kinds). In the order given, each family in the order of its
 * first group.
 */
function families(templates: readonly string[]): string[][] {
  const groups = templates.map(recordGroup);
  const related = (a: RecordGroup, b: RecordGroup): boolean =>
    a.parent === b.template || b.parent === a.template || a.sameRecordsAs.includes(b.template);
  const out: string[][] = [];
  for (const g of groups) {
    const family = out.find((f) => f.some((t) => related(g, recordGroup(t))));
    if (family) family.push(g.template);
    else out.push([g.template]);
  }
  return out;
}

/**
 * The long histories, a family at a time (its groups one after the other, parents first, in one world: a child's
 * write that changes its parent shows), the families side by side on ids of their own, so none waits on another's
 * writes. Effects across unrelated groups are the random sequences' and record-isolation's. The failure reported is
 * that of the first family in order, whichever failed first, so a replay judges the same.
 */
async function playHistories(
  ctx: CheckContext,
  templates: readonly string[],
  seen: { last?: Divergence },
  /** Filled with the families' worlds, for the audit. */
  worlds: World[],
): Promise<void> {
  const all = families(templates);
  const seenBy = all.map((): { last?: Divergence } => ({}));
  worlds.length = 0;
  const { failures } = await settleBounded(
    all,
    (family, i) =>
      fc.asyncModelRun(
        () => {
          const real = realFor(ctx, family.map(recordGroup), seenBy[i] ?? {});
          worlds.push(real.world);
          return { model: initial(), real };
        },
        family.map((_, pick) => new HistoryCommand(pick, 0, LONG_HISTORY)),
      ),
    concurrency(),
  );
  const first = [...failures].sort((a, b) => a.index - b.index)[0];
  if (!first) return;
  const d = seenBy[first.index]?.last;
  if (d) seen.last = d;
  throw first.error;
}

/**
 * The audit: every record the long histories left (present, deleted, made again), in every view, at least one
 * visibility deadline after their last write, with no write to them since (the random sequences ran meanwhile, on ids
 * of their own). A record that changed with time alone is durable-state's rule (spec 1: what was written stays until
 * it is written again); the first world in order with a divergence is reported.
 */
async function audit(
  ctx: CheckContext,
  worlds: readonly World[],
  lastWriteAt: number,
  seen: { last?: Divergence },
): Promise<void> {
  const due = lastWriteAt + target().visibilityTimeoutMs - Date.now();
  if (due > 0) await delay(due);
  const step = Step.audit(`the audit, ${Date.now() - lastWriteAt} ms after the long histories' last write`);
  const found = await Promise.all(worlds.map((w) => w.firstDivergence(ctx, step)));
  const d = found.find((f) => f !== undefined);
  if (d) failOn(ctx, d, seen);
}

/**
 * After the property failed on its shortest sequence, or the audit: the owner's control decides who reports it.
 * Blocked by the owner whose own test meets the fault; else this check's own failure.
 */
async function judgeFailure(ctx: CheckContext, failure: CheckFailure, d: Divergence | undefined): Promise<never> {
  if (!d) throw failure;
  const who = await reporterOf(ctx, d, 'world-model', {
    'safe-reads': safeReadsControl,
    'durable-state': durableStateControl,
  });
  if (who !== 'world-model') ctx.check.blocked(who, d.exchanges.at(-1), d.message);
  throw failure;
}

test(
  ...checkTest(
    {
      check: 'world-model',
      title: 'random sequences across every operation agree with the model of the spec after every step',
      writes: true,
    },
    async (ctx) => {
      requireWorldModel(ctx);
      const explore = target().explore;
      const seen: { last?: Divergence } = {};
      const historyWorlds: World[] = [];
      const play = async (templates: readonly string[], cmds: Iterable<ExploreCommand>): Promise<void> => {
        const groups = templates.map(recordGroup);
        await fc.asyncModelRun(() => ({ model: initial(), real: realFor(ctx, groups, seen) }), cmds);
      };
      try {
        // First, one long history of a record of every group with a DELETE: a property of its own, so it reports
        // its seed and path like the random sequences after it.
        await checkProperty(
          ctx,
          [fc.constant(DELETABLE_TEMPLATES)],
          (templates) => playHistories(ctx, templates, seen, historyWorlds),
          {
            numRuns: 1,
            waitsPerRun: Math.max(...families(DELETABLE_TEMPLATES).map((f) => f.length)) * LONG_HISTORY.length,
          },
        );
        const historiesEnd = Date.now();
        const commands = fc.commands(commandArbs(), { maxCommands: BASE_COMMANDS * explore, size: 'max' });
        await checkProperty(ctx, [groupsArb(), commands], play, {
          numRuns: Math.max(1, Math.ceil(target().runs / 2)) * explore,
          waitsPerRun: BASE_COMMANDS * explore,
          independentRuns: true,
        });
        await audit(ctx, historyWorlds, historiesEnd, seen);
      } catch (error) {
        if (error instanceof CheckFailure) await judgeFailure(ctx, error, seen.last);
        throw error;
      }
    },
  ),
);
