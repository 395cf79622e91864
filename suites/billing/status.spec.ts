/**
 * Forced billing-group statuses (spec 3 rules 1–3, spec 4.2).
 * - billing-forced-status: PUT status forces the given status (the group then
 *   shows it); DELETE status removes the forced value (it no longer shows it).
 * - billing-bulk-status: bulkStatusUpdate forces each item's status or, with
 *   deleteStatus true, removes the forced one. Generated plans over two groups
 *   (force both, remove at least one, maybe one more call of any kind) are
 *   checked against a model: a forced group shows its status; a group whose
 *   forced status was removed no longer does.
 * - both, across the two paths (status-sequence.ts): billing-forced-status
 *   plays a status forced by bulk and removed by DELETE, and one replaced by
 *   a PUT; billing-bulk-status one forced by PUT and removed by a bulk item,
 *   one replaced by one, and a call that forces one group and removes the
 *   other. Each sequence runs on two groups (of one customer where there are
 *   such) and writes to ids that differ from theirs only by case: every write
 *   leaves the group it does not name as it was.
 * The two tests run one after the other (they may share groups on a small
 * deployment), and every status they force is restored. Runs that share a
 * deployment keep apart (shared-groups.ts): forced values name the run, a
 * group showing another run's value is passed over, and a flow another run
 * disturbs moves on or ends inconclusive, never failed.
 * After each write, both tests also settle a world model of their groups
 * (suites/lib/world/): the list, the GET by id, the details and the `state`
 * filter must agree with it; a divergence between views is view-consistency's,
 * which then blocks these checks.
 */
import fc from 'fast-check';
import type { BillingGroupStatusUpdateItem } from '../../schemas/types.generated.ts';
import { operationById } from '../../specs/contract.ts';
import { billingGroupStatusUpdateItemArb } from '../generators/billing-group-status-update-item.ts';
import {
  CheckFailure,
  type CheckContext,
  checkTest,
  test,
  skip,
  type Exchange,
  forcedTag,
  isForeignTag,
  target,
  checkProperty,
  caseTwinOf,
} from '../lib/index.ts';
import { BillingGroupRecord, ForeignStatus, World } from '../lib/world/index.ts';
import { listGroups, statusCandidates, type ListedGroup } from './groups.ts';
import {
  pairOfGroups,
  RULE_1,
  RULE_2,
  RULE_3,
  sequenceValue,
  StatusSequence,
  ValueRefused,
} from './status-sequence.ts';
import {
  awaitForcedOrResend,
  groupsForRun,
  groupsNotTakenOver,
  Interference,
  notShown,
  takenOver,
} from './shared-groups.ts';
import {
  awaitStatus,
  bulkStatus,
  currentStatus,
  expectForced,
  expectSuccessAck,
  forceStatus,
  removeStatus,
} from './status.ts';

test.describe.configure({ mode: 'default' });

test(
  ...checkTest(
    {
      check: 'billing-forced-status',
      operation: operationById('forceBillingGroupStatus'),
      title: 'PUT status forces it, DELETE status removes it',
      writes: true,
    },
    forcedStatusFlow,
  ),
);

/**
 * A group is passed over while another run's forced value shows on it; at most this many are tried. Each run sharing
 * the deployment holds up to two groups at a time (the bulk test's), and runs started together may start at the same
 * group, so a few tries are not enough: twelve let this run find a free group beside five others.
 */
const MAX_GROUPS_TRIED = 12;

/**
 * The world after a write. Another run's forced value showing up there answers why (the flow moves to another
 * group), never a failure: another run may claim the group as soon as this run's DELETE frees it.
 */
async function settleOrMoveOn(ctx: CheckContext, world: World, step: string): Promise<string | undefined> {
  try {
    await world.settle(ctx, step);
    return undefined;
  } catch (error) {
    if (error instanceof ForeignStatus) return error.message;
    throw error;
  }
}

/** The model after one bulk call: a forced group shows its status, a group whose forced status was removed does not. */
function modelStep(
  world: World,
  records: Map<string, BillingGroupRecord>,
  items: BillingGroupStatusUpdateItem[],
  forced: ReadonlyMap<string, string>,
): void {
  for (const item of items) {
    const id = item.billingGroupId;
    const known = records.get(id);
    if (item.deleteStatus !== true && item.status !== undefined) {
      if (known) known.expect({ is: item.status }, RULE_3);
      else {
        const record = new BillingGroupRecord(id, { is: item.status }, RULE_3);
        records.set(id, record);
        world.add(record.key, record);
      }
      continue;
    }
    const was = forced.get(id);
    if (known && was !== undefined) known.expect({ not: was }, RULE_3);
  }
}

function isClientError(x: Exchange): boolean {
  return x.response.status >= 400 && x.response.status < 500;
}

/** One group forced by PUT and its forced status removed by DELETE; then the sequences across both paths. */
async function forcedStatusFlow(ctx: CheckContext): Promise<void> {
  const { groups } = await listGroups(ctx);
  await singleGroupFlow(ctx, groups);
  await runSequence(ctx, groups, forcedSequence);
}

async function singleGroupFlow(ctx: CheckContext, groups: ListedGroup[]): Promise<void> {
  const runId = ctx.runId;
  const tag = forcedTag(runId, 'forced');
  const passedOver: string[] = [];
  for (const group of groupsForRun(groups, runId).slice(0, MAX_GROUPS_TRIED)) {
    const own = (await currentStatus(ctx, group.id)) ?? group.status;
    if (isForeignTag(own, runId)) {
      passedOver.push(`${group.id} showed '${own}'`);
      continue;
    }
    ctx.cleanup.billingStatus(group.id, own);
    const put = await forceStatus(ctx, group.id, tag);
    // A server with a closed list of status values (spec 3 does not show the list) may refuse a run-tagged one.
    if (isClientError(put)) return forceShownValue(ctx, groups, group, own);
    expectForced(ctx, put, group.id);
    const seen = await awaitForcedOrResend(ctx, group.id, tag, runId, async () =>
      expectForced(ctx, await forceStatus(ctx, group.id, tag), group.id),
    );
    if (seen.kind === 'foreign') {
      passedOver.push(`${group.id} showed '${seen.status}' while this run forced it`);
      continue;
    }
    if (seen.kind === 'missing')
      ctx.check.fail(
        notShown(group.id, `was forced to '${tag}' (PUT answered success) but does not show it`, seen),
        { exchanges: [seen.exchange], pointer: '/status' },
        'spec 3 rule 1',
      );
    const world = new World();
    const record = new BillingGroupRecord(group.id, { is: tag }, RULE_1, async () =>
      expectForced(ctx, await forceStatus(ctx, group.id, tag), group.id),
    );
    world.add(record.key, record);
    // Another run's value replaced this run's (one forced status per group): a DELETE now would remove theirs.
    const disturbedAfterPut = await settleOrMoveOn(ctx, world, `PUT /billingGroups/${group.id}/status '${tag}'`);
    if (disturbedAfterPut !== undefined) {
      passedOver.push(disturbedAfterPut);
      continue;
    }
    const taken = await takenOver(ctx, group.id, runId);
    if (taken !== undefined) {
      passedOver.push(`${group.id} showed '${taken}' before this run removed its value`);
      continue;
    }
    // No other run writes this run's value, so still showing it after the DELETE is this server's doing.
    await removeAndExpectGone(ctx, group.id, tag);
    record.expect({ not: tag }, RULE_2);
    const disturbedAfterDelete = await settleOrMoveOn(ctx, world, `DELETE /billingGroups/${group.id}/status`);
    if (disturbedAfterDelete === undefined) return;
    passedOver.push(disturbedAfterDelete);
  }
  skip.inconclusive(
    ctx,
    `other runs were forcing statuses on every billing group this run tried (${passedOver.join('; ')})`,
  );
}

/** The fallback when the server refuses a run-tagged value: force a value the deployment itself shows. */
async function forceShownValue(
  ctx: CheckContext,
  groups: ListedGroup[],
  group: ListedGroup,
  own: string,
): Promise<void> {
  const { values, invented } = statusCandidates(groups, own, ctx.runId);
  const forced = values[target().seed % values.length] ?? values[0] ?? 'Booked';
  const put = await forceStatus(ctx, group.id, forced);
  if (invented && isClientError(put)) {
    skip.nothingToJudge(
      ctx,
      `billing group ${group.id} shows '${own}', every group shows that, and the server refused '${forced}': the spec lists no other status value (spec 3), so there is nothing to force`,
    );
  }
  expectForced(ctx, put, group.id);
  await awaitStatus(
    ctx,
    group.id,
    (s) => s === forced,
    `was forced to '${forced}' (PUT answered success) but does not show it`,
    'spec 3 rule 1',
  );
  await removeAndExpectGone(ctx, group.id, forced);
}

/** DELETE the forced status; the group must stop showing it (spec 3 rule 2). */
async function removeAndExpectGone(ctx: CheckContext, billingGroupId: string, forced: string): Promise<void> {
  await removeStatus(ctx, billingGroupId);
  try {
    await awaitStatus(
      ctx,
      billingGroupId,
      (s) => s !== forced,
      `had its forced status '${forced}' removed (DELETE answered success) but still shows it`,
      'spec 3 rule 2',
    );
  } catch (error) {
    // The deadline was already waited out once: cleanup restores the group by forcing, without waiting again.
    if (error instanceof CheckFailure) ctx.cleanup.statusRemovalIgnored(billingGroupId);
    throw error;
  }
}

function itemArb(g: ListedGroup, statuses: readonly string[]): fc.Arbitrary<BillingGroupStatusUpdateItem> {
  return billingGroupStatusUpdateItemArb({ billingGroupIds: [g.id], statuses });
}

/** One bulk call: an item for some of the groups (at least one). */
function stepArb(groups: ListedGroup[], statuses: readonly string[]): fc.Arbitrary<BillingGroupStatusUpdateItem[]> {
  const items = groups.map((g) => fc.option(itemArb(g, statuses), { nil: undefined }));
  return fc
    .tuple(...items)
    .map((xs) => xs.filter((x): x is BillingGroupStatusUpdateItem => x !== undefined))
    .filter((xs) => xs.length > 0);
}

/** One bulk call with at least one deleteStatus item: rule 3 is about both halves, so every plan removes something. */
function removingStepArb(
  groups: ListedGroup[],
  statuses: readonly string[],
): fc.Arbitrary<BillingGroupStatusUpdateItem[]> {
  return stepArb(groups, statuses).filter((items) => items.some((i) => i.deleteStatus === true));
}

/**
 * A plan: force every group (so deleteStatus has something to remove), a call
 * that removes at least one forced status, then maybe one more of anything.
 */
function planArb(groups: ListedGroup[], statuses: readonly string[]): fc.Arbitrary<BillingGroupStatusUpdateItem[][]> {
  const forceAll = fc.tuple(...groups.map((g) => itemArb(g, statuses).filter((i) => i.deleteStatus !== true)));
  const more = fc.array(stepArb(groups, statuses), { maxLength: 1 });
  return fc
    .tuple(forceAll, removingStepArb(groups, statuses), more)
    .map(([first, removing, rest]) => [first, removing, ...rest]);
}

/** After one bulk call: forced groups show their status; groups whose forced status was removed no longer show it. */
async function checkStep(
  ctx: CheckContext,
  items: BillingGroupStatusUpdateItem[],
  forced: Map<string, string>,
): Promise<void> {
  const runId = ctx.runId;
  for (const item of items) {
    const id = item.billingGroupId;
    if (item.deleteStatus !== true && item.status !== undefined) {
      const status = item.status;
      forced.set(id, status);
      const seen = await awaitForcedOrResend(ctx, id, status, runId, () => bulkStatus(ctx, [item]));
      if (seen.kind === 'foreign') throw new Interference(id, seen.status ?? '');
      if (seen.kind === 'missing')
        ctx.check.fail(
          notShown(id, `was forced to '${status}' by bulkStatusUpdate but does not show it`, seen),
          { exchanges: [seen.exchange], pointer: '/status' },
          'spec 3 rule 3',
        );
      continue;
    }
    const was = forced.get(id);
    forced.delete(id);
    // No other run writes this run's value, so still showing it after the removal is this server's doing.
    if (was !== undefined)
      await awaitStatus(
        ctx,
        id,
        (s) => s !== was,
        `had its forced status '${was}' removed by bulkStatusUpdate (deleteStatus: true) but still shows it`,
        'spec 3 rule 3',
      );
  }
}

test(
  ...checkTest(
    {
      check: 'billing-bulk-status',
      operation: operationById('bulkUpdateBillingGroupStatus'),
      title: 'bulkStatusUpdate forces, and removes with deleteStatus, per item',
      writes: true,
    },
    bulkStatusFlow,
  ),
);

/** Pairs tried before a sequence ends inconclusive: enough to find one free beside two other runs holding theirs. */
const MAX_PAIRS = 6;

type Plan = (seq: StatusSequence, a: string, b: string) => Promise<void>;

/**
 * Runs `plan` on a pair of groups no test shows a forced value on, among the run's groups but its last one
 * (view-consistency's test forces from the other end, views.spec.ts); another run's value showing up moves it to
 * another pair, up to MAX_PAIRS, then it ends inconclusive. A server that refuses the run's values (a closed list of
 * statuses) leaves nothing to judge here: the flows before it have judged the values it shows.
 */
async function runSequence(ctx: CheckContext, groups: ListedGroup[], plan: Plan): Promise<void> {
  const candidates = groupsForRun(groups, ctx.runId).slice(0, -1);
  const passedOver: string[] = [];
  const tried = new Set<string>();
  for (let attempt = 0; attempt < MAX_PAIRS; attempt++) {
    const pair = await pairOfGroups(ctx, candidates, tried, passedOver);
    if (!pair) break;
    for (const g of pair) tried.add(g.id);
    const [a, b] = pair as [{ id: string; status: string }, { id: string; status: string }];
    try {
      return await plan(new StatusSequence(ctx, pair), a.id, b.id);
    } catch (error) {
      if (error instanceof ValueRefused) {
        ctx.testInfo.annotations.push({ type: 'note', description: `sequences not run: ${error.message}` });
        return;
      }
      if (!(error instanceof ForeignStatus)) throw error;
      passedOver.push(error.message);
    }
  }
  if (candidates.length < 2) return;
  skip.inconclusive(
    ctx,
    `other writers were forcing statuses on the billing groups a sequence tried (${passedOver.join('; ')})`,
  );
}

/**
 * billing-forced-status's sequence: both groups forced by one bulk call (rule 3), a DELETE and a PUT to ids that differ
 * from theirs only by case (they change neither), the bulk-forced status of one removed by DELETE (rule 2), the
 * bulk-forced status of the other replaced by a PUT (rule 1) and removed by DELETE; each write leaves the other group
 * as it was.
 */
const forcedSequence: Plan = async (seq, a, b) => {
  const v = (label: string) => sequenceValue(seq.context, label);
  await seq.apply({
    via: 'bulk',
    items: [
      { billingGroupId: a, status: v('a1'), deleteStatus: false },
      { billingGroupId: b, status: v('b1'), deleteStatus: false },
    ],
  });
  const twinA = caseTwinOf(a);
  if (twinA) await seq.applyToTwin({ via: 'delete', billingGroupId: twinA }, twinA);
  const twinB = caseTwinOf(b);
  if (twinB) await seq.applyToTwin({ via: 'put', billingGroupId: twinB, status: v('twin') }, twinB);
  await seq.apply({ via: 'delete', billingGroupId: a });
  await seq.apply({ via: 'put', billingGroupId: b, status: v('b2') });
  await seq.apply({ via: 'delete', billingGroupId: b });
};

/**
 * billing-bulk-status's sequence: both groups forced by PUT (rule 1), a bulk removal for an id that differs from one
 * of theirs only by case (it changes neither), the PUT-forced status of one removed by a bulk item (rule 3), the
 * PUT-forced status of the other replaced by one, then one call that forces the first and removes the second, and a
 * last removal; each call leaves the group it does not name as it was.
 */
const bulkSequence: Plan = async (seq, a, b) => {
  const v = (label: string) => sequenceValue(seq.context, label);
  await seq.apply({ via: 'put', billingGroupId: a, status: v('a1') });
  await seq.apply({ via: 'put', billingGroupId: b, status: v('b1') });
  const twinA = caseTwinOf(a);
  if (twinA) await seq.applyToTwin({ via: 'bulk', items: [{ billingGroupId: twinA, deleteStatus: true }] }, twinA);
  await seq.apply({ via: 'bulk', items: [{ billingGroupId: a, deleteStatus: true }] });
  await seq.apply({ via: 'bulk', items: [{ billingGroupId: b, status: v('b2'), deleteStatus: false }] });
  await seq.apply({
    via: 'bulk',
    items: [
      { billingGroupId: a, status: v('a3'), deleteStatus: false },
      { billingGroupId: b, deleteStatus: true },
    ],
  });
  await seq.apply({ via: 'bulk', items: [{ billingGroupId: a, deleteStatus: true }] });
};

/** Picks up to two groups no other run shows its value on, starting at `from` in the run's order. */
async function freeGroups(
  ctx: CheckContext,
  candidates: ListedGroup[],
  from: number,
  passedOver: string[],
): Promise<{ mine: ListedGroup[]; next: number }> {
  const mine: ListedGroup[] = [];
  let next = from;
  while (mine.length < 2 && next < candidates.length) {
    const g = candidates[next++]!;
    const s = (await currentStatus(ctx, g.id)) ?? g.status;
    if (isForeignTag(s, ctx.runId)) {
      passedOver.push(`${g.id} showed '${s}'`);
      continue;
    }
    mine.push(g);
    ctx.cleanup.billingStatus(g.id, s);
  }
  return { mine, next };
}

/**
 * Claims the groups by forcing a value that names the run. Answers 'refused'
 * when the server refuses such a value (a closed list of statuses), else
 * whether another run's value showed up on one of them.
 */
async function claim(
  ctx: CheckContext,
  mine: ListedGroup[],
  value: string,
  passedOver: string[],
): Promise<'claimed' | 'refused' | 'disturbed'> {
  const items = mine.map((g) => ({ billingGroupId: g.id, status: value, deleteStatus: false }));
  const x = await ctx.api.op(operationById('bulkUpdateBillingGroupStatus'), { json: items });
  if (isClientError(x)) return 'refused';
  expectSuccessAck(ctx, x, 'POST /billingGroups/bulkStatusUpdate');
  let outcome: 'claimed' | 'disturbed' = 'claimed';
  for (const item of items) {
    const id = item.billingGroupId;
    const seen = await awaitForcedOrResend(ctx, id, value, ctx.runId, () => bulkStatus(ctx, [item]));
    if (seen.kind === 'foreign') {
      passedOver.push(`${id} showed '${seen.status}' while this run forced it`);
      outcome = 'disturbed';
    }
    if (seen.kind === 'missing')
      ctx.check.fail(
        notShown(id, `was forced to '${value}' by bulkStatusUpdate but does not show it`, seen),
        { exchanges: [seen.exchange], pointer: '/status' },
        'spec 3 rule 3',
      );
  }
  return outcome;
}

/** Claimed groups are tried this many times over before the check gives up as inconclusive. */
const MAX_CLAIMS = 3;

/** The sequences across both paths, then random plans of bulk calls. */
async function bulkStatusFlow(ctx: CheckContext): Promise<void> {
  const { groups } = await listGroups(ctx);
  await runSequence(ctx, groups, bulkSequence);
  await bulkPlans(ctx, groups);
}

async function bulkPlans(ctx: CheckContext, groups: ListedGroup[]): Promise<void> {
  const runId = ctx.runId;
  const candidates = groupsForRun(groups, runId);
  const passedOver: string[] = [];
  const claimValue = forcedTag(runId, 'claim');
  let next = 0;
  for (let attempt = 0; attempt < MAX_CLAIMS; attempt++) {
    const picked = await freeGroups(ctx, candidates, next, passedOver);
    next = picked.next;
    if (picked.mine.length === 0) break;
    const claimed = await claim(ctx, picked.mine, claimValue, passedOver);
    if (claimed === 'disturbed') continue;
    if (claimed === 'refused') {
      // Values the deployment shows; runs sharing it cannot be told apart then.
      const shown = statusCandidates(groups, picked.mine[0]!.status, runId).values;
      await bulkProperty(ctx, picked.mine, shown, undefined);
      return;
    }
    const disturbed = await bulkProperty(ctx, picked.mine, [forcedTag(runId, 'a'), forcedTag(runId, 'b')], claimValue);
    if (disturbed === undefined) return;
    passedOver.push(disturbed);
  }
  skip.inconclusive(
    ctx,
    `other runs were forcing statuses on the billing groups this run tried (${passedOver.join('; ')})`,
  );
}

/** Before a step of the plan: a group another run has forced since is theirs, and the plan moves to other groups. */
async function expectNotTakenOver(ctx: CheckContext, items: BillingGroupStatusUpdateItem[]): Promise<void> {
  for (const id of new Set(items.map((i) => i.billingGroupId))) {
    const taken = await takenOver(ctx, id, ctx.runId);
    if (taken !== undefined) throw new Interference(id, taken);
  }
}

/**
 * The property over bulk plans. Between runs the groups go back to the claim
 * value (or, unclaimed, lose their forced status), so each run starts alike and
 * a shrunk run means the same thing alone. Answers why it was disturbed, if it was.
 */
async function bulkProperty(
  ctx: CheckContext,
  mine: ListedGroup[],
  statuses: string[],
  claimValue: string | undefined,
): Promise<string | undefined> {
  let disturbed: string | undefined;
  await checkProperty(
    ctx,
    [planArb(mine, statuses)],
    async (steps) => {
      if (disturbed !== undefined) return;
      const forced = new Map<string, string>();
      const world = new World();
      const records = new Map<string, BillingGroupRecord>();
      try {
        for (const [i, items] of steps.entries()) {
          await expectNotTakenOver(ctx, items);
          await bulkStatus(ctx, items);
          // The model is read before checkStep moves `forced` on: a removal expects anything but the value it removed.
          modelStep(world, records, items, forced);
          await checkStep(ctx, items, forced);
          await world.settle(ctx, `bulkStatusUpdate call ${i + 1} of the plan (${items.length} item(s))`);
        }
      } catch (error) {
        if (!(error instanceof Interference) && !(error instanceof ForeignStatus)) throw error;
        disturbed = error.message;
      } finally {
        // A read that fails here must not hide the plan's own outcome: the test's cleanup restores what is left.
        const ids = claimValue ? mine.map((g) => g.id) : [...forced.keys()];
        const kept = await groupsNotTakenOver(ctx, ids, ctx.runId).catch(() => []);
        const reset = claimValue
          ? kept.map((billingGroupId) => ({ billingGroupId, status: claimValue, deleteStatus: false }))
          : kept.map((billingGroupId) => ({ billingGroupId, deleteStatus: true }));
        if (reset.length > 0) await bulkStatus(ctx, reset).catch(() => undefined);
      }
    },
    { numRuns: Math.max(1, Math.ceil(target().runs / 4)), waitsPerRun: 3 },
  );
  return disturbed;
}
