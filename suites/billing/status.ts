/**
 * The forced-status operations of spec 3 rules 1–3 as flow steps. Each write
 * checks its answer (any 2xx, `success` true, spec 4.2); `awaitStatus` polls
 * GET /billingGroups/{id} until the status is acceptable or the deadline passes,
 * because the spec does not say the change is visible at once.
 */
import type { BillingGroupStatusUpdateItem } from '../../schemas/types.generated.ts';
import { operationById } from '../../specs/contract.ts';
import {
  statusOf,
  type Exchange,
  type CheckContext,
  type Clause,
  skip,
  RECORD_IDENTITY,
  noteVisibleAfter,
  pollVisible,
} from '../lib/index.ts';

/** The id of the group a GET /billingGroups/{id} answered with, when it is another one. */
export function otherGroupId(x: Exchange, billingGroupId: string): string | undefined {
  const body = x.response.body;
  const id = typeof body === 'object' && body !== null ? (body as { id?: unknown }).id : undefined;
  const answered = x.response.status >= 200 && x.response.status < 300;
  return answered && typeof id === 'string' && id !== billingGroupId ? id : undefined;
}

/** A read that answered another group says nothing of this one's status: record-identity's fault, so blocked. */
export function blockIfOtherGroup(ctx: CheckContext, x: Exchange, billingGroupId: string): void {
  const other = otherGroupId(x, billingGroupId);
  if (other !== undefined)
    skip.blockedBy(ctx, RECORD_IDENTITY, x, `GET /billingGroups/${billingGroupId} answered billing group ${other}`);
}

export function expectSuccessAck(ctx: CheckContext, x: Exchange, what: string): void {
  ctx.check.expectSuccess(x, what);
  ctx.check.expectSchema(x, 'success-ack', 'spec 4.2');
  if ((x.response.body as { success: unknown }).success !== true)
    ctx.check.fail(
      `${what} answered success: ${JSON.stringify((x.response.body as { success: unknown }).success)}`,
      { exchanges: [x] },
      'spec 4.2',
    );
}

export async function forceStatus(ctx: CheckContext, billingGroupId: string, status: string): Promise<Exchange> {
  const x = await ctx.api.op(operationById('forceBillingGroupStatus'), {
    params: { billingGroupId },
    json: { status },
  });
  return x;
}

export function expectForced(ctx: CheckContext, x: Exchange, billingGroupId: string): void {
  expectSuccessAck(ctx, x, `PUT /billingGroups/${billingGroupId}/status`);
}

export async function removeStatus(ctx: CheckContext, billingGroupId: string): Promise<void> {
  const x = await ctx.api.op(operationById('removeBillingGroupStatus'), { params: { billingGroupId } });
  expectSuccessAck(ctx, x, `DELETE /billingGroups/${billingGroupId}/status`);
}

export async function bulkStatus(ctx: CheckContext, items: BillingGroupStatusUpdateItem[]): Promise<void> {
  const x = await ctx.api.op(operationById('bulkUpdateBillingGroupStatus'), { json: items });
  expectSuccessAck(ctx, x, 'POST /billingGroups/bulkStatusUpdate');
}

/** Polls the group until `accept(status)`; fails the check with `what` and the last read otherwise. */
export async function awaitStatus(
  ctx: CheckContext,
  billingGroupId: string,
  accept: (status: string | undefined) => boolean,
  what: string,
  clause?: Clause,
): Promise<void> {
  const op = operationById('getBillingGroup');
  const r = await pollVisible(
    () => ctx.api.op(op, { params: { billingGroupId } }),
    (x) => (otherGroupId(x, billingGroupId) !== undefined ? 'impossible' : accept(statusOf(x.response.body))),
  );
  blockIfOtherGroup(ctx, r.value, billingGroupId);
  if (r.ok) {
    noteVisibleAfter(r.elapsedMs);
    return;
  }
  const shown = statusOf(r.value.response.body);
  ctx.check.fail(
    `billing group ${billingGroupId} ${what}; after ${r.elapsedMs} ms its status is ${shown === undefined ? '(none)' : `'${shown}'`}`,
    { exchanges: [r.value], pointer: '/status', operationId: op.operationId, method: op.method, path: op.path },
    clause,
  );
}

/** The group's status now (GET /billingGroups/{id}). */
export async function currentStatus(ctx: CheckContext, billingGroupId: string): Promise<string | undefined> {
  const x = await ctx.api.op(operationById('getBillingGroup'), { params: { billingGroupId } });
  ctx.check.expectSuccess(x, `GET /billingGroups/${billingGroupId}`);
  blockIfOtherGroup(ctx, x, billingGroupId);
  return statusOf(x.response.body);
}
