/**
 * Billing groups (spec 4.2) and the forced status of spec 3 rules 1-3. The list and the bulk status update are
 * written in two steps (steps.ts): what the request asks, then the answer.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { BillingGroup } from '../billing-store.ts';
import type { MockContext } from '../context.ts';
import { HttpError, invalidBody, notFound } from '../errors.ts';
import { asObject } from '../json.ts';
import { booleanParam, dateParam, stringParam } from '../query.ts';
import { requireValid } from '../validation.ts';
import { inWindow } from '../variant.ts';
import { pathParam } from './params.ts';
import { stepsHandler, type Steps } from './steps.ts';

/** The filters GET /billingGroups was given; undefined where a parameter was not. */
export interface GroupFilter {
  start?: string | undefined;
  end?: string | undefined;
  state?: string | undefined;
  customerId?: string | undefined;
  inactive?: boolean | undefined;
}

function readFilter(request: FastifyRequest): GroupFilter {
  return {
    start: dateParam(request, 'start'),
    end: dateParam(request, 'end'),
    state: stringParam(request, 'state'),
    customerId: stringParam(request, 'customerId'),
    inactive: booleanParam(request, 'inactive'),
  };
}

/** Dates are ISO calendar dates, so string order is date order; both ends are inclusive (a variant: exclusive). */
function matches(ctx: MockContext, g: BillingGroup, f: GroupFilter): boolean {
  return (
    inWindow(ctx.variant, g.date.slice(0, 10), f.start, f.end) &&
    (f.state === undefined || g.status === f.state) &&
    (f.customerId === undefined || g.customerId === f.customerId) &&
    (f.inactive === undefined || g.inactive === f.inactive)
  );
}

export const billingGroupList: Steps<GroupFilter, BillingGroup[]> = {
  read(ctx, request) {
    const filter = readFilter(request);
    if (ctx.variant.billingListNeedsWindow && (filter.start === undefined || filter.end === undefined))
      // Stryker disable next-line StringLiteral: spec 7 error codes and bodies not shown
      throw new HttpError(400, 'INVALID_QUERY', 'GET /billingGroups needs both start and end');
    return filter;
  },
  answer: (ctx, filter, request, reply) => {
    const listed = inOrder(ctx, ctx.billing.list()).filter((g) => matches(ctx, g, filter));
    const size = ctx.variant.billingPageSize ?? 0;
    if (size === 0) return listed;
    // A page of the variant's size; `page` is not documented (spec 4.2), so only a client following the Link reads on.
    const page = Number(stringParam(request, 'page') ?? '1');
    // What a page number the Link never names gives is the server's: spec 4.2 documents no page parameter here.
    // Stryker disable next-line LogicalOperator: spec 4.2 documents no page parameter of the billing group list
    const from = (Number.isInteger(page) && page > 0 ? page - 1 : 0) * size;
    if (from + size < listed.length) reply.header('link', `<${nextPage(request.url, page + 1)}>; rel="next"`);
    return listed.slice(from, from + size);
  },
};

/** The list in the variant's order: the store's, or by date, latest first (then id). */
function inOrder(ctx: MockContext, groups: BillingGroup[]): BillingGroup[] {
  // Stryker disable next-line ConditionalExpression, EqualityOperator, StringLiteral: spec 4.2 shows no order of the billing group list
  if (ctx.variant.billingOrder !== 'date-desc') return groups;
  // Stryker disable next-line ConditionalExpression, EqualityOperator, UnaryOperator, ArrowFunction, MethodExpression: spec 4.2 shows no order of the billing group list
  return [...groups].sort((a, b) => (a.date === b.date ? (a.id < b.id ? 1 : -1) : a.date < b.date ? 1 : -1));
}

/** The request's own URL with `page` set to `n`. */
function nextPage(url: string, n: number): string {
  const u = new URL(url, 'http://mock.invalid');
  u.searchParams.set('page', String(n));
  return `${u.pathname}?${u.searchParams}`;
}

function existingId(ctx: MockContext, request: FastifyRequest): string {
  const id = pathParam(request, 'billingGroupId');
  // Stryker disable next-line StringLiteral: spec 7 error codes and bodies not shown
  if (!ctx.billing.has(id)) throw notFound('billing group');
  return id;
}

/** One item of a bulk status update: the forced status removed, or one forced. */
export type StatusUpdate =
  | { billingGroupId: string; deleteStatus: true }
  | { billingGroupId: string; deleteStatus: false; status: string };

/** All items are checked before any is applied, so a bad item leaves every group as it was. */
export const bulkStatusUpdate: Steps<StatusUpdate[], { success: true }> = {
  read(ctx, request) {
    requireValid('billing-group-status-update', request.body);
    const items = (request.body as unknown[]).map(asObject);
    const forcesNothing = items.findIndex((i) => i.deleteStatus !== true && typeof i.status !== 'string');
    // Stryker disable next-line StringLiteral: spec 7 error codes and bodies not shown
    if (forcesNothing >= 0) throw invalidBody(`item ${forcesNothing} neither sets a status nor deletes one`);
    const updates = items.map(
      (i): StatusUpdate =>
        i.deleteStatus === true
          ? { billingGroupId: String(i.billingGroupId), deleteStatus: true }
          : { billingGroupId: String(i.billingGroupId), deleteStatus: false, status: String(i.status) },
    );
    const unknown = updates.filter((u) => !ctx.billing.has(u.billingGroupId)).map((u) => u.billingGroupId);
    // Stryker disable next-line StringLiteral: spec 7 error codes and bodies not shown
    if (unknown.length > 0) throw notFound(`billing group ${unknown.join(', ')}`);
    return updates;
  },
  answer(ctx, updates) {
    for (const u of updates)
      if (u.deleteStatus) ctx.billing.unforce(u.billingGroupId);
      else ctx.billing.force(u.billingGroupId, u.status);
    return { success: true };
  },
};

export function billingGroupRoutes(ctx: MockContext) {
  return async (app: FastifyInstance): Promise<void> => {
    app.get('/billingGroups', stepsHandler(ctx, billingGroupList));
    app.post('/billingGroups/bulkStatusUpdate', stepsHandler(ctx, bulkStatusUpdate));
    app.get('/billingGroups/:billingGroupId', async (request) => {
      const group = ctx.billing.get(existingId(ctx, request));
      // Stryker disable next-line StringLiteral: spec 7 error codes and bodies not shown
      if (!group) throw notFound('billing group');
      return group;
    });
    app.put('/billingGroups/:billingGroupId/status', async (request) => {
      const id = existingId(ctx, request);
      requireValid('billing-group-status', request.body);
      ctx.billing.force(id, String(asObject(request.body).status));
      return { success: true };
    });
    app.delete('/billingGroups/:billingGroupId/status', async (request) => {
      ctx.billing.unforce(existingId(ctx, request));
      return { success: true };
    });
    app.get('/billingGroups/:billingGroupId/details', async (request) => {
      const details = ctx.billing.details(existingId(ctx, request));
      // Stryker disable next-line StringLiteral: spec 7 error codes and bodies not shown
      if (!details) throw notFound('billing group');
      return details;
    });
  };
}
