/**
 * For each operation, a request the valid token is served (a 2xx): a list, or a
 * record the run wrote or found. auth-required resends exactly that request with
 * no token or a wrong one: only where the valid token is served does a refusal
 * prove that the token was checked (a 404 for a record that does not exist
 * proves nothing). Where no such request can be had, the reason is given and the
 * operation is not judged.
 *
 * Writes change only what the run wrote: a PUT, POST or DELETE goes to records
 * written by this run (run-tagged, undone afterwards), never to records found
 * listed; a DELETE gets a record of its own.
 */
import { operationById, type Operation } from '../../specs/contract.ts';
import {
  CheckFailure,
  type CallOptions,
  type Exchange,
  is2xx,
  type CheckContext,
  wholeListQuery,
  CheckBlocked,
  scopedIds,
  SHOWN_BILLING_GROUP_STATUS,
  offerBulkItem,
  offerWriteBody,
  waitForOffer,
} from '../lib/index.ts';
import { catalogueBody, deleteCreatedLater } from './catalogue-writes.ts';
import { recordsOf } from './listed-records.ts';
import { resolveIds, type ResolveOptions } from './record-ids.ts';

export interface ServedRequest {
  call: CallOptions;
  /** True for a DELETE: the probes go first and the valid request last, which removes what they addressed. */
  destructive: boolean;
  /** Registers the undo of what an accepted request created (a POST: ids known only from its answer). */
  created?: (x: Exchange) => void;
}

export type Preparation = { served: ServedRequest } | { notJudged: string };

/** What one test prepares once and shares between operations: records to read, parents of records to write. */
export class SharedRecords {
  readonly ids: NonNullable<ResolveOptions['cache']> = new Map();
  readonly newId: (scope: string) => (name: string) => string;
  private readonly found = new Map<string, Promise<{ id: string; status?: string } | string>>();

  constructor(runId: string) {
    this.newId = scopedIds('auth', runId);
  }

  /** The first record a documented list shows (id and status), or why there is none; asked once per test. */
  listed(ctx: CheckContext, listOperationId: string): Promise<{ id: string; status?: string } | string> {
    let hit = this.found.get(listOperationId);
    if (!hit) {
      hit = firstOf(ctx, listOperationId);
      this.found.set(listOperationId, hit);
    }
    return hit;
  }

  /** An offer to read: one the run writes when it may, else the first one listed. */
  offerToRead(ctx: CheckContext): Promise<{ id: string } | string> {
    let hit = this.found.get('offer to read');
    if (!hit) {
      hit = ctx.api.target.allowWrites
        ? visibleOffer(ctx, this.newId('offer to read')('offer'))
        : this.listed(ctx, 'listOffers');
      this.found.set('offer to read', hit);
    }
    return hit;
  }
}

async function firstOf(ctx: CheckContext, listOperationId: string): Promise<{ id: string; status?: string } | string> {
  const op = operationById(listOperationId);
  const x = await ctx.api.op(op, { query: wholeListQuery(listOperationId) });
  const first = is2xx(x) ? recordsOf(x.response.body).find((r) => typeof r.id === 'string') : undefined;
  if (!first)
    return `no record to address: ${op.method.toUpperCase()} ${op.path} answered ${x.response.status}${is2xx(x) ? ' with no record carrying an id' : ''}`;
  return { id: first.id as string, ...(typeof first.status === 'string' ? { status: first.status } : {}) };
}

/** Writes an offer and waits until it reads; registers its cancellation. */
async function visibleOffer(ctx: CheckContext, id: string): Promise<{ id: string } | string> {
  const put = await ctx.api.op(operationById('upsertOffer'), {
    params: { offerId: id },
    json: offerWriteBody(ctx.runId),
  });
  ctx.cleanup.offer(id, { awaitVisible: true });
  if (!is2xx(put)) return `no offer to address: PUT /offers/{offerId} answered ${put.response.status}`;
  const seen = await waitForOffer(ctx.api, id);
  return seen.ok
    ? { id }
    : `no offer to address: offer ${id} was not readable within ${seen.elapsedMs} ms of its PUT (visibility is offer-upsert's to judge)`;
}

function removeForcedLater(ctx: CheckContext, billingGroupId: string): void {
  ctx.cleanup.add(`remove forced status of billing group ${billingGroupId}`, () =>
    ctx.api.op(operationById('removeBillingGroupStatus'), { params: { billingGroupId } }),
  );
}

const served = (call: CallOptions, more: Partial<ServedRequest> = {}): Preparation => ({
  served: { call, destructive: false, ...more },
});

/** The billing group whose status is forced to the value it already shows, so nothing visible changes. */
async function groupToForce(
  ctx: CheckContext,
  shared: SharedRecords,
): Promise<{ billingGroupId: string; status: string } | string> {
  const g = await shared.listed(ctx, 'listBillingGroups');
  if (typeof g === 'string') return g;
  removeForcedLater(ctx, g.id);
  return { billingGroupId: g.id, status: g.status ?? SHOWN_BILLING_GROUP_STATUS };
}

type Prepare = (ctx: CheckContext, op: Operation, shared: SharedRecords) => Promise<Preparation>;

/** A list, with the parameters it documents where a server may need them (core/whole-list.ts). */
const listing: Prepare = async (_ctx, op) => {
  const query = wholeListQuery(op.operationId);
  return served(Object.keys(query).length > 0 ? { query } : {});
};

function readingListed(listOperationId: string, param: string): Prepare {
  return async (ctx, _op, shared) => {
    const r = await shared.listed(ctx, listOperationId);
    return typeof r === 'string' ? { notJudged: r } : served({ params: { [param]: r.id } });
  };
}

/** The documented operations of 4.1 and 4.2, each with the records it needs. */
const documented: Record<string, Prepare> = {
  listOffers: listing,
  listBillingGroups: listing,
  listInvoices: listing,
  getOffer: async (ctx, _op, shared) => {
    const r = await shared.offerToRead(ctx);
    return typeof r === 'string' ? { notJudged: r } : served({ params: { offerId: r.id } });
  },
  getBillingGroup: readingListed('listBillingGroups', 'billingGroupId'),
  getBillingGroupDetails: readingListed('listBillingGroups', 'billingGroupId'),
  getInvoice: readingListed('listInvoices', 'invoiceId'),
  getInvoiceBillingGroupDetailsSnapshot: readingListed('listInvoices', 'invoiceId'),
  createOffer: async (ctx) =>
    served(
      { json: offerWriteBody(ctx.runId) },
      {
        created: (x) => {
          const id = (x.response.body as { id?: unknown } | undefined)?.id;
          if (typeof id === 'string') ctx.cleanup.offer(id, { awaitVisible: true });
        },
      },
    ),
  upsertOffer: async (ctx, op, shared) => {
    const offerId = shared.newId(op.operationId)('offer');
    ctx.cleanup.offer(offerId, { awaitVisible: true });
    return served({ params: { offerId }, json: offerWriteBody(ctx.runId) });
  },
  deleteOffer: async (ctx, op, shared) => {
    const r = await visibleOffer(ctx, shared.newId(op.operationId)('offer'));
    return typeof r === 'string'
      ? { notJudged: r }
      : { served: { call: { params: { offerId: r.id } }, destructive: true } };
  },
  bulkWriteOffers: async (ctx, op, shared) => {
    const item = { ...offerBulkItem(ctx.runId), id: shared.newId(op.operationId)('offer') };
    ctx.cleanup.offer(item.id, { awaitVisible: true });
    return served({ json: [item] });
  },
  forceBillingGroupStatus: async (ctx, _op, shared) => {
    const g = await groupToForce(ctx, shared);
    return typeof g === 'string'
      ? { notJudged: g }
      : served({ params: { billingGroupId: g.billingGroupId }, json: { status: g.status } });
  },
  removeBillingGroupStatus: async (ctx, _op, shared) => {
    const g = await groupToForce(ctx, shared);
    if (typeof g === 'string') return { notJudged: g };
    const params = { billingGroupId: g.billingGroupId };
    // Forced first, so there is a forced status for the DELETE to remove.
    const forced = await ctx.api.op(operationById('forceBillingGroupStatus'), { params, json: { status: g.status } });
    if (!is2xx(forced))
      return {
        notJudged: `no forced status to remove: PUT /billingGroups/{id}/status answered ${forced.response.status}`,
      };
    return { served: { call: { params }, destructive: true } };
  },
  bulkUpdateBillingGroupStatus: async (ctx, _op, shared) => {
    const g = await groupToForce(ctx, shared);
    return typeof g === 'string' ? { notJudged: g } : served({ json: [{ ...g, deleteStatus: false }] });
  },
};

/** An operation of 4.3: ids the run wrote or found (a write-method request only on records the run wrote). */
const catalogued: Prepare = async (ctx, op, shared) => {
  const own = op.method === 'delete' ? 'fresh' : op.method === 'get' ? undefined : 'written';
  const ids = await resolveIds(ctx, op, { cache: shared.ids, newId: shared.newId, ...(own ? { own } : {}) });
  if ('unresolved' in ids) return { notJudged: ids.unresolved };
  const json = catalogueBody(op, ctx.runId);
  const call: CallOptions = { params: ids.params, ...(json !== undefined ? { json } : {}) };
  if (op.method === 'delete') return { served: { call, destructive: true } };
  return served(call, op.method === 'post' ? { created: (x) => deleteCreatedLater(ctx, op, json, x) } : {});
};

/**
 * The request to judge `op` on, or why there is none. A check that meets another check's fault while preparing
 * (a shape, a write that never shows) leaves this operation unjudged instead of failing or blocking the others.
 */
export async function prepareServed(ctx: CheckContext, op: Operation, shared: SharedRecords): Promise<Preparation> {
  const prepare = op.documented ? documented[op.operationId] : catalogued;
  if (!prepare)
    throw new Error(
      `suite bug: no served request for ${op.operationId}; add one to suites/contract/served-requests.ts`,
    );
  try {
    return await prepare(ctx, op, shared);
  } catch (error) {
    if (error instanceof CheckBlocked) return { notJudged: error.message };
    if (error instanceof CheckFailure) return { notJudged: `preparing it failed: ${error.record.message}` };
    throw error;
  }
}
