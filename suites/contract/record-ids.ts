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
import {
  type Exchange,
  is2xx,
  type CheckContext,
  skip,
  RESPONSE_SCHEMA,
  pollVisible,
  freshId,
  opaqueRecord,
  putOffer,
} from '../lib/index.ts';
import { recordsOf } from './listed-records.ts';

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
  ctx: CheckContext,
  template: string,
  param: string,
  known: Record<string, string>,
  newId: NewId,
): Promise<string | undefined> {
  const put = putFor(template);
  if (!put || !ctx.api.target.allowWrites) return undefined;
  const params = { ...known };
  for (const p of put.pathParams) params[p] ??= newId(p);
  const x = await ctx.api.op(put, { params, json: opaqueRecord(ctx.runId) });
  if (x.response.status === 401 || x.response.status === 403) refusedWrite(ctx, put, x);
  if (!is2xx(x)) return undefined;
  const del = opAt('delete', put.path);
  if (del) ctx.cleanup.add(`delete ${fillPath(put.path, params)}`, () => ctx.api.op(del, { params }));
  const get = opAt('get', template);
  // Writes are asynchronous (spec 1): wait until the record reads, so the operation under test finds it.
  if (get) await pollVisible(() => ctx.api.op(get, { params }), is2xx);
  return params[param];
}

/** The check that owns "every catalogued operation is served" (spec 4.3). */
const OPERATION_SERVED = 'operation-served';

/**
 * A catalogued write the valid token is refused (401, 403) is an operation that is not served, not a record that
 * cannot be had: operation-served fails (advisory: the spec does not say every token may make every write), the checks
 * that needed the record are blocked by it. auth-required, which asks the same of every operation, says not judged.
 */
function refusedWrite(ctx: CheckContext, put: Operation, x: Exchange): void {
  const check = ctx.check.meta.check;
  if (check === 'auth-required') return;
  const why = `${put.method.toUpperCase()} ${put.path} refused the valid token (${x.response.status}): a catalogued write the token cannot make is not served`;
  if (check !== OPERATION_SERVED) skip.blockedBy(ctx, OPERATION_SERVED, x, why);
  ctx.check.fail(why, {
    exchanges: [x],
    operationId: put.operationId,
    method: put.method,
    path: put.path,
    severity: 'advisory',
  });
}

/** A batch id comes from writing an offer (spec 1: a write returns a batchId); the offer is cancelled afterwards. */
async function writtenBatch(ctx: CheckContext, param: string): Promise<string | undefined> {
  if (param !== 'batchId' || !ctx.api.target.allowWrites) return undefined;
  const offer = await putOffer(ctx, 'offer whose batch is read');
  const batchId = (offer.exchange.response.body as { batchId?: unknown } | undefined)?.batchId;
  // The acknowledgement's shape (spec 2.7) is response-schema's: without a batchId there is nothing to read here.
  if (typeof batchId !== 'string')
    skip.blockedBy(ctx, RESPONSE_SCHEMA, offer.exchange, `PUT /offers/{offerId} answered no batchId (spec 2.7)`);
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
  ctx: CheckContext,
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
  ctx: CheckContext,
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
  ctx: CheckContext,
  template: string,
  param: string,
  known: Record<string, string>,
): Promise<string | undefined> {
  const collection = template.slice(0, template.lastIndexOf('/'));
  if (collection.endsWith('}')) return undefined;
  return listIds(ctx, collection, known, (item) => idOf(item, param));
}

/** A new run-tagged id for a path parameter. */
export type NewId = (param: string) => string;

/** An id for one path parameter, and whether the run wrote its record (else it was found listed). */
interface Found {
  id: string;
  written: boolean;
}

export interface ResolveOptions {
  /**
   * Ids already resolved in this test, by path template, shared by the operations under one record: each parent
   * is written or found once. Its promise is stored at once, so operations resolved side by side share it too.
   */
  cache?: Map<string, Promise<Found | undefined>>;
  /**
   * The record the operation changes (named by its last parameter) must be one this run writes, never one it
   * found: a write-method request changes only what the suite wrote. `fresh`: a record of its own, not shared
   * (a DELETE removes it).
   */
  own?: 'written' | 'fresh';
  /** How new ids are made (default: the test's run-tagged ids, suites/lib/fresh-id.ts). */
  newId?: (template: string) => NewId;
}

async function findId(
  ctx: CheckContext,
  op: Operation,
  template: string,
  param: string,
  known: Record<string, string>,
  writtenOnly: boolean,
  newId: NewId,
): Promise<Found | undefined> {
  const own = (await writtenBatch(ctx, param)) ?? (await written(ctx, template, param, known, newId));
  if (own !== undefined) return { id: own, written: true };
  if (writtenOnly) return undefined;
  const seen = (await discovered(ctx, template, param, known)) ?? (await fromGroupLists(ctx, op, template, param));
  return seen === undefined ? undefined : { id: seen, written: false };
}

function memo<T>(cache: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
  const hit = cache.get(key);
  if (hit) return hit;
  const made = make();
  cache.set(key, made);
  return made;
}

/** Ids for every path parameter of `op`, or the reason one could not be found. */
export async function resolveIds(
  ctx: CheckContext,
  op: Operation,
  options: ResolveOptions = {},
): Promise<{ params: Record<string, string> } | { unresolved: string }> {
  const params: Record<string, string> = {};
  for (const [i, param] of op.pathParams.entries()) {
    const template = templateThrough(op.path, param);
    const own = i === op.pathParams.length - 1 ? options.own : undefined;
    const newId =
      options.newId?.(own === 'fresh' ? op.operationId : template) ?? ((p: string) => freshId(p, ctx.runId));
    const find = () => findId(ctx, op, template, param, { ...params }, own !== undefined, newId);
    // A record this run must have written is not the one another operation may have found listed: cached apart.
    const key = own ? `${template} written` : template;
    const found = await (own === 'fresh' || !options.cache ? find() : memo(options.cache, key, find));
    if (found === undefined)
      return {
        unresolved: `no {${param}} to use: ${ctx.api.target.allowWrites ? 'no PUT of' : 'writes are not allowed, so nothing is written to'} ${template} that answered 2xx${own ? ' (the record a write-method request changes must be one this run wrote)' : ', and no list of the resource group shows a record with such an id'}`,
      };
    if (own && !found.written)
      return {
        unresolved: `the record ${template} names was found listed, not written by this run: the suite changes only records it wrote`,
      };
    params[param] = found.id;
  }
  return { params };
}
