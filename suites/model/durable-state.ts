/**
 * durable-state (spec 1, spec 3 rules 1, 2, 4, 5): what was written stays until it is written again. Two steps, two
 * tests of suites/model/durable-state.spec.ts run one after the other in one worker:
 * - `writeStates`: one state of each kind a write of the spec makes (durable-kinds.ts), each shown at once; they are
 *   handed over, not undone, when the test ends;
 * - `auditStates`: once a visibility deadline has passed since the last write (FLIS_VISIBILITY_TIMEOUT_MS: time is
 *   the subject here, so the deadline is waited for, as late as the run allows), every view of every state is read
 *   again. A state that changed is replayed on fresh records, left for as long, and read again (the time control):
 *   changed again, time alone did it, and durable-state fails; else another write did (an owner named by the kind,
 *   or another writer: inconclusive).
 * Everything written is undone by the audit's cleanup; if the states are never handed over (the writes' test broke),
 * by the writes' own.
 */
import { createHash } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { operationById } from '../../specs/contract.ts';
import {
  statusOf,
  forcedTag,
  isForcedTag,
  type CheckContext,
  freshId,
  is2xx,
  skip,
  target,
  recordsOf,
  WHOLE_BILLING_WINDOW,
  Cleanup,
  mapBounded,
} from '../lib/index.ts';
import { recordGroups } from '../../specs/record-groups.ts';
import { recordId, Records, Step, World } from '../lib/world/index.ts';
import {
  durableGroups,
  type DurableState,
  ForcedState,
  type Held,
  type Missed,
  OfferState,
  RecordState,
  TransportOrderState,
} from './durable-kinds.ts';

/** The states one worker's writes test hands to its audit test (the two run in order in one worker). */
interface Ledger {
  /** The states that showed: the audit's. */
  states: DurableState[];
  /** Every state written, shown or not: the audit's cleanup undoes them. */
  written: DurableState[];
  lastWriteAt: number;
}

let handedOver: Ledger | undefined;

/** A context whose cleanup collects and never runs: the states outlive the test that wrote them. */
function detached(ctx: CheckContext): CheckContext {
  return { ...ctx, cleanup: new Cleanup(ctx.api, ctx.testInfo) };
}

// ---------------------------------------------------------------------------------------------------------------

/** The billing groups this run forces for the audit: from the middle of its order, which the billing checks leave. */
async function freeGroups(ctx: CheckContext, n: number): Promise<{ id: string; status: string }[]> {
  const x = await ctx.api.op(operationById('listBillingGroups'), { query: WHOLE_BILLING_WINDOW });
  const groups = (is2xx(x) && Array.isArray(x.response.body) ? x.response.body : [])
    .map((g) => ({ id: (g as { id?: unknown })?.id, status: statusOf(g) }))
    .filter((g): g is { id: string; status: string } => typeof g.id === 'string' && g.status !== undefined);
  // The first listed group is read, never forced (suites/billing/groups.ts); the rest in the run's own order.
  const rest = groups.slice(1).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (rest.length === 0) return [];
  const start = Number.parseInt(createHash('sha256').update(ctx.runId).digest('hex').slice(0, 8), 16) % rest.length;
  const ordered = [...rest.slice(start), ...rest.slice(0, start)];
  const middle = [
    ...ordered.slice(Math.floor(ordered.length / 2)),
    ...ordered.slice(0, Math.floor(ordered.length / 2)),
  ];
  return middle.filter((g) => !isForcedTag(g.status)).slice(0, n);
}

/** A carrier booking the deployment lists (spec 4.3 shows no write that makes one). */
async function someCarrierBooking(ctx: CheckContext): Promise<string | undefined> {
  const list = await ctx.api.op(operationById('listCarrierBookings'));
  const first = recordsOf(list.response.body).find((b) => typeof b.id === 'string' || typeof b.bookingId === 'string');
  return is2xx(list) && first ? String(first.id ?? first.bookingId) : undefined;
}

/** One state of each kind, written in order; the 4.3 records share one world, parents before children. */
async function statesToWrite(ctx: CheckContext): Promise<DurableState[]> {
  const states: DurableState[] = [];
  const world = new World();
  const records = new Records(world, ctx.runId);
  const present = new Map<string, Record<string, string>>();
  for (const group of durableGroups(recordGroups())) {
    const values: Record<string, string> = {};
    const parent = group.parent ? present.get(group.parent) : undefined;
    for (const name of group.params.slice(0, -1)) values[name] = parent?.[name] ?? recordId(ctx, 'durable-parent');
    const own = group.params.at(-1) ?? 'id';
    const kept = { ...values, [own]: recordId(ctx, 'durable') };
    present.set(group.template, kept);
    states.push(new RecordState(records, world, records.record(group.template, kept), 'present'));
    if (group.del)
      states.push(
        new RecordState(
          records,
          world,
          records.record(group.template, { ...values, [own]: recordId(ctx, 'durable') }),
          'deleted',
        ),
      );
  }
  for (const kind of ['live', 'deleted by DELETE', 'cancelled by the flag'] as const)
    states.push(new OfferState(kind, freshId('durable-offer', ctx.runId), ctx.runId));
  const [put, bulk] = await freeGroups(ctx, 2);
  if (put) states.push(new ForcedState('forced by PUT', put.id, forcedTag(ctx.runId, 'durable-put'), put.status));
  if (bulk) states.push(new ForcedState('forced by bulk', bulk.id, forcedTag(ctx.runId, 'durable-bulk'), bulk.status));
  const booking = await someCarrierBooking(ctx);
  if (booking) states.push(new TransportOrderState(booking, freshId('durable-order', ctx.runId)));
  return states;
}

/**
 * The first test: writes every state and waits for each to show. A state that never shows is its write's owner's,
 * and this test is blocked by the first such owner, once the others are handed over to the audit.
 */
export async function writeStates(ctx: CheckContext): Promise<void> {
  handedOver = undefined;
  const quiet = detached(ctx);
  const states = await statesToWrite(ctx);
  const shown: DurableState[] = [];
  const missed: Missed[] = [];
  let handed = false;
  // Undone here only when nothing reaches the audit (this test broke before it handed the states over).
  ctx.cleanup.add('the states written for the audit', async () => {
    if (handed) return;
    const undo = new Cleanup(ctx.api, ctx.testInfo);
    for (const s of states) s.undo({ ...ctx, cleanup: undo });
    await undo.run();
  });
  // Records of one depth side by side, parents before children (a child's path names its parent); the other kinds
  // beside them. The order of `missed` is that of `states`, whatever answers first.
  const depth = (s: DurableState) => (s instanceof RecordState ? s.record.group.params.length : 0);
  const outcome = new Map<DurableState, Missed | undefined>();
  const levels = [...new Set(states.map(depth))].sort((a, b) => a - b);
  const others = states.filter((s) => depth(s) === 0);
  await Promise.all([
    mapBounded(others, async (s) => void outcome.set(s, await s.write(quiet))),
    (async () => {
      for (const level of levels.filter((l) => l > 0))
        await mapBounded(
          states.filter((s) => depth(s) === level),
          async (s) => void outcome.set(s, await s.write(quiet)),
        );
    })(),
  ]);
  for (const s of states) {
    const miss = outcome.get(s);
    if (miss) missed.push(miss);
    else shown.push(s);
  }
  const lastWriteAt = Math.max(...states.map((s) => s.writtenAt));
  // Only what showed is audited; everything written is undone by the audit's cleanup.
  handedOver = { states: shown, written: states, lastWriteAt };
  handed = true;
  ctx.testInfo.annotations.push({
    type: 'note',
    description: `${shown.length} state(s) shown and left for the audit: ${shown.map((s) => s.label).join('; ')}`,
  });
  const first = missed[0];
  if (first) ctx.check.blocked(first.owner, first.x, `${first.message} (${missed.length} state(s) did not show)`);
  if (shown.length === 0) skip.nothingToJudge(ctx, 'no state could be written for the audit');
}

// ---------------------------------------------------------------------------------------------------------------

interface Changed {
  state: DurableState;
  held: Extract<Held, { held: false }>;
}

/** Reads every state; the section 4.3 records share one step, so each list is read once for all of them. */
async function auditAll(ctx: CheckContext, states: readonly DurableState[]) {
  const step = Step.audit('the audit, a visibility deadline after the last write');
  return Promise.all(
    states.map(async (state) => ({
      state,
      held: state instanceof RecordState ? await state.audit(ctx, step) : await state.audit(ctx),
    })),
  );
}

/**
 * The time control of the changes: each state replayed on fresh records, shown, left as long as the original was,
 * read again. Answers the changes time alone brought about again.
 */
async function byTime(ctx: CheckContext, changed: readonly Changed[]): Promise<Set<DurableState>> {
  const controls = changed.map((c) => ({ c, control: c.state.fresh(ctx), age: Date.now() - c.state.writtenAt }));
  const written = await Promise.all(
    controls.map(async (k) => ({ ...k, shown: (await k.control.write(ctx)) === undefined })),
  );
  for (const k of written) k.control.undo(ctx);
  const started = Date.now();
  const longest = Math.max(0, ...written.map((k) => k.age - (Date.now() - k.control.writtenAt)));
  if (longest > 0) await delay(longest);
  const again = await Promise.all(
    written.filter((k) => k.shown).map(async (k) => ({ k, held: await k.control.audit(ctx) })),
  );
  ctx.testInfo.annotations.push({
    type: 'note',
    description: `time control: ${controls.length} state(s) written afresh and left ${Date.now() - started} ms`,
  });
  return new Set(again.filter((a) => 'held' in a.held && !a.held.held).map((a) => a.k.c.state));
}

/** The second test: the audit of what the first handed over. */
export async function auditStates(ctx: CheckContext): Promise<void> {
  const ledger = handedOver;
  handedOver = undefined;
  if (!ledger)
    skip.nothingToJudge(
      ctx,
      'no state was handed over: the test that writes them did not run to its end in this worker',
    );
  for (const s of ledger.written) s.undo(ctx);
  const due = ledger.lastWriteAt + target().visibilityTimeoutMs - Date.now();
  if (due > 0) await delay(due);
  const read = await auditAll(ctx, ledger.states);
  const inconclusive = read.flatMap((r) => ('inconclusive' in r.held ? [r.held.inconclusive] : []));
  const changed = read.flatMap((r) => ('held' in r.held && !r.held.held ? [{ state: r.state, held: r.held }] : []));
  const ownedElsewhere = changed.find((c) => c.held.owner !== undefined);
  if (ownedElsewhere?.held.owner)
    ctx.check.blocked(ownedElsewhere.held.owner, ownedElsewhere.held.exchanges.at(-1), ownedElsewhere.held.message);
  if (changed.length > 0) {
    const auditedAt = Date.now();
    const timed = await byTime(ctx, changed);
    const own = changed.find((c) => timed.has(c.state));
    if (own)
      ctx.check.fail(
        `${own.state.label} showed what was written, and ${auditedAt - own.state.writtenAt} ms after its last write, with no write to it since, no longer does: ${own.held.message} (the same write on a fresh record changed alike when left as long)`,
        { exchanges: own.held.exchanges },
        own.state.clause,
      );
    const other = changed[0] as Changed;
    if (other.state.otherwise !== 'inconclusive')
      ctx.check.blocked(
        other.state.otherwise,
        other.held.exchanges.at(-1),
        `${other.held.message}: the same write on a fresh record, left as long with no other write, kept it; a later write to another record changed it`,
      );
    skip.inconclusive(
      ctx,
      `${other.held.message}; the same write on a fresh record, left as long, kept it: another writer may have changed it`,
    );
  }
  if (inconclusive.length > 0)
    ctx.testInfo.annotations.push({ type: 'note', description: `not judged: ${inconclusive.join('; ')}` });
}
