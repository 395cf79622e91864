/**
 * Billing groups on a deployment that other runs share (issue: three runs of
 * the billing suite at once must not falsify each other). Nothing creates a
 * billing group, so runs force statuses on the same listed groups; this file
 * keeps them apart:
 * - each run starts its choice at a place in the list given by a hash of its
 *   run id, so runs started together mostly pick different groups;
 * - every status a run forces names the run (core/forced-tag.ts), so a
 *   group that shows another run's value is in use and is passed over, and a
 *   flow that sees another run's value on its group knows it was disturbed;
 * - a forced value that does not show may have been removed by another run's
 *   DELETE (there is one forced status per group), so the write is sent once
 *   more before the check fails on it.
 * A disturbed flow moves to another group or ends inconclusive, never failed.
 */
import { createHash } from 'node:crypto';
import { operationById } from '../../specs/contract.ts';
import {
  statusOf,
  type CheckContext,
  type Exchange,
  isForeignTag,
  noteVisibleAfter,
  pollVisible,
} from '../lib/index.ts';
import { writableGroups, type ListedGroup } from './groups.ts';
import { blockIfOtherGroup, currentStatus, otherGroupId } from './status.ts';

/** The writable groups, rotated to start where the run id's hash points. */
export function groupsForRun(groups: readonly ListedGroup[], runId: string): ListedGroup[] {
  const writable = writableGroups(groups);
  if (writable.length === 0) return writable;
  const start = Number.parseInt(createHash('sha256').update(runId).digest('hex').slice(0, 8), 16) % writable.length;
  return [...writable.slice(start), ...writable.slice(0, start)];
}

/** Another run's forced value appeared on a group this flow was using. */
export class Interference extends Error {
  constructor(
    readonly billingGroupId: string,
    readonly status: string,
  ) {
    super(`billing group ${billingGroupId} shows '${status}', a status another run forced`);
    this.name = 'Interference';
  }
}

export interface ForcedRead {
  /** shown: the group shows the value; foreign: another run's value; missing: neither, by the deadline. */
  kind: 'shown' | 'foreign' | 'missing';
  status: string | undefined;
  exchange: Exchange;
  elapsedMs: number;
}

/** Polls the group until it shows `wanted` or another run's value, or the deadline passes. */
export async function awaitForced(
  ctx: CheckContext,
  billingGroupId: string,
  wanted: string,
  runId: string,
  share = 1,
): Promise<ForcedRead> {
  const r = await pollVisible(
    () => ctx.api.op(operationById('getBillingGroup'), { params: { billingGroupId } }),
    (x) => {
      if (otherGroupId(x, billingGroupId) !== undefined) return 'impossible';
      const s = statusOf(x.response.body);
      return s === wanted || isForeignTag(s, runId);
    },
    share,
  );
  blockIfOtherGroup(ctx, r.value, billingGroupId);
  const status = statusOf(r.value.response.body);
  if (status === wanted) noteVisibleAfter(r.elapsedMs);
  const kind = status === wanted ? 'shown' : isForeignTag(status, runId) ? 'foreign' : 'missing';
  return { kind, status, exchange: r.value, elapsedMs: r.elapsedMs };
}

/**
 * Waits for a forced value; when it does not show, sends the write once more
 * (another run's DELETE may have removed it: one forced status per group) and
 * waits again, each time half the deadline. A server that ignores the write misses both times.
 */
export async function awaitForcedOrResend(
  ctx: CheckContext,
  billingGroupId: string,
  wanted: string,
  runId: string,
  resend: () => Promise<void>,
): Promise<ForcedRead> {
  // Half the deadline each side of the resend: a slow server's first write still has the whole deadline to show,
  // and a server that ignores the write costs one deadline, not two.
  const first = await awaitForced(ctx, billingGroupId, wanted, runId, 0.5);
  if (first.kind !== 'missing') return first;
  await resend();
  const second = await awaitForced(ctx, billingGroupId, wanted, runId, 0.5);
  if (second.kind === 'shown')
    ctx.testInfo.annotations.push({
      type: 'note',
      description: `billing group ${billingGroupId} showed '${wanted}' only after the write was sent again (first read '${first.status ?? '(none)'}'): another writer may have removed it`,
    });
  return second;
}

/**
 * Read just before removing this run's forced value: another run that forced the group since (both saw it free at
 * once) owns it now, and a DELETE would remove their value. Answers that run's value, if it shows.
 */
export async function takenOver(ctx: CheckContext, billingGroupId: string, runId: string): Promise<string | undefined> {
  const status = await currentStatus(ctx, billingGroupId);
  return isForeignTag(status, runId) ? status : undefined;
}

/**
 * The groups no other run has forced since this run last wrote them. A step that removed this run's value leaves a
 * group looking free, and another run may force it then: writing to it now would remove or replace that run's value.
 */
export async function groupsNotTakenOver(ctx: CheckContext, ids: readonly string[], runId: string): Promise<string[]> {
  const taken = await Promise.all(ids.map((id) => takenOver(ctx, id, runId)));
  return ids.filter((_, i) => taken[i] === undefined);
}

/** The failure message of a forced value that never showed, with the last read. */
export function notShown(billingGroupId: string, what: string, read: ForcedRead): string {
  return `billing group ${billingGroupId} ${what}, also when sent a second time; after ${read.elapsedMs} ms its status is ${read.status === undefined ? '(none)' : `'${read.status}'`}`;
}
