/**
 * Real ids for the path parameters of a section 4.3 operation, so that a 404
 * can only mean "not served": for each parameter in path order, the record it
 * names is written by the run (a PUT to the path through that parameter, when
 * writes are allowed, run-tagged and deleted again afterwards) or discovered
 * (the first record of the list one level up, e.g. GET /bookings for
 * {bookingId}, or a field named like the parameter on the items of a list of
 * the same resource group). A batch id comes from an offer the run writes.
 * A parameter that none of these yields is unresolved, and says why.
 */
import { fillPath, operations, type Operation } from '../../specs/contract.ts';
import { RESPONSE_SCHEMA } from '../lib/check-blocked.ts';
import type { Exchange } from '../lib/exchange.ts';
import { is2xx, untilVisible, type ContractContext } from './contract-test.ts';
import { opaqueRecord, taggedId } from './fixtures.ts';
import { recordsOf } from './listed-records.ts';
import { putOffer } from './offers.ts';

type Json = Record<string, unknown>;

function opAt(method: Operation['method'], path: string): Operation | undefined {
  return operations().find((o) => o.method === method && o.path === path);
}

/** The path template up to and including `{param}`. */
function templateThrough(path: string, param: string): string {
  const end = path.indexOf(`{${param}}`) + param.length + 2;
  return path.slice(0, end);
}

function idOf(item: unknown, param: string): string | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const v = (item as Json).id ?? (item as Json)[param];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/**
 * A PUT that writes the record `template` names: at the template itself, or one level below it (a milestone, a
 * storage). A deprecated PUT is the last resort: still served (spec 9 rule 3), and the only writer of some records
 * (GET /fuel/deliveryRequests/{deliveryRequestId}/deliveries reads what the deprecated PUT wrote).
 */
function putFor(template: string): Operation | undefined {
  const own = opAt('put', template);
  return (
    (own?.deprecated ? undefined : own) ??
    operations().find((o) => o.method === 'put' && o.path.startsWith(`${template}/`) && !o.deprecated) ??
    own
  );
}

async function written(
  ctx: ContractContext,
  template: string,
  param: string,
  known: Record<string, string>,
): Promise<string | undefined> {
  const put = putFor(template);
  if (!put || !ctx.api.target.allowWrites) return undefined;
  const params = { ...known };
  for (const p of put.pathParams) params[p] ??= taggedId(ctx.runId, p);
  const x = await ctx.api.op(put, { params, json: opaqueRecord(ctx.runId) });
  if (!is2xx(x)) return undefined;
  const del = opAt('delete', put.path);
  if (del) ctx.cleanup.add(`delete ${fillPath(put.path, params)}`, () => ctx.api.op(del, { params }));
  const get = opAt('get', template);
  // Writes are asynchronous (spec 1): wait until the record reads, so the operation under test finds it.
  if (get) await untilVisible(() => ctx.api.op(get, { params }), is2xx);
  return params[param];
}

/** A batch id comes from writing an offer (spec 1: a write returns a batchId); the offer is cancelled afterwards. */
async function writtenBatch(ctx: ContractContext, param: string): Promise<string | undefined> {
  if (param !== 'batchId' || !ctx.api.target.allowWrites) return undefined;
  const offer = await putOffer(ctx, 'offer whose batch is read');
  const batchId = (offer.exchange.response.body as { batchId?: unknown } | undefined)?.batchId;
  // The acknowledgement's shape (spec 2.7) is response-schema's: without a batchId there is nothing to read here.
  if (typeof batchId !== 'string')
    ctx.check.blocked(RESPONSE_SCHEMA, offer.exchange, `PUT /offers/{offerId} answered no batchId (spec 2.7)`);
  return batchId;
}

/**
 * An id found in the lists of the same resource group: the records of
 * `/{group}` when `/{group}/{param}` reads one (a booking for {bookingId}),
 * else a field named like the parameter on the items of a parameterless list
 * of the group (a fuel activity's vehicleId for {vehicleId}) when the group
 * serves no record at the template itself.
 */
async function fromGroupLists(
  ctx: ContractContext,
  op: Operation,
  template: string,
  param: string,
): Promise<string | undefined> {
  const group = `/${op.path.split('/')[1]}`;
  if (opAt('get', `${group}/{${param}}`)) {
    const own = await listIds(ctx, group, {}, (item) => idOf(item, param));
    if (own) return own;
  }
  // A record the group serves at the template itself is only found through its own list: a field of the same name
  // elsewhere may name a record of another kind (a delivery's deliveryRequestId is not every kind of request).
  if (operations().some((o) => o.path === template && o !== op)) return undefined;
  for (const list of operations().filter(
    (o) => o.method === 'get' && o.pathParams.length === 0 && o.path.startsWith(group),
  )) {
    const id = await listIds(ctx, list.path, {}, (item) => {
      const v = typeof item === 'object' && item !== null ? (item as Json)[param] : undefined;
      return typeof v === 'string' && v !== '' ? v : undefined;
    });
    if (id) return id;
  }
  return undefined;
}

async function listIds(
  ctx: ContractContext,
  path: string,
  params: Record<string, string>,
  pick: (item: unknown) => string | undefined,
): Promise<string | undefined> {
  const list = opAt('get', path);
  if (!list) return undefined;
  const x: Exchange = await ctx.api.op(list, { params });
  const body = x.response.body;
  if (!is2xx(x)) return undefined;
  return recordsOf(body)
    .map(pick)
    .find((id) => id !== undefined);
}

async function discovered(
  ctx: ContractContext,
  template: string,
  param: string,
  known: Record<string, string>,
): Promise<string | undefined> {
  const collection = template.slice(0, template.lastIndexOf('/'));
  if (collection.endsWith('}')) return undefined;
  return listIds(ctx, collection, known, (item) => idOf(item, param));
}

/** Ids for every path parameter of `op`, or the reason one could not be found. */
export async function resolveIds(
  ctx: ContractContext,
  op: Operation,
): Promise<{ params: Record<string, string> } | { unresolved: string }> {
  const params: Record<string, string> = {};
  for (const param of op.pathParams) {
    const template = templateThrough(op.path, param);
    const id =
      (await writtenBatch(ctx, param)) ??
      (await written(ctx, template, param, params)) ??
      (await discovered(ctx, template, param, params)) ??
      (await fromGroupLists(ctx, op, template, param));
    if (id === undefined)
      return {
        unresolved: `no {${param}} to use: ${ctx.api.target.allowWrites ? 'no PUT of' : 'writes are not allowed, so nothing is written to'} ${template} that answered 2xx, and no list of the resource group shows a record with such an id`,
      };
    params[param] = id;
  }
  return { params };
}
