/** Billing groups (spec 4.2) and the forced status of spec 3 rules 1-3. */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { BillingGroup } from '../billing-store.ts';
import type { MockContext } from '../context.ts';
import { HttpError, invalidBody, notFound } from '../errors.ts';
import { asObject, type JsonObject } from '../json.ts';
import { booleanParam, dateParam, stringParam } from '../query.ts';
import { requireValid } from '../validation.ts';
import { dateStartMs, isoDate } from '../formats.ts';
import { emptyList } from '../lists.ts';
import { inWindow } from '../variant.ts';
import { pathParam } from './params.ts';

function presentGroup(ctx: MockContext, group: BillingGroup): JsonObject {
  const out: JsonObject = { ...group };
  if (ctx.faults.has('billing-group-missing-status')) delete out.status;
  return out;
}

interface GroupFilter {
  start?: string;
  end?: string;
  state?: string;
  customerId?: string;
  inactive?: boolean;
}

function readFilter(ctx: MockContext, request: FastifyRequest): GroupFilter {
  const filter: GroupFilter = {};
  const [start, end, state, customerId, inactive] = [
    dateParam(request, 'start'),
    dateParam(request, 'end'),
    stringParam(request, 'state'),
    stringParam(request, 'customerId'),
    booleanParam(request, 'inactive'),
  ];
  if (start !== undefined) filter.start = start;
  if (end !== undefined) filter.end = end;
  if (state !== undefined) filter.state = state;
  if (customerId !== undefined && !ctx.faults.has('billing-filter-ignored')) filter.customerId = customerId;
  if (inactive !== undefined) filter.inactive = inactive;
  return filter;
}

const DAY_MS = 86_400_000;

/** The billing-window-widened fault moves a date bound by whole days. */
function shiftDate(date: string | undefined, days: number): string | undefined {
  return date === undefined ? undefined : isoDate((dateStartMs(date) as number) + days * DAY_MS);
}

/** Dates are ISO calendar dates, so string order is date order; both ends are inclusive (a variant: exclusive). */
function matches(ctx: MockContext, g: BillingGroup, f: GroupFilter): boolean {
  const widen = ctx.faults.has('billing-window-widened') ? 1 : 0;
  return (
    inWindow(ctx.variant, g.date.slice(0, 10), shiftDate(f.start, -widen), shiftDate(f.end, widen)) &&
    (f.state === undefined || g.status === f.state) &&
    (f.customerId === undefined || g.customerId === f.customerId) &&
    (f.inactive === undefined || g.inactive === f.inactive)
  );
}

function existingId(ctx: MockContext, request: FastifyRequest): string {
  const id = pathParam(request, 'billingGroupId');
  if (!ctx.billing.has(id)) throw notFound('billing group');
  return id;
}

/** How a status change arrived: the forced-status faults bend the single PUT/DELETE only, as they say, not bulk. */
type Via = 'single' | 'bulk';

function forceStatus(ctx: MockContext, id: string, status: string, via: Via): void {
  if (via === 'bulk' || !ctx.faults.has('forced-status-ignored')) ctx.billing.force(id, status);
}

function removeForcedStatus(ctx: MockContext, id: string, via: Via): void {
  if (via === 'bulk' || !ctx.faults.has('forced-status-not-removed')) ctx.billing.unforce(id);
}

interface StatusUpdate {
  billingGroupId: string;
  status?: string;
  deleteStatus: boolean;
}

function readUpdates(ctx: MockContext, body: unknown): StatusUpdate[] {
  requireValid('billing-group-status-update', body);
  const updates = (body as unknown[]).map(asObject).map(
    (i): StatusUpdate => ({
      billingGroupId: String(i.billingGroupId),
      deleteStatus: i.deleteStatus === true,
      ...(typeof i.status === 'string' ? { status: i.status } : {}),
    }),
  );
  const forcesNothing = updates.findIndex((u) => !u.deleteStatus && u.status === undefined);
  if (forcesNothing >= 0) throw invalidBody(`item ${forcesNothing} neither sets a status nor deletes one`);
  const unknown = updates.filter((u) => !ctx.billing.has(u.billingGroupId)).map((u) => u.billingGroupId);
  if (unknown.length > 0) throw notFound(`billing group ${unknown.join(', ')}`);
  return updates;
}

/** All items are checked before any is applied, so a bad item leaves every group as it was. */
function applyUpdate(ctx: MockContext, u: StatusUpdate): void {
  const treatAsForce = !u.deleteStatus || ctx.faults.has('delete-status-ignored');
  if (!treatAsForce) removeForcedStatus(ctx, u.billingGroupId, 'bulk');
  else if (u.status !== undefined) forceStatus(ctx, u.billingGroupId, u.status, 'bulk');
}

/**
 * The billing-filter-drops-match fault leaves out the last matching group, under any filter that leaves some group out
 * (a window around every group is the whole list, which the checks compare with). Not one dated on a bound's own
 * day: whether `start` and `end` include it is not shown, so leaving it out would be a conformant choice.
 */
function lastDroppable(listed: readonly BillingGroup[], filter: GroupFilter): BillingGroup | undefined {
  if (Object.keys(filter).length === 0) return undefined;
  const onBound = (g: BillingGroup) => g.date.slice(0, 10) === filter.start || g.date.slice(0, 10) === filter.end;
  return listed.filter((g) => !onBound(g)).at(-1);
}

/** The billing-group-get-wrong fault: the group listed after the one asked for (the first after the last). */
function answeredId(ctx: MockContext, id: string): string {
  if (!ctx.faults.has('billing-group-get-wrong')) return id;
  const ids = ctx.billing.list().map((g) => g.id);
  return ids[(ids.indexOf(id) + 1) % ids.length] ?? id;
}

/** The text-content-type fault: the body stays JSON, the label says otherwise. */
async function labelAsText(_request: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  reply.header('content-type', 'text/plain; charset=utf-8');
  return payload;
}

export function billingGroupRoutes(ctx: MockContext) {
  return async (app: FastifyInstance): Promise<void> => {
    const listOptions = ctx.faults.has('text-content-type') ? { onSend: labelAsText } : {};
    app.get('/billingGroups', listOptions, async (request) => {
      const filter = readFilter(ctx, request);
      if (ctx.variant.billingListNeedsWindow && (filter.start === undefined || filter.end === undefined))
        throw new HttpError(400, 'INVALID_QUERY', 'GET /billingGroups needs both start and end');
      // forced-status-list-stale: the list and its filters still see each group's own status.
      const all = ctx.faults.has('forced-status-list-stale') ? ctx.billing.listUnforced() : ctx.billing.list();
      const listed = all.filter((g) => matches(ctx, g, filter));
      const narrowed = listed.length < all.length;
      const dropped =
        ctx.faults.has('billing-filter-drops-match') && narrowed ? lastDroppable(listed, filter) : undefined;
      return emptyList(
        ctx,
        listed.filter((g) => g !== dropped).map((g) => presentGroup(ctx, g)),
      );
    });
    app.post('/billingGroups/bulkStatusUpdate', async (request) => {
      for (const u of readUpdates(ctx, request.body)) applyUpdate(ctx, u);
      return { success: true };
    });
    app.get('/billingGroups/:billingGroupId', async (request) => {
      const group = ctx.billing.get(answeredId(ctx, existingId(ctx, request)));
      if (!group) throw notFound('billing group');
      return presentGroup(ctx, group);
    });
    app.put('/billingGroups/:billingGroupId/status', async (request) => {
      const id = existingId(ctx, request);
      requireValid('billing-group-status', request.body);
      forceStatus(ctx, id, String(asObject(request.body).status), 'single');
      return { success: true };
    });
    app.delete('/billingGroups/:billingGroupId/status', async (request) => {
      removeForcedStatus(ctx, existingId(ctx, request), 'single');
      return { success: true };
    });
    app.get('/billingGroups/:billingGroupId/details', async (request) => {
      const details = ctx.billing.details(existingId(ctx, request));
      if (!details) throw notFound('billing group');
      return details;
    });
  };
}
