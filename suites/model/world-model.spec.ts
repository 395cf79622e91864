/**
 * world-model: random sequences across every operation the model follows (fast-check's `fc.commands` and
 * `fc.asyncModelRun`: QuickCheck's state-machine testing) agree with the model of the spec's state after every step.
 * The commands write and read section 4.3 records of every group (PUT, DELETE, POST), offers, and every view, with ids
 * drawn from three slots so they meet as neighbours (suites/model/explore/). After each command every view of every
 * record the run holds is compared with the model both ways (suites/lib/world/). A failure shrinks to the shortest
 * sequence that still diverges, and prints its `--seed` and `--path`.
 *
 * One fault, one failure: the owner of the broken rule reports it. When a sequence diverges, the shapes the owners run
 * as their own tests are run as controls (suites/lib/world/controls.ts): a control that meets the fault means its
 * check fails on it too, and this check is blocked by it; when none does, only a sequence shows the fault, and this
 * check reports it.
 */
import fc from 'fast-check';
import { CheckFailure } from '../lib/check-failure.ts';
import { checkProperty, checkTest, type CheckContext, target, test } from '../lib/index.ts';
import { reporterOf } from '../lib/world/controls.ts';
import { type RecordGroup, recordGroup } from '../lib/world/record-groups.ts';
import { caseTwin, recordId, Records } from '../lib/world/records.ts';
import type { Step } from '../lib/world/step.ts';
import { type Divergence, requireWorldModel, World } from '../lib/world/world.ts';
import { commandArbs, EXPLORED_GROUPS, groupsArb } from './explore/commands.ts';
import { HistoryCommand, type HistoryOp } from './explore/history.ts';
import type { ExploreCommand, Explored, Real } from './explore/model.ts';

const BASE_COMMANDS = 10;

/** The owners whose clauses this check may cite when it reports a divergence only a sequence shows. */
type ModelClause = Parameters<CheckContext['check']['fail']>[2];

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
      if (!d) return;
      seen.last = d;
      ctx.check.fail(
        d.message,
        { exchanges: d.exchanges, ...(d.pointer !== undefined ? { pointer: d.pointer } : {}) },
        d.clause as ModelClause,
      );
    },
  };
}

/**
 * After the property failed on its shortest sequence: the owner's control decides who reports it. Blocked by the owner
 * whose own test meets the fault; else this check's own failure.
 */
function initial(): Explored {
  return { present: [], offers: ['none', 'none', 'none'], written: 0 };
}

/** Every group the explorer writes that has a DELETE. */
const DELETABLE = EXPLORED_GROUPS.filter((g) => g.del !== undefined);

/** Made, updated (with and without the path's id), deleted, made again, updated, deleted again, made again. */
const LONG_HISTORY: readonly HistoryOp[] = ['put', 'put-with-id', 'delete', 'put', 'put-with-id', 'delete', 'put'];

function longHistories(): ExploreCommand[] {
  return DELETABLE.map((_, i) => new HistoryCommand(i, 0, LONG_HISTORY));
}

async function judgeFailure(ctx: CheckContext, failure: CheckFailure, d: Divergence | undefined): Promise<never> {
  if (!d) throw failure;
  const who = await reporterOf(ctx, d, 'world-model');
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
      const play = async (templates: readonly string[], cmds: Iterable<ExploreCommand>): Promise<void> => {
        const groups = templates.map(recordGroup);
        await fc.asyncModelRun(() => ({ model: initial(), real: realFor(ctx, groups, seen) }), cmds);
      };
      try {
        // First, one long history of a record of every group with a DELETE: a property of its own, so it shrinks
        // and reports its seed and path like the random sequences after it.
        await checkProperty(ctx, [fc.constant(DELETABLE.map((g) => g.template)), fc.constant(longHistories())], play, {
          numRuns: 1,
          waitsPerRun: DELETABLE.length * LONG_HISTORY.length,
        });
        const commands = fc.commands(commandArbs(), { maxCommands: BASE_COMMANDS * explore, size: 'max' });
        await checkProperty(ctx, [groupsArb(), commands], play, {
          numRuns: Math.max(1, Math.ceil(target().runs / 2)) * explore,
          waitsPerRun: BASE_COMMANDS * explore,
          independentRuns: true,
        });
      } catch (error) {
        if (error instanceof CheckFailure) await judgeFailure(ctx, error, seen.last);
        throw error;
      }
    },
  ),
);
